// swift-format-ignore-file
import Combine
import Foundation

final class DashboardTickModel: ObservableObject {
    @Published var clockLabel = ""
    private var tickBag = Set<AnyCancellable>()

    init(ticks: Publishers.Autoconnect<Timer.TimerPublisher>) {
        ticks
            .sink { date in
                self.clockLabel = "\(date)"
            }
            .store(in: &tickBag)
    }
}
