// swift-format-ignore-file
import UIKit

final class WaveformView: UIView {
    var sweepLink: CADisplayLink?
    var level: CGFloat = 0

    func beginSweep() {
        endSweep()
        sweepLink = CADisplayLink(target: self, selector: #selector(sweepStep))
        sweepLink?.add(to: .main, forMode: .common)
    }

    @objc func sweepStep() {
        level = CGFloat.random(in: 0...1)
        setNeedsDisplay()
    }

    override func willMove(toWindow newWindow: UIWindow?) {
        super.willMove(toWindow: newWindow)
        if newWindow == nil {
            endSweep()
        }
    }
}
