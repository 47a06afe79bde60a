// swift-format-ignore-file
import UIKit

class GaugeViewController: UIViewController {

    var level: CGFloat = 0

    override func viewDidLoad() {
        super.viewDidLoad()
        let refresher = NSTimer.scheduledTimerWithTimeInterval(0.4,
                                                               target: self,
                                                               selector: Selector("sample"),
                                                               userInfo: nil,
                                                               repeats: true)
        refresher.tolerance = 0.1
    }

    func sample() {
        level = CGFloat(arc4random_uniform(100)) / 100
        view.setNeedsDisplay()
    }
}
