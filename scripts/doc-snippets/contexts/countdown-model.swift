// Top-level code of a test file that has a CountdownModel: a countdown of whole seconds on the main run
// loop, whose `remaining` reaches 0 at the end. (Sendable, so that it may be passed as an owner to `on:`.)
import Synchronization
import Testing
import TimerKit
import TimerKitTesting

SNIPPET

final class CountdownModel: Sendable {
    private let state: Mutex<Int>
    var remaining: Int { state.withLock { $0 } }

    init(seconds: Int) {
        state = Mutex(seconds)
        Ticker.schedule(.countdown(from: seconds), on: .main, owner: self) { model, tick in
            model.state.withLock { $0 = tick.remaining ?? 0 }
        }
    }
}
