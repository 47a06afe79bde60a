// swift-format-ignore-file
import UIKit

class ScoreViewController: UIViewController {

    var points = 0
    var refreshTimer: NSTimer?

    override func viewDidLoad() {
        super.viewDidLoad()
        refreshTimer = NSTimer(timeInterval: 1, target: self, selector: #selector(self.reload(_:)), userInfo: nil, repeats: true)
        refreshTimer!.fire()
    }

    func reload(sender: AnyObject) {
        print(points)
    }
}
