// swift-format-ignore-file
import UIKit

class DashedBorderView: UIView {
    var crawlLink: CADisplayLink!
    var phase: CGFloat = 0

    func crawl() {
        phase += 1
        setNeedsDisplay()
    }
}
