// An actor-bound handler is isolated to its own actor only: another actor's state needs `await`, which a
// synchronous handler cannot do.
import TimerKit

actor Metrics {
    var samples = 0
}

actor Poller {
    var polls = 0
    let metrics = Metrics()

    func start() -> Ticker {
        Ticker.schedule(.every(.seconds(1)), owner: self) { poller, _ in
            poller.polls += 1
            // expected-error: actor-isolated property 'samples' can not be mutated from a nonisolated context
            poller.metrics.samples += 1
        }
    }
}
