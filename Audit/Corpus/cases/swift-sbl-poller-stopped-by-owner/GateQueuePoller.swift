// swift-format-ignore-file
import Foundation

class GateQueuePoller: NSObject {
    fileprivate let interval: TimeInterval = 10
    fileprivate var work: () -> Void
    fileprivate var timer: Timer!

    init(work: @escaping () -> Void) {
        self.work = work
        super.init()
        timer = Timer.scheduledTimer(timeInterval: interval,
                                     target: self,
                                     selector: #selector(GateQueuePoller.check),
                                     userInfo: nil,
                                     repeats: true)
        work()
    }

    func stop() {
        timer?.invalidate()
        timer = nil
    }

    @objc func check() {
        work()
    }
}
