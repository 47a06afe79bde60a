// swift-format-ignore-file
import Combine
import Foundation

final class PedometerClock {
    let pulses = Timer.publish(every: 2, on: .main, in: .common).autoconnect()
}
