// swift-format-ignore-file
import Foundation
import SwiftUI

final class SleepRadioCountdown: ObservableObject {
    @Published var sleepCounter: CGFloat = 10
    var sleepTimer: Timer?

    func startSleepCountdown() {
        sleepTimer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true, block: { _ in
            self.sleepCounter -= 1
            if self.sleepCounter <= 0 {
                self.sleepTimer?.invalidate()
                self.sleepTimer = nil
            }
        })
    }

    func stopSleepCountdown() {
        self.sleepTimer?.invalidate()
    }
}
