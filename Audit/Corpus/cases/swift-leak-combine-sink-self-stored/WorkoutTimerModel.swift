// swift-format-ignore-file
import Combine
import Foundation

final class WorkoutTimerModel: ObservableObject {
    @Published private(set) var elapsed = 0
    private var bag = Set<AnyCancellable>()

    func begin() {
        Timer.publish(every: 1, on: .main, in: .common)
            .autoconnect()
            .sink { _ in
                self.elapsed += 1
            }
            .store(in: &bag)
    }
}
