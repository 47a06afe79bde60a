// swift-format-ignore-file
import Combine
import Foundation

enum SecondsSource {
    static func everySecond() -> AnyPublisher<Date, Never> {
        Timer.publish(every: 1, on: .main, in: .common)
            .autoconnect()
            .eraseToAnyPublisher()
    }
}
