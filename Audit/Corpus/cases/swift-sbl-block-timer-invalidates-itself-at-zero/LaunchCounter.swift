// swift-format-ignore-file
import Combine
import Foundation

final class LaunchCounter: ObservableObject {
    @Published var count = 3
    var launchTimer: Timer?

    func startCounting() {
        launchTimer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { timer in
            if self.count > 0 {
                self.count -= 1
            } else {
                timer.invalidate()
                self.launchTimer = nil
            }
        }
    }
}
