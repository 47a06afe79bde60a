// swift-format-ignore-file
import Combine
import SwiftUI

struct RotatingDepartureRow: View {
    let departureLines: [String]
    var rowRotationTicks: AnyPublisher<Date, Never> = Timer.tickingPublisher(every: 3)

    @State private var shownLineIndex = 0

    var body: some View {
        Text(departureLines.isEmpty ? "" : departureLines[shownLineIndex % departureLines.count])
            .onReceive(rowRotationTicks) { _ in
                shownLineIndex += 1
            }
    }
}
