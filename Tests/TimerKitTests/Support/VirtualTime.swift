import Foundation

@testable import TimerKit

/// Virtual time for tests: tickers created inside `run` use a virtual clock that only moves when the
/// test calls `advance(by:)`; due handlers run synchronously, in deadline order, on the calling thread.
final class VirtualTime: Sendable {
    let clock = VirtualClock()
    let base: TimeBase

    init() {
        base = TimeBase(.virtual(clock))
    }

    /// Tickers a test left running are cancelled with its virtual time, so nothing outlives the test.
    deinit {
        base.cancelAllTickers()
    }

    /// Runs `body` with this virtual time as the time base for every ticker it creates.
    @discardableResult
    func run<T>(_ body: () throws -> T) rethrows -> T {
        try TimeBase.$override.withValue(base, operation: body)
    }

    /// Moves time forward, running every handler that falls due on the way.
    @discardableResult
    func advance(by duration: Duration) -> Int {
        TimeBase.$override.withValue(base) { clock.advance(by: duration) }
    }

    var now: TickInstant { TickInstant(nanoseconds: clock.now()) }
}
