// The throttler without `on:` is the main actor's.
import TimerKit

func makeThrottler() -> Throttler<Double> {
    // expected-error: call to main actor-isolated initializer 'init(interval:edges:modes:fileID:line:_:)' in a synchronous nonisolated context
    Throttler(interval: .milliseconds(100)) { _ in }
}
