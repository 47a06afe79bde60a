// swift-format-ignore-file
import Combine
import Foundation

final class StepCounterModel: ObservableObject {
    @Published var steps = 0
    private var stepBag = Set<AnyCancellable>()

    init(pulses: Publishers.Autoconnect<Timer.TimerPublisher>) {
        pulses
            .sink { [weak self] _ in
                self?.steps += 1
            }
            .store(in: &stepBag)
    }
}
