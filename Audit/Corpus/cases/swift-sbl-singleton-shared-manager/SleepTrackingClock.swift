// swift-format-ignore-file
import Foundation

class SleepTrackingClock: NSObject {

    static let shared = SleepTrackingClock()

    private override init() {
        super.init()
    }

    fileprivate var clock: Timer?
    var minutesAsleep = 0

    func startClock() {
        clock?.invalidate()
        clock = Timer.scheduledTimer(timeInterval: 60, target: self, selector: #selector(minutePassed), userInfo: nil, repeats: true)
    }

    @objc private func minutePassed() {
        minutesAsleep += 1
    }

    func stopClock() {
        clock?.invalidate()
        clock = nil
    }
}
