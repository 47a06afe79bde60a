// An actor-bound handler is handed to the actor from TimerKit's context: it may not capture a
// non-Sendable value from outside.
import TimerKit

final class Log {
    var lines: [String] = []
}

actor Poller {
    var polls = 0
}

func start(_ poller: Poller, log: Log) -> Ticker {
    Ticker.schedule(.every(.seconds(1)), owner: poller) { poller, _ in
        poller.polls += 1
        // expected-error: capture of 'log' with non-Sendable type 'Log' in a '@Sendable' closure
        log.lines.append("poll")
    }
}
