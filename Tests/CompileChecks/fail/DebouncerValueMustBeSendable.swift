// Values cross from the sender's thread to the handler's context: they must be Sendable.
import Dispatch
import TimerKit

final class Draft {
    var text = ""
}

// expected-error: type 'Draft' does not conform to the 'Sendable' protocol
func makeDebouncer(on queue: DispatchQueue) -> Debouncer<Draft> {
    // expected-error: type 'Draft' does not conform to the 'Sendable' protocol
    Debouncer(interval: .milliseconds(300), on: .dispatch(queue)) { _ in }
}
