// swift-format-ignore-file
import UIKit

class PondViewController: UIViewController {

    override func viewDidLoad() {
        super.viewDidLoad()
        let ripple = RippleView(frame: view.bounds)
        view.addSubview(ripple)
        ripple.startRipple()
    }
}
