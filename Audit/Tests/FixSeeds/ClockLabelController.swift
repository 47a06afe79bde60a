// swift-format-ignore-file
// A block timer that captures self strongly: the run loop retains the timer, the timer its block, the block the
// controller. `timerkit-audit --fix` adds `owner: self`, and the block receives the owner (held weakly).
import UIKit

final class ClockLabelController: UIViewController {
    var clockTimer: Timer!
    let label = UILabel()
    var ticks = 0

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        clockTimer = Timer.scheduledTimer(withTimeInterval: 0.5, repeats: true) { _ in
            self.ticks += 1
            self.label.text = "\(self.ticks)"
        }
    }
}
