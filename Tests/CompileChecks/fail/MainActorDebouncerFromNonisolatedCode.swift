// The debouncer without `on:` is the main actor's.
import TimerKit

final class Search: Sendable {}

func makeDebouncer(_ search: Search) -> Debouncer<String> {
    // expected-error: call to main actor-isolated initializer 'init(interval:edges:maxWait:modes:owner:fileID:line:_:)' in a synchronous nonisolated context
    Debouncer(interval: .milliseconds(300), owner: search) { _, _ in }
}
