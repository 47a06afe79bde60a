// swift-format-ignore-file
import UIKit

class RelayTimer: NSObject {
    weak var target: NSObjectProtocol?
    var action: Selector?
    weak var timer: Timer?

    class func scheduledTimer(timeInterval interval: TimeInterval, target: NSObjectProtocol, selector: Selector, userInfo: Any?, repeats: Bool) -> Timer {
        let relay = RelayTimer()
        relay.target = target
        relay.action = selector
        relay.timer = Timer.scheduledTimer(timeInterval: interval, target: relay, selector: #selector(relayFire(_:)), userInfo: userInfo, repeats: repeats)
        return relay.timer!
    }

    @objc func relayFire(_ timer: Timer) {
        guard let target = target, let action = action, target.responds(to: action) else {
            self.timer?.invalidate()
            return
        }
        target.perform(action, with: timer.userInfo)
    }
}
