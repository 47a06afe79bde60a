// swift-format-ignore-file
import Cocoa

@NSApplicationMain
class AppDelegate: NSObject, NSApplicationDelegate {

    @IBOutlet weak var fanMenuController: FanMenuController!

    func applicationDidFinishLaunching(aNotification: NSNotification) {
        NSTimer.scheduledTimerWithTimeInterval(3, target: self, selector: "refreshReadings", userInfo: nil, repeats: true)
    }

    func applicationWillTerminate(aNotification: NSNotification) {
    }

    func refreshReadings() {
        fanMenuController.refresh()
    }
}
