// swift-format-ignore-file
import Foundation

class StepCounter {
    var pollTimer: Timer?
    var steps = 0

    init() {
        pollTimer = Timer.scheduledTimer(withTimeInterval: 1.0, repeats: true, block: readPedometer)
    }

    deinit {
        pollTimer?.invalidate()
    }

    func readPedometer(timer: Timer) {
        steps += 1
    }
}
