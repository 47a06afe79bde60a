// swift-format-ignore-file
import Cocoa

class AlarmAlertController: NSViewController {
    var beeper: Timer?

    @IBAction func acknowledge(_ sender: NSButton) {
        beeper?.invalidate()
        dismiss(self)
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        beeper = Timer.scheduledTimer(withTimeInterval: 1.0, repeats: true) { [weak self] timer in
            guard self != nil else {
                timer.invalidate()
                return
            }
            NSSound.beep()
        }
    }
}
