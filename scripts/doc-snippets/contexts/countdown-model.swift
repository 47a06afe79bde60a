// Top-level code of a test file that has a CountdownModel: a countdown of whole seconds on the main run
// loop, whose `remaining` reaches 0 at the end.
import Testing
import TimerKit
import TimerKitTesting

SNIPPET

final class CountdownModel {
    private(set) var remaining: Int

    init(seconds: Int) {
        remaining = seconds
        Ticker.schedule(.countdown(from: seconds), on: .main, owner: self) { model, tick in
            model.remaining = tick.remaining ?? 0
        }
    }
}
