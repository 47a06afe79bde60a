// swift-format-ignore-file
import UIKit

class RewardViewController: UIViewController {

    let sparkle = SparkleView(frame: CGRectZero)

    override func viewDidAppear(animated: Bool) {
        super.viewDidAppear(animated)
        view.addSubview(sparkle)
        sparkle.beginSparkle()
    }

    override func viewWillDisappear(animated: Bool) {
        super.viewWillDisappear(animated)
        sparkle.endSparkle()
    }
}
