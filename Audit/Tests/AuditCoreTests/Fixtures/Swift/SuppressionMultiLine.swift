// swift-format-ignore-file
// A suppression comment above a multi-line statement covers every line of it; the marker in a string
// literal does nothing.
import Foundation

final class Clock {
    var timer: Timer?
    var n = 0

    func start() {
        // timerkit-audit:ignore block-timer-strong-self
        timer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in
            self.n += 1
        }
        let s = "timerkit-audit:ignore"
        _ = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in self.n += 1 }  // expect: block-timer-strong-self
    }
}

final class ChainedClock {
    var timer: Timer?
    var n = 0

    func start() {
        // timerkit-audit:ignore block-timer-strong-self
        timer = Timer
            .scheduledTimer(withTimeInterval: 1, repeats: true) { _ in
                self.n += 1
            }
        timer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in
            self.n += 1  // expect: block-timer-strong-self
        }
    }
}
