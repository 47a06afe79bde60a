// swift-format-ignore-file
import UIKit

class LiveScoreViewController: UIViewController {
    var repeater: GCDRepeater!

    override func viewWillAppear(animated: Bool) {
        super.viewWillAppear(animated)
        repeater = GCDRepeater {
            print("refresh scores")
        }
        repeater.startEvery(5)
    }

    override func viewWillDisappear(animated: Bool) {
        super.viewWillDisappear(animated)
        repeater.cancel()
    }
}
