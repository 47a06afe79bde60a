// swift-format-ignore-file
import SwiftUI

struct LapStopwatchView: View {
    @StateObject private var model = LapStopwatchModel()

    var body: some View {
        Text(String(format: "%.1f", Double(model.tenths) / 10))
            .onAppear { model.start() }
            .onDisappear { model.stop() }
    }
}
