// swift-format-ignore-file
import Cocoa

final class ShiftClockViewController: NSViewController {
    var shiftItem: NSStatusItem!

    override func viewDidLoad() {
        super.viewDidLoad()
        shiftItem = NSStatusBar.system.statusItem(withLength: NSStatusItem.variableLength)
        let shiftTicker = Timer.scheduledTimer(timeInterval: 1.0, target: self, selector: #selector(refreshShiftTitle), userInfo: nil, repeats: true)
        _ = shiftTicker
    }

    @objc func refreshShiftTitle() {
        shiftItem.button?.title = "\(Date())"
    }
}
