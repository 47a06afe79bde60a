// swift-format-ignore-file
import Foundation

protocol FocusCountdownDelegate: AnyObject {
    func focusCountdownDidFinish()
}

class FocusCountdown {
    private var timer: Timer!
    private var total: TimeInterval
    private var elapsed: TimeInterval = 0

    weak var delegate: FocusCountdownDelegate?

    init(from total: TimeInterval) {
        self.total = total
    }

    func start() {
        timer?.invalidate()
        timer = Timer.scheduledTimer(timeInterval: 1, target: self, selector: #selector(secondElapsed), userInfo: nil, repeats: true)
    }

    @objc private func secondElapsed() {
        elapsed += 1
        if total - elapsed <= 0 {
            delegate?.focusCountdownDidFinish()
            timer.invalidate()
            elapsed = 0
        }
    }
}
