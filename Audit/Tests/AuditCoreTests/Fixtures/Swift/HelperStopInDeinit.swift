// swift-format-ignore-file
// The only stop is in a helper that only deinit calls: deinit never runs while the timer retains self.
import Foundation

final class Session {
    private var timer: Timer?

    func begin() {
        timer = Timer.scheduledTimer(timeInterval: 30, target: self, selector: #selector(refresh), userInfo: nil, repeats: true)  // expect: timer-target-retain
    }

    private func stopTimer() {
        timer?.invalidate()
        timer = nil
    }

    deinit {
        stopTimer()  // expect: invalidate-only-in-deinit
    }

    @objc private func refresh() {}
}
