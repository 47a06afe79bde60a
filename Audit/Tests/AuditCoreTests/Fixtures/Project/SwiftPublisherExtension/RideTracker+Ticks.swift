// swift-format-ignore-file
import Combine

extension RideTracker {
    func observe() {
        tick
            .sink { _ in
                self.distance += 1  // expect: block-timer-strong-self
            }
            .store(in: &subscriptions)
    }
}
