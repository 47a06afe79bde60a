// swift-format-ignore-file
import SwiftUI

struct TickingCounterView: View {
    @ObservedObject var counter = TickingCounter()

    var body: some View {
        Text("\(counter.ticks)")
    }
}
