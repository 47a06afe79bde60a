// swift-format-ignore-file
import Foundation

final class PollenPoller: NSObject {
    static let shared = PollenPoller()

    private var pollenTimer: Timer?
    var lastReading = 0

    func beginPollenPolling() {
        pollenTimer = Timer.scheduledTimer(timeInterval: 30, target: self, selector: #selector(fetchPollenLevel), userInfo: nil, repeats: true)
    }

    @objc private func fetchPollenLevel() {
        lastReading += 1
    }

    func endPollenPolling() {
        pollenTimer?.invalidate()
        pollenTimer = nil
    }
}
