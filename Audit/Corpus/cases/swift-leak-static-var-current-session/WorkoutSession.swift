// swift-format-ignore-file
import Foundation

final class WorkoutSession {
    static var current: WorkoutSession?

    private var lapTimer: Timer?
    private(set) var elapsedLaps = 0

    init() {
        lapTimer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in
            self.elapsedLaps += 1
        }
    }

    deinit {
        lapTimer?.invalidate()
    }
}
