import Foundation
import TimerKit

/// Virtual time for tests: a timeline that moves only when the test advances it, for every ticker, rate
/// limiter, frame source, tick sequence and ``TimerKit/TickClock`` reading of the code under test.
///
/// Put a whole test on it with one call — the `.virtualTime` trait (``VirtualTimeTrait``) in Swift Testing,
/// ``install(for:realTimeTickers:file:line:)`` in XCTest — or scope it by hand with ``run(_:)``. Code
/// written against TimerKit's normal API runs unchanged: the test swaps the time source the engine
/// uses, not the code under test.
///
/// ```swift
/// @Test(.virtualTime) func theCountdownReachesZero() async {
///     let time = VirtualTime.current!
///     let model = CountdownModel(seconds: 3)   // schedules a ticker: on virtual time
///     await time.advance(by: .seconds(3))
///     #expect(model.remaining == 0)
/// }
/// ```
///
/// **Where handlers run.** Advancing runs each wake-up at its own deadline, in deadline order, where its
/// context runs it in production, and waits for it: a dispatch context's handlers on their queue, the main
/// run loop's on the main thread (hopping there when the test advances from elsewhere), and only while
/// ``mainRunLoopMode`` is one of the ticker's modes. Other threads' run loops and precise contexts run on
/// the advancing thread. When deadlines coincide, tickers on one context are served in the order they were
/// scheduled, and contexts in the order they were first used.
///
/// **Async code.** The `async` forms of ``advance(by:)``, ``advance(to:)``, ``runDue()`` and
/// ``runUntilIdle(horizon:)`` deliver one deadline at a time and, before moving on, wait until every
/// ``TimerKit/TickSequence`` consumer that deadline resumed has asked for its next element (and so waits
/// again) or has dropped its iterator. The synchronous forms do not wait for consumers.
///
/// **A `Clock`.** `VirtualTime` is a `Clock` whose instants are ``TimerKit/TickInstant``s: code that
/// takes `any Clock<Duration>` sleeps on the test's timeline when given the `VirtualTime`.
///
/// Advance from one task or thread at a time. Tickers left running when a `VirtualTime` is released are
/// cancelled with it.
public final class VirtualTime: Clock, Sendable {
    /// The clock's instants: TimerKit's.
    public typealias Instant = TickInstant
    /// The standard library's `Duration`.
    public typealias Duration = Swift.Duration

    let base: VirtualTimeBase
    /// How long this timeline's async advance waits for a resumed consumer (``consumerGrace`` unless a
    /// test of TimerKitTesting itself shortens it).
    let grace: Duration

    /// Creates a virtual timeline that starts at ``start`` (an arbitrary, fixed instant).
    public convenience init() {
        self.init(consumerGrace: Self.consumerGrace, deliveryNotice: Self.deliveryNotice)
    }

    /// A timeline with its own waiting periods, so that tests of these waits need not last ten seconds
    /// (per instance: tests run in parallel).
    init(consumerGrace: Duration, deliveryNotice: Duration) {
        base = VirtualTimeBase(startNanoseconds: Self.start.nanoseconds, deliveryNotice: deliveryNotice)
        grace = consumerGrace
    }

    /// The instant every virtual timeline starts at.
    public static let start = TickInstant(nanoseconds: 1_000_000_000)

    /// How long (in real time) an async advance waits for a resumed consumer that neither waits again nor
    /// ends before it logs a warning and moves on. Only a consumer blocked on something else reaches it.
    static let consumerGrace: Duration = .seconds(10)

    /// How long (in real time) a delivery waits for a blocked queue or main actor before the advance logs
    /// what it waits for and how to fix it.
    static let deliveryNotice: Duration = .seconds(10)

    // MARK: The current virtual time

    @TaskLocal static var active: VirtualTime?

    /// The virtual time in effect here: the one of the enclosing ``run(_:)`` or `.virtualTime` (``VirtualTimeTrait``)
    /// test (and the tasks they create), else the one installed for the process, else `nil`.
    public static var current: VirtualTime? { active ?? ProcessWide.installed }

    /// Runs `body` with this virtual time as the time source for everything TimerKit creates inside it,
    /// and in the tasks created there.
    @discardableResult
    public func run<T>(_ body: () throws -> T) rethrows -> T {
        try Self.$active.withValue(self) { try base.withActive(body) }
    }

