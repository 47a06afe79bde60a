// swift-format-ignore-file
import SwiftUI

struct PracticeClockView: View {
    @StateObject var clockModel = PracticeClockModel()

    var body: some View {
        Text("\(clockModel.practiceMinutes):\(clockModel.practiceSeconds)")
            .font(.system(size: 40, weight: .bold))
            .onAppear() {
                clockModel.runPracticeClock()
            }
            .onDisappear {
                clockModel.haltPracticeClock()
            }
    }
}
