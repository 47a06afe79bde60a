// swift-format-ignore-file
import Cocoa

@NSApplicationMain
class MenuClockAppDelegate: NSObject, NSApplicationDelegate {
    var menuClockItem = NSStatusBar.system.statusItem(withLength: NSStatusItem.variableLength)
    var menuClockTimer: Timer? = nil

    func applicationDidFinishLaunching(_ aNotification: Notification) {
        menuClockTimer = Timer.scheduledTimer(
            timeInterval: 1,
            target: self,
            selector: #selector(refreshMenuClock),
            userInfo: nil,
            repeats: true
        )
    }

    @objc func refreshMenuClock(_ sender: Timer) {
        menuClockItem.button?.title = "\(Date())"
    }
}
