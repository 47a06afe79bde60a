// swift-format-ignore-file
import Foundation

final class SocketClient {
    let backoff = ReconnectBackoff()

    func connectionDropped() {
        backoff.onAttempt = { [weak self] in
            self?.reconnect()
        }
        backoff.begin()
    }

    func reconnect() {}
}
