// swift-format-ignore-file
// Mentions no timer: only read for the methods it calls, and where.
import UIKit

final class AnimationViewController: UIViewController {
    let animationView = AnimationView()
    let ring = ProgressRing()

    override func viewWillDisappear(_ animated: Bool) {
        super.viewWillDisappear(animated)
        animationView.stopAnimating()
    }

    func uploadFinished() {
        ring.halt()
    }
}
