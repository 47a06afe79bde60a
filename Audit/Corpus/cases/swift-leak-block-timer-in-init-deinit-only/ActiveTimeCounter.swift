// swift-format-ignore-file
import Foundation

class ActiveTimeCounter {
    var clock: Timer?
    var secondsActive = 0

    init() {
        clock = Timer.scheduledTimer(withTimeInterval: 1.0, repeats: true) { _ in
            self.secondsActive += 1
            print(self.secondsActive)
        }
    }

    deinit {
        clock?.invalidate()
    }
}
