// swift-format-ignore-file
import Combine
import Foundation

final class LaunchCountdownModel: ObservableObject {
    @Published var remaining = 60
    var secondStream: AnyPublisher<Date, Never> = SecondsSource.everySecond()
    private var countdownSubscription: AnyCancellable?

    func startLaunchCountdown() {
        countdownSubscription = secondStream.sink { _ in
            self.remaining -= 1
        }
    }
}
