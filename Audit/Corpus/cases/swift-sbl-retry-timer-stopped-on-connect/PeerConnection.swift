// swift-format-ignore-file
import Foundation

final class PeerConnection {
    private let retry = SyncRetryTimer()

    func didDisconnect() {
        retry.onRetry = { [weak self] in
            self?.connect()
        }
        retry.start()
    }

    func didConnect() {
        retry.stop()
    }

    func connect() {}
}
