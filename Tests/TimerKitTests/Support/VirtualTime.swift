import Foundation

@testable import TimerKit

/// Virtual time for the white-box tests: `TimerKitTesting.VirtualTime`'s engine side (`VirtualTimeBase`),
/// with its clock and time base exposed so tests can reach engines directly. Tickers created inside `run`
/// use a virtual clock that only moves when the test calls `advance(by:)`; due handlers run synchronously,
/// in deadline order, on the calling thread. Tickers left running are cancelled with it.
final class VirtualTime: Sendable {
    private let virtual = VirtualTimeBase(startNanoseconds: 1_000_000_000)

    var clock: VirtualClock { virtual.clock }
    var base: TimeBase { virtual.base }

    /// Runs `body` with this virtual time as the time base for every ticker it creates.
    @discardableResult
    func run<T>(_ body: () throws -> T) rethrows -> T {
        try virtual.withActive(body)
    }

    /// Moves time forward, running every handler that falls due on the way.
    @discardableResult
    func advance(by duration: Duration) -> Int {
        virtual.withActive { clock.advance(by: duration) }
    }

    var now: TickInstant { TickInstant(nanoseconds: clock.now()) }
}
