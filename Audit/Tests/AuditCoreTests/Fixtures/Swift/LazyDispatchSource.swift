// swift-format-ignore-file
// A dispatch source made in the closure that initialises a lazy property is kept by self.
import Foundation

final class Heartbeat {
    private lazy var source: DispatchSourceTimer = {
        let source = DispatchSource.makeTimerSource(queue: .main)
        source.schedule(deadline: .now(), repeating: 1)
        source.setEventHandler {
            self.beat()  // expect: block-timer-strong-self
        }
        return source
    }()

    func start() { source.resume() }
    private func beat() {}
}

final class QuietHeartbeat {
    private lazy var source: DispatchSourceTimer = {
        let source = DispatchSource.makeTimerSource(queue: .main)
        source.setEventHandler { [weak self] in
            self?.beat()
        }
        return source
    }()

    func start() { source.resume() }

    private func beat() {}
}
