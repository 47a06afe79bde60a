// swift-format-ignore-file
import Foundation

final class ChoreTimerManager: NSObject {
    static let shared = ChoreTimerManager()

    var choreTimer: Timer?

    func fireEverySecond(chore: (() -> Void)?) {
        choreTimer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in chore?() }
        RunLoop.current.add(choreTimer!, forMode: .common)
    }
}
