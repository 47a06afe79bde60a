// swift-format-ignore-file
import UIKit

final class RippleButtonController: UIViewController {
    let rippleAnimator = RippleAnimator()

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        rippleAnimator.beginRipple()
    }

    override func viewWillDisappear(_ animated: Bool) {
        super.viewWillDisappear(animated)
        self.rippleAnimator.invalidate()
    }
}
