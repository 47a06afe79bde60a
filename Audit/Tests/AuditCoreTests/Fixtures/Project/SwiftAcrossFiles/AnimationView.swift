// swift-format-ignore-file
// Stops in other files: a controller stops its view's animation in a life-cycle method (nothing to
// report), another one from an ordinary method (a note naming it).
import UIKit

final class AnimationView: UIView {
    private var link: CADisplayLink?

    func startAnimating() {
        link = CADisplayLink(target: self, selector: #selector(step))
        link?.add(to: .main, forMode: .common)
    }

    func stopAnimating() {
        link?.invalidate()
    }

    @objc private func step() {}
}

final class ProgressRing: UIView {
    private var link: CADisplayLink?

    func spin() {
        link = CADisplayLink(target: self, selector: #selector(step))  // expect-note: display-link-target-retain
    }

    func halt() {
        link?.invalidate()
    }

    @objc private func step() {}
}
