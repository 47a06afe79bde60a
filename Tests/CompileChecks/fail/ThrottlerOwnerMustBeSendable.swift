// A throttler on a queue hands its owner to the queue: the owner must be Sendable.
import Dispatch
import TimerKit

final class ScrollTracker {
    var offset = 0.0
}

func makeThrottler(for tracker: ScrollTracker, on queue: DispatchQueue) -> Throttler<Double> {
    // expected-error: type 'ScrollTracker' does not conform to the 'Sendable' protocol
    Throttler(interval: .milliseconds(100), on: .dispatch(queue), owner: tracker) { tracker, offset in
        tracker.offset = offset
    }
}
