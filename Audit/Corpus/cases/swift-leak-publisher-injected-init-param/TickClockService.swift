// swift-format-ignore-file
import Combine
import Foundation

final class TickClockService {
    let secondTicks = Timer.publish(every: 1, on: .main, in: .common).autoconnect()
}
