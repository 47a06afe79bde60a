// swift-format-ignore-file
import Foundation

class DiskSpaceMonitor: NSObject {
    private static var monitorTimer: Timer?

    class func startMonitoring() {
        guard monitorTimer == nil else { return }
        monitorTimer = Timer.scheduledTimer(timeInterval: 120, target: self, selector: #selector(checkFreeSpace), userInfo: nil, repeats: true)
    }

    @objc class func checkFreeSpace() {
        print("checking free space")
    }
}
