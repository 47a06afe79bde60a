// swift-format-ignore-file
import UIKit

class ClockViewController: UIViewController {

    @IBOutlet weak var timeLabel: UILabel!
    var clockTimer = NSTimer()

    override func viewDidLoad() {
        super.viewDidLoad()
        clockTimer = NSTimer.scheduledTimerWithTimeInterval(1, target: self, selector: "showTime", userInfo: nil, repeats: true)
    }

    func showTime() {
        let formatter = NSDateFormatter()
        formatter.timeStyle = .MediumStyle
        timeLabel.text = formatter.stringFromDate(NSDate())
    }
}
