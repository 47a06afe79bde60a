// swift-format-ignore-file
import Foundation
import Combine

extension Timer {

    static func tickingPublisher(every seconds: TimeInterval) -> AnyPublisher<Date, Timer.TimerPublisher.Failure> {
        Timer
            .publish(every: seconds, on: .main, in: .common)
            .autoconnect()
            .eraseToAnyPublisher()
    }
}
