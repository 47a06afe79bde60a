// swift-format-ignore-file
import Combine
import Foundation

final class HeartbeatPublisher {
    let publisher: Timer.TimerPublisher
    private var connection: Cancellable?

    init(interval: TimeInterval) {
        publisher = Timer.publish(every: interval, on: .main, in: .default)
    }

    deinit {
        disconnect()
    }

    func connect() {
        connection = publisher.connect()
    }

    func disconnect() {
        connection?.cancel()
    }
}
