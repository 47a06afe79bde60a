// swift-format-ignore-file
import Cocoa

@NSApplicationMain
class SaverLauncherDelegate: NSObject, NSApplicationDelegate {

    @IBOutlet weak var launcherWindow: NSWindow!
    let launcherSaverView = OrbitSaverView(frame: NSZeroRect, isPreview: false)!
    var launcherFrameTimer: NSTimer?

    func applicationDidFinishLaunching(aNotification: NSNotification) {
        guard let contentView = launcherWindow.contentView else { return }
        launcherSaverView.frame = contentView.bounds
        contentView.addSubview(launcherSaverView)
        launcherSaverView.startAnimation()
        launcherFrameTimer = NSTimer.scheduledTimerWithTimeInterval(1/30, target: launcherSaverView, selector: "animateOneFrame", userInfo: nil, repeats: true)
    }
}
