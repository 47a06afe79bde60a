// swift-format-ignore-file
import UIKit

class SparkleView: UIView {

    var frameLink: CADisplayLink?
    var running = false

    func beginSparkle() {
        if !running {
            frameLink = CADisplayLink(target: self, selector: Selector("drawSparkle"))
            frameLink?.frameInterval = 2
            frameLink?.addToRunLoop(NSRunLoop.currentRunLoop(), forMode: NSRunLoopCommonModes)
            running = true
        }
    }

    func endSparkle() {
        frameLink?.invalidate()
        frameLink = nil
        running = false
    }

    func drawSparkle() {
        setNeedsDisplay()
    }
}
