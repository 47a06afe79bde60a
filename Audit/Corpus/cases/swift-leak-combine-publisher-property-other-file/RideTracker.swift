// swift-format-ignore-file
import Combine
import Foundation

final class RideTracker {
    let tick = Timer.TimerPublisher(interval: 1.0, runLoop: .main, mode: .default)
    var subscriptions = Set<AnyCancellable>()
    var distance: Double = 0
    var speed: Double = 0

    init() {
        tick.connect().store(in: &subscriptions)
        observeTicks()
    }
}
