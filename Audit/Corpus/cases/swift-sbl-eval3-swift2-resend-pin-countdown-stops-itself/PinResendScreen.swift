// swift-format-ignore-file
import UIKit

class PinResendScreen: UIViewController {
    @IBOutlet weak var resendCaption: UILabel!
    @IBOutlet weak var resendPinButton: UIButton!
    var phoneDigits = ""
    var resendTicker: NSTimer = NSTimer()
    var secondsUntilResend = 59

    override func viewDidLoad() {
        super.viewDidLoad()
        resendPinButton.enabled = false
        resendTicker = NSTimer.scheduledTimerWithTimeInterval(1, target: self, selector: "advanceResendClock", userInfo: nil, repeats: true)
    }

    func advanceResendClock() {
        if secondsUntilResend > 0 {
            resendCaption.text = "A new code in \(secondsUntilResend--) s"
        } else {
            resendCaption.text = ""
            resendPinButton.enabled = true
            resendTicker.invalidate()
        }
    }

    @IBAction func resendPinTapped(sender: AnyObject) {
    }
}
