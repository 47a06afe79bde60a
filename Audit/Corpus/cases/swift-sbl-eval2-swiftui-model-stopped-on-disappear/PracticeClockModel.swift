// swift-format-ignore-file
import Foundation
import SwiftUI

class PracticeClockModel: ObservableObject {
    @Published var practiceSeconds: Int = 0
    @Published var practiceMinutes: Int = 0
    var practiceTimer = Timer()

    func runPracticeClock() {
        practiceTimer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { timer in
            if self.practiceSeconds == 59 {
                self.practiceSeconds = 0
                self.practiceMinutes += 1
            } else {
                self.practiceSeconds += 1
            }
        }
    }

    func haltPracticeClock() {
        practiceTimer.invalidate()
    }
}
