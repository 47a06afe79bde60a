// swift-format-ignore-file
// An extension in its own file: `ticks` is a Timer.publish property declared in Clock.swift, and `render`
// is a method declared here for a source created there.
import Combine
import Foundation

extension Clock {
    func start() {
        ticks.sink { _ in self.now = Date() }.store(in: &cancellables)  // expect: block-timer-strong-self
    }

    func render() {}
}

final class Stopwatch {
    var cancellable: AnyCancellable?
    var elapsed = 0
}

final class StopwatchController {
    let model = Stopwatch()

    func start() {
        model.cancellable = Timer.publish(every: 1, on: .main, in: .common).autoconnect()
            .sink { _ in model.elapsed += 1 }  // expect: block-timer-strong-self
    }
}
