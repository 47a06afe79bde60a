// A handle-owned handler runs on its context: it may not capture a non-Sendable value.
import Dispatch
import TimerKit

final class Counter {
    var count = 0
}

func count(with counter: Counter, on queue: DispatchQueue) -> Ticker {
    Ticker.schedule(.every(.seconds(1)), on: .dispatch(queue)) { _ in
        // expected-error: capture of 'counter' with non-Sendable type 'Counter' in a '@Sendable' closure
        counter.count += 1
    }
}
