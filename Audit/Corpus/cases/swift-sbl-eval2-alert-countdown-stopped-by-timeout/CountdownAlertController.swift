// swift-format-ignore-file
import UIKit

open class CountdownAlertController: UIViewController {
    var dismissTimer: Timer?
    var tickTimer: Timer?
    var secondsLeft: TimeInterval = 0
    var alertButtons: [UIButton] = []
    var keepAlive: CountdownAlertController?

    open func presentAlert(timeout: TimeInterval) {
        keepAlive = self
        secondsLeft = timeout
        dismissTimer?.invalidate()
        dismissTimer = Timer.scheduledTimer(timeInterval: timeout, target: self, selector: #selector(CountdownAlertController.dismissOnTimeout), userInfo: nil, repeats: false)
        tickTimer?.invalidate()
        tickTimer = Timer.scheduledTimer(timeInterval: 1.0, target: self, selector: #selector(CountdownAlertController.tickCountdown), userInfo: nil, repeats: true)
    }

    @objc open func tickCountdown() {
        secondsLeft -= 1
        for button in alertButtons {
            button.setTitle("Close (\(Int(secondsLeft)))", for: .normal)
        }
    }

    @objc open func dismissAlert() {
        UIView.animate(withDuration: 0.2, animations: {
            self.view.alpha = 0
        }, completion: { _ in
            self.dismissTimer?.invalidate()
            self.tickTimer?.invalidate()
            self.view.removeFromSuperview()
            self.keepAlive = nil
        })
    }

    @objc open func dismissOnTimeout() {
        dismissAlert()
    }
}
