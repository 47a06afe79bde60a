// The GCD spelling of this code is rejected by Swift 6; so is TimerKit's: the owner crosses into the
// queue's domain, and a plain class there is a data race.
import Dispatch
import TimerKit

final class Counter {
    var count = 0
}

func count(with counter: Counter, on queue: DispatchQueue) {
    // expected-error: type 'Counter' does not conform to the 'Sendable' protocol
    Ticker.schedule(.every(.seconds(1)), on: .dispatch(queue), owner: counter) { counter, _ in
        counter.count += 1
    }
}
