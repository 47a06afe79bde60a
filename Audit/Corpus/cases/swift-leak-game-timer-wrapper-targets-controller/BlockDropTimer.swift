// swift-format-ignore-file
import UIKit

class BlockDropTimer: NSObject {
    var dropCounter = 0
    fileprivate var dropLink: CADisplayLink!

    init(target: AnyObject, selector: Selector) {
        self.dropLink = CADisplayLink(target: target, selector: selector)
        self.dropLink.preferredFramesPerSecond = 30
        self.dropLink.isPaused = true
        self.dropLink.add(to: RunLoop.current, forMode: RunLoop.Mode.default)
    }

    func resumeDrops() {
        self.dropLink.isPaused = false
    }

    func pauseDrops() {
        self.dropLink.isPaused = true
    }

    deinit {
        if let link = self.dropLink {
            link.remove(from: RunLoop.current, forMode: RunLoop.Mode.default)
        }
    }
}
