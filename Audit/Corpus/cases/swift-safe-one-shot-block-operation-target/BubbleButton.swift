// swift-format-ignore-file
import UIKit

class BubbleButton: UIButton {

    @discardableResult
    func after(_ delay: TimeInterval, run work: @escaping () -> Void) -> Timer {
        return Timer.scheduledTimer(timeInterval: delay, target: BlockOperation(block: work), selector: #selector(Operation.main), userInfo: nil, repeats: false)
    }

    override func didMoveToWindow() {
        super.didMoveToWindow()
        let lifetime = TimeInterval(arc4random_uniform(4) + 2)
        after(lifetime) {
            self.removeFromSuperview()
        }
    }
}
