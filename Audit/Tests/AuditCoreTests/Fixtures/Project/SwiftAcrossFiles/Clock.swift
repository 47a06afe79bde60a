// swift-format-ignore-file
// The publisher and the subscriptions are properties declared here; the subscription is made in another file.
import Combine
import Foundation

final class Clock {
    let ticks = Timer.publish(every: 1, on: .main, in: .common).autoconnect()
    var cancellables = Set<AnyCancellable>()
    var now = Date()
    private let source = DispatchSource.makeTimerSource(queue: .main)

    func startRendering() {
        source.setEventHandler(handler: render)  // expect: block-timer-strong-self
        source.resume()
    }
}