    /// Runs async `body` with this virtual time as the time source for everything TimerKit creates inside
    /// it, and in the tasks created there (tick sequences included).
    @discardableResult
    public func run<T>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> T
    ) async rethrows -> T {
        try await Self.$active.withValue(
            self, operation: { try await base.withActive(isolation: isolation, body) }, isolation: isolation)
    }

    // MARK: Reading

    /// The current virtual instant.
    public var now: TickInstant { TickInstant(nanoseconds: base.nowNanoseconds) }

    /// One nanosecond.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// The earliest instant anything that can run waits for, or `nil` when nothing is pending. A
    /// main-run-loop ticker whose modes exclude ``mainRunLoopMode`` is not counted while it waits.
    public var nextDeadline: TickInstant? { base.nextDeadlineNanoseconds.map(TickInstant.init(nanoseconds:)) }

    /// Every ticker that has not finished or been cancelled, with its next deadline
    /// (``TimerKit/TickerSnapshot/nextDeadline``), ordered by creation site. A task suspended in a tick
    /// sequence shows as one pending ticker.
    public var pendingTickers: [TickerSnapshot] { base.liveTickers() }

    // MARK: Run-loop modes

    /// The mode the virtual main run loop runs in: `.default` until a test sets it. Set it to
    /// ``trackingMode`` to say "the user is dragging": main-run-loop tickers scheduled with `[.default]`
    /// wait (their deadlines pass without them, as on a device) and common-mode tickers continue. Set it
    /// back to `.default` and the next advance delivers what waited, late, by the skip policy.
    public var mainRunLoopMode: RunLoop.Mode {
        get { base.mainRunLoopMode }
        set { base.mainRunLoopMode = newValue }
    }

    /// The tracking mode of UIKit's main run loop (`UITrackingRunLoopMode`), one of the common modes.
    public static let trackingMode = RunLoop.Mode("UITrackingRunLoopMode")

    // MARK: The wall clock and the time zone

    /// The virtual wall clock: what `TickClock.date` reads, and what wall-clock schedules
    /// (``TimerKit/TickSchedule/daily(hour:minute:second:in:tolerance:missed:file:line:)``, `aligned(to:)`
    /// and the others) follow. It starts at ``start`` seconds after 1 January 2001 (UTC) and moves with
    /// the virtual time, until ``setWallClock(to:)`` or ``moveWallClock(by:)`` sets it.
    public var wallClock: Date { base.date }

    /// Sets the virtual wall clock to `date` now, as a user or time synchronisation sets a device's
    /// clock: the virtual instant (``now``) does not move, uptime and continuous tickers keep their
    /// deadlines, and every running wall-clock ticker computes its next deadline again, at once (set
    /// forward past an occurrence, the occurrence is missed: its schedule's `missed` policy applies at the
    /// next advance). Nothing runs until the test advances.
    public func setWallClock(to date: Date) {
        base.setWallClock(toNanoseconds: Int64((date.timeIntervalSince1970 * 1e9).rounded(.down)))
    }

    /// Sets the virtual wall clock forward (or back, for a negative `duration`) by `duration`; see
    /// ``setWallClock(to:)``.
    public func moveWallClock(by duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let nanoseconds = overflow ? (seconds < 0 ? Int64.min : .max) : scaled &+ attoseconds / 1_000_000_000
        let (moved, past) = base.wallNanoseconds.addingReportingOverflow(nanoseconds)
        base.setWallClock(toNanoseconds: past ? (nanoseconds < 0 ? .min : .max) : moved)
    }

    /// The virtual current time zone, which wall-clock schedules made without a zone follow: UTC until a
    /// test sets it. Setting another zone is a zone change: those tickers compute their next deadline
    /// again, at once (a daily 09:00 moves to 09:00 of the new zone). Schedules given a zone keep theirs.
    public var timeZone: TimeZone {
        get { base.timeZone }
        set { base.timeZone = newValue }
    }

    /// Moves time forward by `duration` as a process that is suspended (or a device asleep) sees it:
    /// nothing runs on the way; then what is due runs at once, late — each repeating ticker once, with
    /// the deadlines it missed in `skipped`, and each wall-clock ticker by its missed-occurrence policy.
    /// Virtual time has one timeline for both clocks, so uptime tickers see the suspension too. Returns
    /// the number of wake-ups. Does not wait for async consumers: from async code, use the `async` form.
    @discardableResult
    public func suspend(for duration: Duration) -> Int {
        base.jump(toNanoseconds: now.advanced(by: max(.zero, duration)).nanoseconds)
        return runDue()
    }

    /// As ``suspend(for:)``, then lets the consumers the late deliveries resumed run (see
    /// ``advance(by:isolation:)``).
    @discardableResult
    public func suspend(for duration: Duration, isolation: isolated (any Actor)? = #isolation) async -> Int {
        base.jump(toNanoseconds: now.advanced(by: max(.zero, duration)).nanoseconds)
        return await runDue()
    }

    // MARK: Moving time (synchronous)

    /// Moves time forward by `duration`, running every handler that falls due on the way, each at its own
    /// deadline. A negative duration does nothing. Returns the number of wake-ups.
    ///
    /// Does not wait for async consumers that wake-ups resume: from async code, use the `async` form.
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

    /// Runs what is due now (for example ``TimerKit/Ticker/fire()`` requests) without moving time. Returns
    /// the number of wake-ups.
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

    // MARK: Moving time (async, deterministic for consumers)

    /// Moves time forward by `duration`, one deadline at a time: after each, waits until every tick
    /// sequence consumer it resumed has asked for its next element or dropped its iterator, so that
    /// what the consumers see does not depend on thread scheduling. Returns the number of wake-ups.
    @discardableResult
    public func advance(by duration: Duration, isolation: isolated (any Actor)? = #isolation) async -> Int {
        await advance(to: now.advanced(by: max(.zero, duration)))
    }

    /// Moves time forward to `instant`, one deadline at a time, letting resumed consumers run after each
    /// (see ``advance(by:isolation:)``). Returns the number of wake-ups.
    @discardableResult
    public func advance(to instant: TickInstant, isolation: isolated (any Actor)? = #isolation) async -> Int {
        await base.advanceSettling(
            toNanoseconds: max(instant.nanoseconds, base.nowNanoseconds), grace: grace)
    }

    /// Runs what is due now without moving time, then lets the consumers it resumed run. Returns the number
    /// of wake-ups.
    @discardableResult
    public func runDue(isolation: isolated (any Actor)? = #isolation) async -> Int {
        await base.advanceSettling(toNanoseconds: base.nowNanoseconds, grace: grace)
    }

    /// As ``runUntilIdle(horizon:)``, letting resumed consumers run after each deadline, so that a consumer
    /// that waits again is seen pending before the next one. Returns the number of wake-ups.
    @discardableResult
    public func runUntilIdle(
        horizon: Duration = .seconds(3_600), isolation: isolated (any Actor)? = #isolation
    ) async -> Int {
        let limit = now.advanced(by: max(.zero, horizon))
        var wakeUps = await runDue()
        while let next = nextDeadline, next <= limit {
            wakeUps += await advance(to: next)
        }
        return wakeUps
    }

    /// Suspends until at least `count` tickers are pending — for example until a task the test started
    /// is suspended in its tick sequence. Gives up after `timeout` of real time (only a test whose code
    /// never schedules reaches it) and returns whether the count was reached.
    @discardableResult
    public func waitForPendingTickers(count: Int = 1, timeout: Duration = .seconds(10)) async -> Bool {
        await base.waitForPendingTickers(count: count, grace: timeout)
    }

    // MARK: Clock

    /// Waits until the test advances this virtual time to `deadline` (at once if it has passed), whatever
    /// the time base of the calling task.
    ///
    /// - Throws: `CancellationError` when the task is cancelled first, or when this virtual time goes away.
    public func sleep(until deadline: TickInstant, tolerance: Duration? = nil) async throws {
        let woke = await base.sleep(
            untilNanoseconds: deadline.nanoseconds, tolerance: tolerance ?? .zero, fileID: #fileID, line: #line)
        if !woke || Task.isCancelled { throw CancellationError() }
    }
}

