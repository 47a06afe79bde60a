// swift-format-ignore-file
import Combine
import Foundation

final class TimeLabelModel: ObservableObject {
    @Published var shownTime = ""
    private var labelSubscription: AnyCancellable?
    private let timeFormatter = DateFormatter()

    init() {
        hookUpTimeLabel()
    }

    private func hookUpTimeLabel() {
        labelSubscription = Timer.publish(every: 1, on: .main, in: .default)
            .autoconnect()
            .receive(on: RunLoop.main)
            .sink { value in
                self.shownTime = self.timeFormatter.string(from: value)
            }
    }
}
