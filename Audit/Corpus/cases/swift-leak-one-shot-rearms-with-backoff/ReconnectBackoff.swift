// swift-format-ignore-file
import Foundation

final class ReconnectBackoff {
    var onAttempt: (() -> Void)?
    private var pending: Timer?
    private var previous: TimeInterval = 0
    private var current: TimeInterval = 1

    func begin() {
        pending = Timer.scheduledTimer(timeInterval: 1, target: self, selector: #selector(attempt), userInfo: nil, repeats: false)
    }

    func cancelAttempts() {
        pending?.invalidate()
    }

    @objc private func attempt() {
        onAttempt?()
        let next = previous + current
        previous = current
        current = next
        pending = Timer.scheduledTimer(timeInterval: next, target: self, selector: #selector(attempt), userInfo: nil, repeats: false)
    }
}
