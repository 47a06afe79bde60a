// swift-format-ignore-file
import Foundation

final class GlobalReminderTimer: NSObject {
    static let sharedReminder: GlobalReminderTimer = {
        let reminder = GlobalReminderTimer()
        return reminder
    }()
    var reminderTimer: Timer?

    private override init() {
        super.init()
    }

    func startReminder(target: Any, selector: Selector) {
        reminderTimer?.invalidate()
        reminderTimer = Timer.scheduledTimer(timeInterval: 60, target: target, selector: selector, userInfo: nil, repeats: true)
    }

    func stopReminder() {
        reminderTimer?.invalidate()
    }
}
