// swift-format-ignore-file
import Combine
import Foundation

final class QuizCountdownModel: ObservableObject {
    @Published var secondsLeft = 30
    private var cancellables = Set<AnyCancellable>()

    init() {
        Timer.publish(every: 1, on: .main, in: .common)
            .autoconnect()
            .sink { [weak self] _ in
                guard let self = self else { return }
                self.secondsLeft = max(0, self.secondsLeft - 1)
            }
            .store(in: &cancellables)
    }
}
