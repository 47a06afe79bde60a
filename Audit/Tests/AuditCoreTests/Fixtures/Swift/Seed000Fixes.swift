// swift-format-ignore-file
// Seed 000's working fixes in Swift: a weak intermediate target, a block timer with [weak self], and
// TimerKit, which holds the target or owner weakly.
// expect-none
import Foundation
import TimerKit

final class WeakTimerTarget: NSObject {
    weak var target: AnyObject?
    let selector: Selector
    weak var timer: Timer?

    init(target: AnyObject, selector: Selector) {
        self.target = target
        self.selector = selector
    }

    @objc func fire(_ timer: Timer) {
        if let target {
            _ = target.perform(selector, with: timer.userInfo)
        } else {
            self.timer?.invalidate()
        }
    }

    static func scheduledTimer(
        interval: TimeInterval, target: AnyObject, selector: Selector, repeats: Bool
    ) -> Timer {
        let timerTarget = WeakTimerTarget(target: target, selector: selector)
        let timer = Timer.scheduledTimer(
            timeInterval: interval, target: timerTarget, selector: #selector(fire(_:)), userInfo: nil,
            repeats: repeats)
        timerTarget.timer = timer
        return timer
    }
}

final class MainViewController: NSObject {
    var timer: Timer?
    var ticker: Ticker?

    func fireThroughIntermediate() {
        timer = WeakTimerTarget.scheduledTimer(interval: 1, target: self, selector: #selector(timeStart), repeats: true)
    }

    func fireWithBlock() {
        timer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { [weak self] timer in
            guard let self else {
                timer.invalidate()
                return
            }
            self.timeStart()
        }
    }

    func fireWithTimerKitTarget() {
        ticker = Ticker.schedule(.every(seconds: 1.0), on: .main, target: self, action: MainViewController.timeStart)
    }

    func fireWithTimerKitOwner() {
        Ticker.schedule(.every(.seconds(1)), on: .main, owner: self) { controller, _ in
            controller.timeStart()
        }
    }

    func fireWithFoundationDropIn() {
        Timer.scheduledTimer(withTimeInterval: 1, repeats: true, owner: self) { controller, _ in
            controller.timeStart()
        }
        Timer.scheduledTimer(timeInterval: 1, target: self, action: MainViewController.timeStart, repeats: true)
    }

    @objc func timeStart() {}

    deinit {
        timer?.invalidate()
    }
}
