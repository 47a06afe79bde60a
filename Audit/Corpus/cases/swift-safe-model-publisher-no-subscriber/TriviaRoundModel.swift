// swift-format-ignore-file
import Foundation
import SwiftUI

final class TriviaRoundModel: ObservableObject {
    var triviaSeconds: Int
    @Published var triviaLeft: Int
    @Published var triviaRunning = false
    let triviaTicks = Timer.publish(every: 1, on: .main, in: .common).autoconnect()

    init(triviaSeconds: Int) {
        self.triviaSeconds = triviaSeconds
        self.triviaLeft = triviaSeconds
    }

    func beginTriviaRound() {
        triviaLeft = triviaSeconds
        triviaRunning = true
    }
}
