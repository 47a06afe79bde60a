// The owner-bound throttler without `on:` is the main actor's.
import TimerKit

final class Header: Sendable {}

func makeThrottler(_ header: Header) -> Throttler<Double> {
    // expected-error: call to main actor-isolated initializer 'init(interval:edges:modes:owner:fileID:line:_:)' in a synchronous nonisolated context
    Throttler(interval: .milliseconds(100), owner: header) { _, _ in }
}
