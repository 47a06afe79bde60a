// swift-format-ignore-file
import Foundation

class GameClock: NSObject {
    static let tickInterval: NSTimeInterval = 0.08
    private static let clockInstance = GameClock()
    private static var clockTimer: NSTimer?

    static func startGameClock() {
        GameClock.clockTimer?.invalidate()
        GameClock.clockTimer = NSTimer.scheduledTimerWithTimeInterval(GameClock.tickInterval, target: GameClock.clockInstance, selector: #selector(gameTick), userInfo: nil, repeats: true)
    }

    static func stopGameClock() {
        GameClock.clockTimer?.invalidate()
        GameClock.clockTimer = nil
    }

    func gameTick() {
        print("tick")
    }
}
