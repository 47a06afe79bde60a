// The forms without `on:` are the main actor's: nonisolated code cannot call them synchronously.
import TimerKit

final class Poller: Sendable {}

func startPolling(_ poller: Poller) {
    // expected-error: call to main actor-isolated static method 'schedule(_:modes:owner:startsImmediately:fileID:line:_:)' in a synchronous nonisolated context
    Ticker.schedule(.every(.seconds(5)), owner: poller) { _, _ in }
}
