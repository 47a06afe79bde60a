// The tick sequence tests its owner for nil on whichever thread iterates: the owner must be Sendable.
import TimerKit

final class Poller {
    var polls = 0
}

func poll(_ poller: Poller) async {
    // expected-error: type 'Poller' does not conform to the 'Sendable' protocol
    for await _ in Ticker.ticks(.every(.seconds(5)), owner: poller) {}
}
