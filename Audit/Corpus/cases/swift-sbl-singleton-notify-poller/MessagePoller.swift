// swift-format-ignore-file
import UIKit

let pollEvery: TimeInterval = 60

class MessagePoller: NSObject {

    var timer: Timer?

    static var instance: MessagePoller?

    private override init() {
        super.init()
    }

    class func shared() -> MessagePoller {
        if instance == nil {
            instance = MessagePoller()
        }
        return instance!
    }

    func start() {
        if timer == nil {
            timer = Timer.scheduledTimer(timeInterval: pollEvery, target: self, selector: #selector(poll(_:)), userInfo: nil, repeats: true)
        }
    }

    func stop() {
        timer?.invalidate()
        timer = nil
    }

    @objc func poll(_ timer: Timer) {
        NotificationCenter.default.post(name: Notification.Name("MessagePollerDidPoll"), object: nil)
    }
}
