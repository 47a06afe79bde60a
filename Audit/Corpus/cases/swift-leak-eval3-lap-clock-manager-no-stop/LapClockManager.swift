// swift-format-ignore-file
import SwiftUI

class LapClockManager: ObservableObject {

    @Published var lapSeconds = 00.00
    var lapTimer = Timer()

    func startLapClock() {
        lapTimer = Timer.scheduledTimer(withTimeInterval: 0.1, repeats: true) { timer in
            self.lapSeconds += 0.1
        }
    }
}
