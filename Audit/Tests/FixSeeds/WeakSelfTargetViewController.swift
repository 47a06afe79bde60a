// swift-format-ignore-file
// Seed 000's weakSelf "fix" in Swift: a weak variable passed as the target. The timer stores the object
// strongly, so this leaks exactly as `target: self` does. No exact edit (the weak variable's other uses are
// unknown): `--fix` leaves it as it is and lists it.
import UIKit

final class WeakSelfTargetViewController: UIViewController {
    var timer: Timer?

    override func viewDidLoad() {
        super.viewDidLoad()
        weak var weakSelf = self
        timer = Timer.scheduledTimer(timeInterval: 1, target: weakSelf as Any, selector: #selector(step), userInfo: nil, repeats: true)
    }

    @objc func step() {}
}
