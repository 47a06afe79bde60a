// swift-format-ignore-file
// Timer.publish subscriptions kept by self: a sink or assign(to:on:) that captures self is a cycle.
import Combine
import Foundation

final class ClockModel: ObservableObject {
    @Published var now = Date()
    private var cancellables = Set<AnyCancellable>()
    private var subscription: AnyCancellable?

    func startSinkCapturingSelf() {
        Timer.publish(every: 1, on: .main, in: .common)
            .autoconnect()
            .sink { date in
                self.now = date  // expect: block-timer-strong-self
            }
            .store(in: &cancellables)
    }

    func startAssignOnSelf() {
        subscription = Timer.publish(every: 1, on: .main, in: .common)
            .autoconnect()
            .assign(to: \.now, on: self)  // expect: block-timer-strong-self
    }

    func startWeakly() {
        Timer.publish(every: 1, on: .main, in: .common)
            .autoconnect()
            .sink { [weak self] date in
                self?.now = date
            }
            .store(in: &cancellables)
    }

    func startAssignToPublished() {
        Timer.publish(every: 1, on: .main, in: .common)
            .autoconnect()
            .assign(to: &$now)
    }

    func startUnstored() {
        _ = Timer.publish(every: 1, on: .main, in: .common).autoconnect().sink { date in self.now = date }
    }
}
