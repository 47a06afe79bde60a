// swift-format-ignore-file
import Cocoa

class DeskClockController: NSViewController {

    @IBOutlet weak var clockField: NSTextField!
    var minuteTimer: Timer?

    override func viewDidLoad() {
        super.viewDidLoad()
        let timer = Timer(timeInterval: 1, repeats: true) { _ in
            let formatter = DateFormatter()
            formatter.dateFormat = "HH:mm"
            self.clockField.stringValue = formatter.string(from: Date())
        }
        RunLoop.current.add(timer, forMode: .default)
        minuteTimer = timer
    }

    override func viewDidDisappear() {
        super.viewDidDisappear()
        minuteTimer?.invalidate()
        minuteTimer = nil
    }
}
