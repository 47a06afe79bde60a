import TimerKit

/// Virtual time for tests: every ticker, frame source and tick sequence created inside `run(_:)`
/// uses a clock that moves only when the test calls ``advance(by:)``.
///
/// Code written against TimerKit's normal API runs unchanged: the test swaps the time source the engine
/// uses, not the code under test. Wake-ups run synchronously, in deadline order, on the thread that
/// advances — whatever the ticker's context (run loop, dispatch queue, main actor) — so a test needs no
/// sleeping, no spinning on `Task.yield()`, and no expectations with timeouts. When several deadlines
/// coincide, tickers on one context are served in the order they were scheduled, and contexts in the
/// order they were first used.
///
/// ```swift
/// let time = VirtualTime()
/// let model = time.run { CountdownModel(seconds: 3) }   // schedules a ticker inside
/// time.advance(by: .seconds(3))
/// #expect(model.remaining == 0)
/// ```
///
/// Advance from one thread at a time. Main-actor handlers (the `Ticker.schedule` forms without `on:`)
/// must be advanced from the main actor. Tickers left running when a `VirtualTime` is released are
/// cancelled with it.
public final class VirtualTime: Sendable {
    private let base: VirtualTimeBase

    /// Creates a virtual timeline that starts at ``start`` (an arbitrary, fixed instant).
    public init() {
        base = VirtualTimeBase(startNanoseconds: Self.start.nanoseconds)
    }

    /// The instant every virtual timeline starts at.
    public static let start = TickInstant(nanoseconds: 1_000_000_000)

    /// Runs `body` with this virtual time as the time source for everything TimerKit creates inside it.
    @discardableResult
    public func run<T>(_ body: () throws -> T) rethrows -> T {
        try base.withActive(body)
    }

    /// Runs async `body` with this virtual time as the time source for everything TimerKit creates inside
    /// it (tick sequences included).
    @discardableResult
    public func run<T>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> T
    ) async rethrows -> T {
        try await base.withActive(isolation: isolation, body)
    }

    /// The current virtual instant.
    public var now: TickInstant { TickInstant(nanoseconds: base.nowNanoseconds) }

    /// The earliest instant anything waits for, or `nil` when nothing is pending.
    public var nextDeadline: TickInstant? { base.nextDeadlineNanoseconds.map(TickInstant.init(nanoseconds:)) }

    /// Every ticker that has not finished or been cancelled, with its next deadline
    /// (``TickerSnapshot/nextDeadline``), ordered by creation site.
    public var pendingTickers: [TickerSnapshot] { base.liveTickers() }

    /// Moves time forward by `duration`, running every handler that falls due on the way, each at its own
    /// deadline. A negative duration does nothing. Returns the number of wake-ups.
    @discardableResult
    public func advance(by duration: Duration) -> Int {
        advance(to: now.advanced(by: max(.zero, duration)))
    }

    /// Moves time forward to `instant` (an earlier instant only runs what is already due). Returns the
    /// number of wake-ups.
    @discardableResult
    public func advance(to instant: TickInstant) -> Int {
        base.advance(toNanoseconds: max(instant.nanoseconds, base.nowNanoseconds))
    }

    /// Runs what is due now (for example ``Ticker/fire()`` requests) without moving time. Returns the
    /// number of wake-ups.
    @discardableResult
    public func runDue() -> Int {
        base.advance(toNanoseconds: base.nowNanoseconds)
    }

    /// Advances from deadline to deadline until nothing is pending or the next deadline lies more than
    /// `horizon` after the instant this call started at. Repeating tickers never go idle, so they run
    /// until the horizon. Returns the number of wake-ups.
    @discardableResult
    public func runUntilIdle(horizon: Duration = .seconds(3_600)) -> Int {
        let limit = now.advanced(by: max(.zero, horizon))
        var wakeUps = 0
        while let next = nextDeadline, next <= limit {
            wakeUps += advance(to: next)
        }
        return wakeUps
    }
}
