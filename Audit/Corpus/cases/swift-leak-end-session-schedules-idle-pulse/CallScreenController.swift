// swift-format-ignore-file
import UIKit

final class CallScreenController: UIViewController {
    private var pulseTimer: Timer?

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        pulseTimer = Timer.scheduledTimer(timeInterval: 0.5, target: self, selector: #selector(pulseCallIndicator), userInfo: nil, repeats: true)
    }

    override func viewWillDisappear(_ animated: Bool) {
        super.viewWillDisappear(animated)
        endCallPulse()
    }

    private func endCallPulse() {
        pulseTimer?.invalidate()
        pulseTimer = Timer.scheduledTimer(timeInterval: 5, target: self, selector: #selector(idleCallPulse), userInfo: nil, repeats: true)
    }

    @objc private func pulseCallIndicator() {}
    @objc private func idleCallPulse() {}
}
