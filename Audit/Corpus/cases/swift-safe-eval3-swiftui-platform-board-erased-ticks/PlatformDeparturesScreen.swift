// swift-format-ignore-file
import Combine
import SwiftUI

struct PlatformDeparturesScreen: View {
    let platformTitle: String

    @State private var departureRows: [String] = []
    @State private var departuresRefreshOn = false

    private let departuresRefreshTicks: AnyPublisher<Date, Never> = Timer.tickingPublisher(every: 20)

    var body: some View {
        List(departureRows, id: \.self) { row in
            Text(row)
        }
        .navigationTitle(platformTitle)
        .onReceive(departuresRefreshTicks) { _ in
            refreshDeparturesIfShown()
        }
        .onAppear {
            departuresRefreshOn = true
        }
        .onDisappear {
            departuresRefreshOn = false
        }
    }

    private func refreshDeparturesIfShown() {
        guard departuresRefreshOn else { return }
        Task {
            departureRows = departureRows.shuffled()
        }
    }
}
