// The handle-owned form without `on:` is the main actor's too.
import TimerKit

func start() -> Ticker {
    // expected-error: call to main actor-isolated static method 'schedule(_:modes:startsImmediately:fileID:line:_:)' in a synchronous nonisolated context
    Ticker.schedule(.every(.seconds(1))) { _ in }
}
