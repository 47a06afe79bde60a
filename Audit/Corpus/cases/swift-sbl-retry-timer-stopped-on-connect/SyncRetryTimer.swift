// swift-format-ignore-file
import Foundation

class SyncRetryTimer {
    var onRetry: (() -> Void)?
    private var timer: Timer?
    private var last: TimeInterval = 0
    private var step: TimeInterval = 1

    func start() {
        timer?.invalidate()
        timer = Timer.scheduledTimer(timeInterval: 1, target: self, selector: #selector(retryNow), userInfo: nil, repeats: false)
    }

    func stop() {
        timer?.invalidate()
    }

    @objc private func retryNow() {
        onRetry?()
        timer?.invalidate()
        let next = last + step
        last = step
        step = next
        timer = Timer.scheduledTimer(timeInterval: next, target: self, selector: #selector(retryNow), userInfo: nil, repeats: false)
    }
}
