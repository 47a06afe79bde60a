// swift-format-ignore-file
import UIKit

final class RippleAnimator {
    private var rippleLink: CADisplayLink?
    var onRippleFrame: (() -> Void)?

    func beginRipple() {
        guard rippleLink == nil else { return }
        rippleLink = CADisplayLink(target: self, selector: #selector(rippleFrame))
        rippleLink?.add(to: .main, forMode: .common)
    }

    @objc private func rippleFrame() {
        onRippleFrame?()
    }

    func invalidate() {
        rippleLink?.invalidate()
        rippleLink = nil
    }
}
