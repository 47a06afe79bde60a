// swift-format-ignore-file
import SwiftUI

struct DepartureBoardView: View {
    @State private var now = Date()
    private let formatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        return formatter
    }()

    var body: some View {
        Text(formatter.string(from: now))
            .font(.system(.largeTitle, design: .monospaced))
            .onAppear {
                Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in
                    now = Date()
                }
            }
    }
}
