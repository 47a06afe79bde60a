// swift-format-ignore-file
import UIKit

final class ConfettiEmitter {
    private var confettiLink: CADisplayLink?

    func burst() {
        confettiLink = CADisplayLink(target: self, selector: #selector(dropConfetti))
        confettiLink?.add(to: .main, forMode: .common)
    }

    @objc private func dropConfetti() {}

    func invalidate() {
        confettiLink?.invalidate()
        confettiLink = nil
    }
}
