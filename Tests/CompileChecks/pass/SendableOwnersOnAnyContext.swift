// On a queue, a run loop or the precise thread, owners are Sendable: actors, classes whose state is
// behind a lock, or immutable classes.
import Dispatch
import Foundation
import Synchronization
import TimerKit

final class Counter: Sendable {
    let count = Mutex(0)
}

actor Poller {
    var polls = 0
    func poll() { polls += 1 }
}

func start(counter: Counter, poller: Poller, queue: DispatchQueue) -> [Ticker] {
    let counting = Ticker.schedule(.every(.seconds(1)), on: .dispatch(queue), owner: counter) { counter, _ in
        counter.count.withLock { $0 += 1 }
    }
    let polling = Ticker.schedule(.every(.seconds(5)), on: .precise, owner: poller) { poller, _ in
        Task { await poller.poll() }
    }
    let owned = Ticker.schedule(.after(.seconds(1)), on: .runLoop(.current, modes: [.default])) { _ in }
    let debouncer = Debouncer<String>(interval: .milliseconds(300), on: .dispatch(queue), owner: counter) { _, _ in }
    debouncer.send("a")
    let throttler = Throttler<Int>(interval: .milliseconds(100), on: .dispatch(queue)) { _ in }
    throttler.send(1)
    let source = FrameSource.software(refreshRate: 60, on: .dispatch(queue))
    source.subscribe(owner: counter) { counter, _ in counter.count.withLock { $0 += 1 } }
    return [counting, polling, owned]
}

actor Dashboard {
    var refreshes = 0

    func run() async {
        // An actor iterates ticks in its own isolation: no owner needed, no hop.
        for await _ in Ticker.ticks(.every(.seconds(1), count: 3), owner: self) {
            refreshes += 1
        }
    }
}
