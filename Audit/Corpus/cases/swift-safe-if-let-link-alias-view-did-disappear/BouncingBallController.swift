// swift-format-ignore-file
import UIKit

final class BouncingBallController: UIViewController {
    private var ballLink: CADisplayLink?
    private let ball = UIView()

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        ballLink = CADisplayLink(target: self, selector: #selector(moveBall(link:)))
        ballLink?.add(to: .main, forMode: .common)
    }

    override func viewDidDisappear(_ animated: Bool) {
        super.viewDidDisappear(animated)
        if let link = ballLink {
            link.invalidate()
            ballLink = nil
        }
    }

    @objc private func moveBall(link: CADisplayLink) {
        ball.center.x += 1
    }
}
