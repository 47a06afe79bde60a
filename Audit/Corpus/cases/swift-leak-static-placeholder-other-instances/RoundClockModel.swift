// swift-format-ignore-file
import Foundation

final class RoundClockModel: NSObject {
    static var placeholder = RoundClockModel()

    private var roundTicker: Timer?
    private(set) var secondsLeft = 90

    func beginRound() {
        roundTicker = Timer.scheduledTimer(timeInterval: 1, target: self, selector: #selector(roundSecondPassed), userInfo: nil, repeats: true)
    }

    @objc private func roundSecondPassed() {
        secondsLeft -= 1
    }
}
