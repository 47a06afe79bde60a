// swift-format-ignore-file
import Foundation

class GlobalTally {
    static var total = 0
    var tallyTimer: Timer?

    init() {
        tallyTimer = Timer.scheduledTimer(withTimeInterval: 1.0, repeats: true, block: Self.tally)
    }

    deinit {
        tallyTimer?.invalidate()
    }

    static func tally(timer: Timer) {
        total += 1
    }
}
