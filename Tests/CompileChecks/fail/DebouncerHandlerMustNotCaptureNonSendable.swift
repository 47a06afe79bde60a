// A handle-owned debouncer's handler runs on its context: it may not capture a non-Sendable value.
import Dispatch
import TimerKit

final class Results {
    var items: [String] = []
}

func makeDebouncer(results: Results, on queue: DispatchQueue) -> Debouncer<String> {
    Debouncer(interval: .milliseconds(300), on: .dispatch(queue)) { query in
        // expected-error: capture of 'results' with non-Sendable type 'Results' in a '@Sendable' closure
        results.items = [query]
    }
}
