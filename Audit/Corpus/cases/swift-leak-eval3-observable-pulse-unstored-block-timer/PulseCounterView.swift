// swift-format-ignore-file
import SwiftUI

struct PulseCounterView: View {
    @ObservedObject var pulse = PulseCounter()

    var body: some View {
        Text("\(pulse.beats)")
            .font(.largeTitle)
    }
}
