// swift-format-ignore-file
import UIKit

class BouncingDotsController: UIViewController, FrameTickListener {
    var tickNotifier: FrameTickNotifier?

    override func viewDidLoad() {
        super.viewDidLoad()
        tickNotifier = FrameTickNotifier.init(listener: self)
    }

    func frameTicked(delta: CFTimeInterval) {
        view.setNeedsLayout()
    }
}
