// swift-format-ignore-file
import UIKit

class WallClockController: UIViewController {

    @IBOutlet weak var wallTimeLabel: UILabel!

    var wallTicker: Timer?

    override func viewDidLoad() {
        super.viewDidLoad()
        refreshWallTime()
        wallTicker = Timer.scheduledTimer(withTimeInterval: 0.4, repeats: true, block: refreshWallTime(timer:))
    }

    func refreshWallTime(timer: Timer? = nil) {
        let formatter = DateFormatter()
        formatter.timeStyle = .medium
        wallTimeLabel.text = formatter.string(from: Date())
    }

    deinit {
        if let wallTicker = self.wallTicker {
            wallTicker.invalidate()
        }
    }
}
