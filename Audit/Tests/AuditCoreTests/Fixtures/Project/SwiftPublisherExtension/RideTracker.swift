// swift-format-ignore-file
// A TimerPublisher made with its initializer, in a property; the subscription is made in another file that
// names no timer.
import Combine
import Foundation

final class RideTracker {
    let tick = Timer.TimerPublisher(interval: 1.0, runLoop: .main, mode: .default)
    var subscriptions = Set<AnyCancellable>()
    var distance = 0.0
}
