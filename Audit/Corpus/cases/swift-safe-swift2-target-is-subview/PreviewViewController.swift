// swift-format-ignore-file
import Cocoa
import ScreenSaver

class PreviewViewController: NSViewController {
    var frameTimer: NSTimer?

    override func viewDidLoad() {
        super.viewDidLoad()
        beginPreview()
    }

    func beginPreview() {
        if frameTimer != nil {
            return
        }
        if let saver = self.view as? ScreenSaverView {
            frameTimer = NSTimer.scheduledTimerWithTimeInterval(saver.animationTimeInterval, target: saver, selector: "animateOneFrame", userInfo: nil, repeats: true)
        }
    }

    func endPreview() {
        frameTimer?.invalidate()
        frameTimer = nil
    }
}
