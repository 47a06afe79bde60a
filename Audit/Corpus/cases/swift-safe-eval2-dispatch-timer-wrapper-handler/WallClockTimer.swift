// swift-format-ignore-file
import Dispatch
import Foundation

@objc(VNWallClockTimer)
class WallClockTimer: NSObject {
    private var clockSource: any DispatchSourceTimer
    private(set) var period: TimeInterval

    @objc
    init(period: TimeInterval, queue: DispatchQueue, onFire: @escaping () -> Void) {
        clockSource = DispatchSource.makeTimerSource(queue: queue)
        self.period = period
        super.init()
        clockSource.schedule(wallDeadline: .now() + period, repeating: period)
        clockSource.setEventHandler {
            onFire()
        }
        clockSource.activate()
    }

    deinit {
        clockSource.cancel()
    }

    @objc
    func reschedule(period: TimeInterval) {
        clockSource.suspend()
        self.period = period
        clockSource.schedule(wallDeadline: .now() + period, repeating: period)
        clockSource.resume()
    }
}
