// swift-format-ignore-file
import SwiftUI

struct TidesView: View {
    @State private var level = 0.0
    @State private var pollTimer: Timer?

    var body: some View {
        Text(String(format: "%.1f m", level))
            .onAppear {
                pollTimer?.invalidate()
                pollTimer = Timer.scheduledTimer(withTimeInterval: 30, repeats: true) { _ in
                    level = Double.random(in: 0...4)
                }
            }
    }
}
