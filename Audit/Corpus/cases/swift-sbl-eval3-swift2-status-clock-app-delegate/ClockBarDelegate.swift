// swift-format-ignore-file
import Cocoa

@NSApplicationMain
class ClockBarDelegate: NSObject, NSApplicationDelegate {

    var systemBar = NSStatusBar.systemStatusBar()
    var clockBarItem: NSStatusItem = NSStatusItem()
    var clockBarMenu: NSMenu = NSMenu()

    func clockBarText() -> String {
        let parts = NSCalendar.currentCalendar().components([.Hour, .Minute, .Second], fromDate: NSDate())
        return "\(parts.hour):\(parts.minute):\(parts.second)"
    }

    func refreshClockBar() {
        clockBarItem.title = clockBarText()
    }

    func startClockBarTimers() {
        var clockBarTimer = NSTimer()
        let refreshSelector: Selector = "refreshClockBar"
        clockBarTimer = NSTimer.scheduledTimerWithTimeInterval(0.01, target: self, selector: refreshSelector, userInfo: nil, repeats: true)
    }

    override func awakeFromNib() {
        clockBarItem = systemBar.statusItemWithLength(-1)
        clockBarItem.menu = clockBarMenu
    }

    func applicationDidFinishLaunching(aNotification: NSNotification) {
        startClockBarTimers()
    }

    func applicationWillTerminate(aNotification: NSNotification) {
    }
}
