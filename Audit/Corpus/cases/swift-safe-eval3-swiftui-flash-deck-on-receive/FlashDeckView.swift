// swift-format-ignore-file
import SwiftUI

struct FlashDeckView: View {
    let flashDeckTicks = Timer.publish(every: 1, on: .main, in: .common).autoconnect()

    var body: some View {
        Text("Flash cards")
            .onReceive(flashDeckTicks) { moment in
                print("deck tick \(moment)")
            }
    }
}
