// swift-format-ignore-file
import Foundation
import SwiftUI
import Combine

class PulseCounter: ObservableObject {

    @Published var beats: Int = 0

    init() {
        Timer.scheduledTimer(withTimeInterval: 1.0, repeats: true) { timer in
            self.beats += 1
        }
    }
}
