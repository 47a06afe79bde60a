// swift-format-ignore-file
import Foundation

final class SoftTimer {
    fileprivate weak var timer: Timer?
    fileprivate weak var owner: AnyObject?
    fileprivate let action: (Timer) -> Void

    fileprivate init(interval: TimeInterval, owner: AnyObject, repeats: Bool, action: @escaping (Timer) -> Void) {
        self.owner = owner
        self.action = action
        self.timer = Timer.scheduledTimer(timeInterval: interval, target: self, selector: #selector(fire), userInfo: nil, repeats: repeats)
    }

    class func schedule(interval: TimeInterval, owner: AnyObject, repeats: Bool, action: @escaping (Timer) -> Void) -> Timer {
        return SoftTimer(interval: interval, owner: owner, repeats: repeats, action: action).timer!
    }

    @objc fileprivate func fire(timer: Timer) {
        if owner != nil {
            action(timer)
        } else {
            timer.invalidate()
        }
    }
}
