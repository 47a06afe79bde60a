// swift-format-ignore-file
import Foundation
import SwiftUI
import Combine

class TickingCounter: ObservableObject {
    @Published var ticks = 0

    init() {
        Timer.scheduledTimer(withTimeInterval: 1.0, repeats: true) { timer in
            self.ticks += 1
        }
    }
}
