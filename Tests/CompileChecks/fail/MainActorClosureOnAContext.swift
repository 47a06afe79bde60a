// Marking the handler @MainActor does not make a queue's handler run on the main actor: the conversion is
// rejected instead of silently running it off the main thread.
import Dispatch
import TimerKit

@MainActor
final class Stopwatch {
    var elapsed = 0

    func start(on queue: DispatchQueue) {
        let handler: @MainActor (Stopwatch, Tick) -> Void = { stopwatch, _ in stopwatch.elapsed += 1 }
        // expected-error: loses global actor 'MainActor'
        Ticker.schedule(.every(.seconds(1)), on: .dispatch(queue), owner: self, handler)
    }
}
