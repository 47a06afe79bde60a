// swift-format-ignore-file
import UIKit

class TickerTapeController: UIViewController {

    @IBOutlet weak var tapeLabel: UILabel!

    var tapeWidth: CGFloat = 0
    var screenWidth: CGFloat = 0
    var tapeTimer: Timer?

    override func viewDidLoad() {
        super.viewDidLoad()
        prepareTape()
    }

    deinit {
        endTapeTimer()
    }

    func endTapeTimer() {
        if tapeTimer != nil {
            tapeTimer?.invalidate()
            tapeTimer = nil
        }
    }

    func prepareTape() {
        guard tapeLabel.text != nil else { return }
        screenWidth = UIScreen.main.bounds.width
        tapeLabel.sizeToFit()
        tapeWidth = tapeLabel.frame.width
        armTapeTimer()
    }

    func armTapeTimer() {
        guard tapeLabel.text != nil else { return }
        endTapeTimer()
        tapeTimer = Timer.scheduledTimer(timeInterval: 0.1, target: self, selector: #selector(shiftTape), userInfo: nil, repeats: true)
    }

    @objc func shiftTape() {
        UIView.animate(withDuration: 0.1, animations: {
            self.tapeLabel.frame.origin.x -= 5
        }) { (_) in
            if self.tapeLabel.frame.origin.x <= -self.tapeWidth {
                self.tapeLabel.frame.origin.x = self.screenWidth
            }
        }
    }
}
