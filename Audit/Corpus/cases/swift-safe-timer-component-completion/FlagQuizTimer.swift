// swift-format-ignore-file
import Foundation

final class FlagQuizTimer {
    private var answerTimer: Timer?

    func runAnswerClock(completion: @escaping () -> Void) {
        answerTimer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { timer in
            completion()
        }
    }

    func stopAnswerClock() {
        answerTimer?.invalidate()
    }
}
