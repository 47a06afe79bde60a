// swift-format-ignore-file
import Cocoa
import ScreenSaver

class HexPreviewController: NSViewController {

    override func viewDidLoad() {
        super.viewDidLoad()
        if let saverView = view as? ScreenSaverView {
            NSTimer.scheduledTimerWithTimeInterval(saverView.animationTimeInterval, target: saverView, selector: "animateOneFrame", userInfo: nil, repeats: true)
        }
    }
}
