// swift-format-ignore-file
import UIKit

class TapTotalDemoController: UIViewController {

    var tapTotal = 0
    var tapTotalTimer: Timer?

    @IBOutlet weak var tapTotalLabel: UILabel!

    override func viewDidLoad() {
        super.viewDidLoad()

        tapTotalTimer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true, block: {
            timer in
            self.tapTotal += 1
            self.tapTotalLabel.text = "\(self.tapTotal)"
        })
    }
}