// MARK: Whole-test scope

extension VirtualTime {
    /// What a whole-test virtual time does about tickers created on real time while it is active (code
    /// reached from a thread or task the test did not create: a `DispatchQueue.async` block, a detached
    /// task, a run-loop callback).
    public enum RealTimeTickers: Sendable {
        /// Log a debug warning naming the creation site (once per site).
        case warn
        /// Warn, and fail the test at its end, once per creation site.
        case fail
    }

    /// Runs the whole of `body` on this virtual time, watching for tickers created on real time meanwhile.
    /// `isMine` tells whether such a ticker concerns this test; returns the creation sites it counted.
    func runWatching(
        isMine: @escaping @Sendable () -> Bool,
        _ body: () async throws -> Void
    ) async rethrows -> [RealTimeTicker] {
        let found = Found()
        let observer = VirtualTimeActivity.observe { ticker in
            guard isMine() else { return false }
            found.add(ticker)
            return true
        }
        defer { VirtualTimeActivity.stopObserving(observer) }
        try await run { try await body() }
        return found.all
    }

    /// Formats a real-time ticker for a test failure.
    static func failureMessage(_ ticker: RealTimeTicker) -> String {
        "ticker at \(ticker.fileID):\(ticker.line) (\(ticker.context)) was created on real time while the test ran "
            + "on virtual time: advancing does not move it"
    }

    /// Real-time tickers found by a watch, in the order first seen.
    final class Found: Sendable {
        private let tickers = Mutexed<[RealTimeTicker]>([])

        func add(_ ticker: RealTimeTicker) {
            tickers.withLock { if !$0.contains(ticker) { $0.append(ticker) } }
        }

        var all: [RealTimeTicker] { tickers.withLock { $0 } }
    }

    /// The virtual time installed for the process (XCTest).
    enum ProcessWide {
        static let slot = Mutexed<VirtualTime?>(nil)
        static var installed: VirtualTime? { slot.withLock { $0 } }
    }
}

/// A value behind an `NSLock` (TimerKitTesting's small shared state); `Sendable` when its value is.
final class Mutexed<Value> {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&value) }
    }
}

// Invariant: `value` is only reached inside `withLock`, under `lock`; the value itself is Sendable.
extension Mutexed: @unchecked Sendable where Value: Sendable {}
