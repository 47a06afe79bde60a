// swift-format-ignore-file
// The "fix" of seeds 000 and 003 that does not work: a weak timer property. The run loop retains the timer and
// the timer its target, so the controller still leaks. There is no exact edit for it (TimerKit's replacement
// needs the property made strong, a choice about ownership): `--fix` leaves it as it is and lists it.
import UIKit

final class WeakTimerPropertyViewController: UIViewController {
    weak var timer: Timer?

    override func viewDidLoad() {
        super.viewDidLoad()
        timer = Timer.scheduledTimer(timeInterval: 1, target: self, selector: #selector(step), userInfo: nil, repeats: true)
    }

    @objc func step() {}
}
