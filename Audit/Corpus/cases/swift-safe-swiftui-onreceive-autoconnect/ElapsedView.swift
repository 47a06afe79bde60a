// swift-format-ignore-file
import SwiftUI

struct ElapsedView: View {
    @State private var seconds = 0
    let everySecond = Timer.publish(every: 1, on: .current, in: .common).autoconnect()

    var body: some View {
        Text("Elapsed: \(seconds) s")
            .onReceive(everySecond) { _ in
                self.seconds += 1
            }
    }
}
