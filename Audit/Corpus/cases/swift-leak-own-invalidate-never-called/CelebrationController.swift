// swift-format-ignore-file
import UIKit

final class CelebrationController: UIViewController {
    let confetti = ConfettiEmitter()
    weak var hideTimer: Timer?

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        confetti.burst()
    }

    override func viewWillDisappear(_ animated: Bool) {
        super.viewWillDisappear(animated)
        hideTimer?.invalidate()
    }
}
