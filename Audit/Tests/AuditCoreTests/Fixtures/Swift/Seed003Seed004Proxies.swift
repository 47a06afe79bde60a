// swift-format-ignore-file
// Seeds 003 and 004 in Swift: a carousel view that keeps its timer weakly (still leaks), and the fixes:
// an intermediate object and a weak proxy as the target.
import UIKit

final class CarouselView: UIView {
    weak var timer: Timer?

    func startAutoScroll() {
        timer = Timer.scheduledTimer(
            timeInterval: 3.0,
            target: self,  // expect: weak-timer-property-no-fix
            selector: #selector(showNextPage),
            userInfo: nil,
            repeats: true)
    }

    @objc func showNextPage() {}
}

final class TimerIntermediate: NSObject {
    weak var timer: Timer?
    weak var target: NSObjectProtocol?
    var selector: Selector?

    @objc func fire(_ timer: Timer) {
        if let target, let selector {
            _ = target.perform(selector, with: timer.userInfo)
        } else {
            self.timer?.invalidate()
        }
    }

    static func scheduled(interval: TimeInterval, target: NSObjectProtocol, selector: Selector) -> Timer {
        let intermediate = TimerIntermediate()
        intermediate.target = target
        intermediate.selector = selector
        intermediate.timer = Timer.scheduledTimer(
            timeInterval: interval, target: intermediate, selector: #selector(fire(_:)), userInfo: nil, repeats: true)
        return intermediate.timer!
    }
}

final class WeakProxy: NSObject {
    weak var target: NSObjectProtocol?

    init(target: NSObjectProtocol) {
        self.target = target
    }

    override func responds(to aSelector: Selector!) -> Bool {
        target?.responds(to: aSelector) ?? false
    }

    override func forwardingTarget(for aSelector: Selector!) -> Any? {
        target
    }
}

final class ClockViewController: UIViewController {
    var timer: Timer?

    func startTicking() {
        timer = Timer.scheduledTimer(
            timeInterval: 1, target: WeakProxy(target: self), selector: #selector(tick), userInfo: nil, repeats: true)
    }

    func startThroughIntermediate() {
        timer = TimerIntermediate.scheduled(interval: 1, target: self, selector: #selector(tick))
    }

    @objc func tick() {}

    deinit {
        timer?.invalidate()
    }
}
