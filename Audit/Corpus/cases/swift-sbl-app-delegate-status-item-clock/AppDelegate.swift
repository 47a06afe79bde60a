// swift-format-ignore-file
import Cocoa

@main
class AppDelegate: NSObject, NSApplicationDelegate {
    let statusItem = NSStatusBar.system.statusItem(withLength: NSStatusItem.variableLength)
    var loadTimer: Timer?

    func applicationDidFinishLaunching(_ notification: Notification) {
        loadTimer = Timer.scheduledTimer(
            timeInterval: 2,
            target: self,
            selector: #selector(showLoad(_:)),
            userInfo: nil,
            repeats: true
        )
    }

    @objc func showLoad(_ timer: Timer) {
        var loads = [Double](repeating: 0, count: 3)
        getloadavg(&loads, 3)
        statusItem.button?.title = String(format: "%.2f", loads[0])
    }
}
