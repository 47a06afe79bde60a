// swift-format-ignore-file
import Combine
import Foundation

final class WallClockViewModel: ObservableObject {
    @Published var hourText = "00"
    @Published var minuteText = "00"
    private var wallBag = Set<AnyCancellable>()

    init() {
        Timer.publish(every: 1, on: .main, in: .common).autoconnect()
            .sink { now in
                let parts = Calendar.current.dateComponents([.hour, .minute], from: now)
                self.hourText = "\(parts.hour ?? 0)"
                self.minuteText = "\(parts.minute ?? 0)"
            }.store(in: &wallBag)
    }
}
