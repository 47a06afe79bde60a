// swift-format-ignore-file
import SwiftUI

class ClockFaceModel: ObservableObject {

    @Published var now = Date()
    private var refreshTimer: Timer?
    var refreshEvery: TimeInterval = 5

    init() {
        beginRefreshing()
    }

    deinit {
        refreshTimer?.invalidate()
        refreshTimer = nil
    }

    func refresh() {
        now = Date()
    }

    func beginRefreshing() {
        refreshTimer = Timer.scheduledTimer(withTimeInterval: refreshEvery,
                                            repeats: true,
                                            block: { _ in
            self.refresh()
        })
    }

    func endRefreshing() {
        refreshTimer?.invalidate()
        refreshTimer = nil
    }
}
