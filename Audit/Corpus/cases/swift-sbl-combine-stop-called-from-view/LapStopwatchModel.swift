// swift-format-ignore-file
import Combine
import Foundation

final class LapStopwatchModel: ObservableObject {
    @Published private(set) var tenths = 0
    private var ticking: AnyCancellable?

    func start() {
        ticking = Timer.publish(every: 0.1, on: .main, in: .common)
            .autoconnect()
            .sink { _ in
                self.tenths += 1
            }
    }

    func stop() {
        ticking?.cancel()
        ticking = nil
    }
}
