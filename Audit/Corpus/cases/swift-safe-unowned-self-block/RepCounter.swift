// swift-format-ignore-file
import Foundation

class RepCounter {
    var repTimer: Timer?
    var reps = 0

    init() {
        repTimer = Timer.scheduledTimer(withTimeInterval: 1.0, repeats: true) { [unowned self] _ in
            self.reps += 1
        }
    }

    deinit {
        repTimer?.invalidate()
    }
}
