// swift-format-ignore-file
import Foundation

final class TypingStatusPoller: NSObject {
    weak var pollTimer: Timer?

    func start() {
        pollTimer = Timer.scheduledTimer(timeInterval: 3.0, target: self, selector: #selector(poll), userInfo: nil, repeats: true)
    }

    @objc private func poll() {
        print("typing?")
    }
}
