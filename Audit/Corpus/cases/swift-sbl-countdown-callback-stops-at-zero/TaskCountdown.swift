// swift-format-ignore-file
import Foundation

class TaskCountdown {
    var remaining = 0
    var onUpdate: (Int) -> Void = { _ in }
    lazy var ticker = Timer()

    func start(seconds: Int, onUpdate: @escaping (Int) -> Void) {
        ticker.invalidate()
        remaining = seconds
        self.onUpdate = onUpdate
        onUpdate(remaining)
        ticker = Timer.scheduledTimer(
            timeInterval: 1.0,
            target: self,
            selector: #selector(TaskCountdown.tick),
            userInfo: nil,
            repeats: true
        )
    }

    @objc func tick() {
        remaining -= 1
        onUpdate(remaining)
        if remaining <= 0 {
            ticker.invalidate()
        }
    }
}
