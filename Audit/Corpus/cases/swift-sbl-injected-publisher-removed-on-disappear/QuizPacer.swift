// swift-format-ignore-file
import Combine
import Foundation

struct QuizPacer {
    let questionTicks = Timer.publish(every: 15, on: .main, in: .common).autoconnect()
}
