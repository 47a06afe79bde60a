// swift-format-ignore-file
import Combine
import Foundation

extension RideTracker {
    func observeTicks() {
        tick
            .sink { _ in
                self.distance += self.speed
            }
            .store(in: &subscriptions)
    }
}
