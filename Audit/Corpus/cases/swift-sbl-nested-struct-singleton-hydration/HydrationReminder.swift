// swift-format-ignore-file
import Foundation

public class HydrationReminder {
    class var sharedInstance: HydrationReminder {
        struct Holder {
            static let instance = HydrationReminder()
        }
        return Holder.instance
    }

    var onSip: (() -> Void)?
    private var sipTimer = Timer()

    func startSipReminders() {
        if !sipTimer.isValid {
            sipTimer = Timer.scheduledTimer(timeInterval: 900, target: self, selector: #selector(remindToSip), userInfo: nil, repeats: true)
        }
    }

    @objc func remindToSip() {
        onSip?()
    }
}
