// swift-format-ignore-file
import SwiftUI

struct WarmupView: View {
    let ticks = Timer.publish(every: 1, tolerance: 0.5, on: .main, in: .common).autoconnect()
    @State private var count = 0

    var body: some View {
        Text("Warm-up: \(count)")
            .onReceive(ticks) { _ in
                if count == 5 {
                    ticks.upstream.connect().cancel()
                } else {
                    count += 1
                }
            }
    }
}
