// swift-format-ignore-file
import Combine
import Foundation

final class SpellingRoundModel: ObservableObject {
    @Published var spellingLeft = 30
    let spellingTicks = Timer.publish(every: 1, on: .main, in: .common).autoconnect()
    private var spellingSubscription: AnyCancellable?

    func beginSpellingRound() {
        spellingSubscription = spellingTicks.sink { _ in
            self.spellingLeft -= 1
        }
    }
}
