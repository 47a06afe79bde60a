// swift-format-ignore-file
import UIKit

extension ExpiryLabel {

    func makeTicker() -> NSTimer {
        return NSTimer.scheduledTimerWithTimeInterval(1, target: self, selector: #selector(tickDown), userInfo: nil, repeats: true)
    }

    func tickDown() {
        secondsRemaining -= 1
        if secondsRemaining < 0 {
            ticker.invalidate()
            ticker = nil
            onExpired?()
            return
        }
        render()
    }
}
