// swift-format-ignore-file
import UIKit

public class RaceClockLabel: UILabel {
    internal var raceTimer: Timer!
    var raceRemaining: TimeInterval = 0
    var raceFinished: (() -> Void)?

    deinit {
        clearRace()
    }

    @objc func raceTick() {
        raceRemaining -= 1
        text = "\(Int(raceRemaining))"
        if raceRemaining <= 0 {
            clearRace()
            raceFinished?()
        }
    }

    func armRaceTimer() {
        dropRaceTimer()
        raceTimer = Timer.scheduledTimer(timeInterval: 1.0,
                                         target: self,
                                         selector: #selector(raceTick),
                                         userInfo: nil,
                                         repeats: true)
        RunLoop.current.add(raceTimer, forMode: RunLoop.Mode.common)
    }

    func dropRaceTimer() {
        if raceTimer != nil {
            raceTimer.invalidate()
            raceTimer = nil
        }
    }

    func clearRace() {
        dropRaceTimer()
    }
}

extension RaceClockLabel {
    public func startRace(seconds: TimeInterval) {
        raceRemaining = seconds
        armRaceTimer()
    }

    public func pauseRace() {
        dropRaceTimer()
    }

    public func cancelRace() {
        clearRace()
    }
}
