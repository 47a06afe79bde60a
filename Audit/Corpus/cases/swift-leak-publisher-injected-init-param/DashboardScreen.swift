// swift-format-ignore-file
import SwiftUI

struct DashboardScreen: View {
    @StateObject private var model = DashboardTickModel(ticks: TickClockService().secondTicks)

    var body: some View {
        Text(model.clockLabel)
    }
}
