// swift-format-ignore-file
import Foundation

final class FocusSessionModel: ObservableObject {
    @Published var focusRemaining: TimeInterval = 1500
    var focusTimer: Timer?

    func startFocus() {
        focusTimer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { [weak self] _ in
            guard let self = self else { return }
            if self.focusRemaining > 0 {
                self.focusRemaining -= 1
            } else {
                self.endFocus()
            }
        }
    }

    func endFocus() {
        focusTimer?.invalidate()
        focusTimer = nil
    }
}
