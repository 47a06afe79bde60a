// A handle-owned throttler's handler runs on its context: it may not capture a non-Sendable value.
import Dispatch
import TimerKit

final class Header {
    var offset = 0.0
}

func makeThrottler(header: Header, on queue: DispatchQueue) -> Throttler<Double> {
    Throttler(interval: .milliseconds(100), on: .dispatch(queue)) { offset in
        // expected-error: capture of 'header' with non-Sendable type 'Header' in a '@Sendable' closure
        header.offset = offset
    }
}
