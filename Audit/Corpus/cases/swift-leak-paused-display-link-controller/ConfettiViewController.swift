// swift-format-ignore-file
import UIKit

class ConfettiViewController: UIViewController {

    var confettiLink: CADisplayLink?

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .black
        confettiLink = CADisplayLink(target: self, selector: #selector(stepConfetti))
        confettiLink?.isPaused = true
        confettiLink?.add(to: RunLoop.main, forMode: .common)
    }

    @IBAction func celebrate(_ sender: UIButton) {
        confettiLink?.isPaused = false
    }

    @objc func stepConfetti() {
        view.setNeedsDisplay()
    }
}
