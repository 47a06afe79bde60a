// Target–action is the main actor's: nonisolated code cannot call it synchronously.
import TimerKit

final class Refresher: Sendable {
    func refresh(_ tick: Tick) {}
}

func start(_ refresher: Refresher) {
    // expected-error: call to main actor-isolated static method 'schedule(_:modes:target:action:startsImmediately:fileID:line:)' in a synchronous nonisolated context
    Ticker.schedule(.every(.seconds(1)), target: refresher, action: Refresher.refresh)
}
