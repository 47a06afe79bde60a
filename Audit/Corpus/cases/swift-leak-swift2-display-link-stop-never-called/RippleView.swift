// swift-format-ignore-file
import UIKit

class RippleView: UIView {

    var rippleLink: CADisplayLink?
    var phase: CGFloat = 0

    func startRipple() {
        rippleLink = CADisplayLink(target: self, selector: Selector("advanceRipple"))
        rippleLink?.addToRunLoop(NSRunLoop.mainRunLoop(), forMode: NSRunLoopCommonModes)
    }

    func haltRipple() {
        rippleLink?.invalidate()
        rippleLink = nil
    }

    func advanceRipple() {
        phase += 0.05
        setNeedsDisplay()
    }
}
