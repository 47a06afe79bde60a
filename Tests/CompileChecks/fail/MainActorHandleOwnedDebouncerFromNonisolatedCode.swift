// The handle-owned debouncer without `on:` is the main actor's.
import TimerKit

func makeDebouncer() -> Debouncer<String> {
    // expected-error: call to main actor-isolated initializer 'init(interval:edges:maxWait:modes:fileID:line:_:)' in a synchronous nonisolated context
    Debouncer(interval: .milliseconds(300)) { _ in }
}
