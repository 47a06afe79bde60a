// swift-format-ignore-file
import UIKit

final class ParticleFieldView: UIView {
    private var stepLink: CADisplayLink?

    override class var layerClass: AnyClass { CAMetalLayer.self }

    override func didMoveToWindow() {
        super.didMoveToWindow()
        guard let window = window else {
            stepLink?.invalidate()
            stepLink = nil
            return
        }
        stepLink?.invalidate()
        stepLink = window.screen.displayLink(withTarget: self, selector: #selector(stepParticles))
        stepLink?.add(to: .current, forMode: .common)
    }

    @objc private func stepParticles() {
        layer.setNeedsDisplay()
    }
}
