// swift-format-ignore-file
import SwiftUI

struct LapClockView: View {
    @ObservedObject var lapClock = LapClockManager()

    var body: some View {
        VStack {
            Text(String(format: "%.1f", lapClock.lapSeconds))
            Button("Start") {
                lapClock.startLapClock()
            }
        }
    }
}
