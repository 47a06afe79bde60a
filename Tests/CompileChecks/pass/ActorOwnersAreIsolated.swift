// An actor passed as `owner:` (no `on:`) gets a handler isolated to it: the handler changes the actor's
// state without `await`, for every kind that delivers, wherever the call is made.
import TimerKit

actor SessionStore {
    var sweeps = 0
    var queries: [String] = []
    var offsets: [Int] = []
    var frames = 0
    var ticker: Ticker?
    var debouncer: Debouncer<String>?
    var throttler: Throttler<Int>?
    var subscription: FrameSubscription?

    func start() {
        ticker = Ticker.schedule(.every(.seconds(30)), owner: self) { store, tick in
            store.sweeps += 1 + tick.skipped
            if store.sweeps > 100 { store.ticker?.cancel() }
        }
        debouncer = Debouncer(interval: .milliseconds(300), owner: self) { store, query in
            store.queries.append(query)
        }
        throttler = Throttler(interval: .milliseconds(100), owner: self) { store, offset in
            store.offsets.append(offset)
        }
        subscription = FrameSource.software(refreshRate: 60, on: .precise).subscribe(owner: self) { store, _ in
            store.frames += 1
        }
    }
}

// From outside the actor (nonisolated code, or the main actor) the handler is still isolated to it.
func startFromOutside(_ store: SessionStore) -> Ticker {
    Ticker.schedule(.every(.seconds(1)), owner: store) { store, _ in store.sweeps += 1 }
}

@MainActor func startFromTheMainActor(_ store: SessionStore) -> Ticker {
    let debouncer = Debouncer<String>(interval: .seconds(1), owner: store) { store, query in
        store.queries.append(query)
    }
    debouncer.send("a")
    return Ticker.schedule(.every(.seconds(1)), owner: store) { store, _ in store.sweeps += 1 }
}

// A main-actor class still gets the main-actor form.
@MainActor final class Screen {
    var seconds = 0
    var ticker: Ticker?

    func start() {
        ticker = Ticker.schedule(.every(.seconds(1)), owner: self) { screen, _ in screen.seconds += 1 }
    }
}
