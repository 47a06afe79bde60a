// A @MainActor class is Sendable, so it may be the owner of a ticker on a queue, but the handler then runs
// on that queue: it cannot touch the owner's main-actor state.
import Dispatch
import TimerKit

@MainActor
final class Stopwatch {
    var elapsed = 0

    func start(on queue: DispatchQueue) {
        Ticker.schedule(.every(.seconds(1)), on: .dispatch(queue), owner: self) { stopwatch, _ in
            // expected-error: main actor-isolated property 'elapsed' can not be mutated from a Sendable closure
            stopwatch.elapsed += 1
        }
    }
}
