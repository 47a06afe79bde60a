internal import CTimerKit
import Foundation

/// The engine side of virtual time, for the `TimerKitTesting` product (package access only).
///
/// Owns a virtual clock and the time base built on it. Tickers and tick sequences created while it is
/// active (`withActive`, or installed for the whole process) use it: their contexts' alarms become
/// virtual, so they fire only when the clock is advanced, in deadline order, each where its context
/// runs (see `VirtualClock`).
package final class VirtualTimeBase: Sendable {
    let clock: VirtualClock
    let base: TimeBase

    /// `deliveryNotice`: how long a delivery to a blocked queue or main actor waits before the advance
    /// logs what it waits for (tests of TimerKit shorten it).
    package init(startNanoseconds: Int64, deliveryNotice: Duration = .seconds(10)) {
        clock = VirtualClock(start: startNanoseconds, deliveryNotice: deliveryNotice)
        base = TimeBase(.virtual(clock))
    }

    /// Leftover tickers are cancelled with their virtual time, so nothing outlives it.
    deinit {
        base.cancelAllTickers()
    }

    package func withActive<T>(_ body: () throws -> T) rethrows -> T {
        try TimeBase.$override.withValue(base, operation: body)
    }

    package func withActive<T>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> T
    ) async rethrows -> T {
        try await TimeBase.$override.withValue(base, operation: body, isolation: isolation)
    }

    package var nowNanoseconds: Int64 { clock.now() }

    // MARK: The virtual wall clock

    /// The virtual wall clock, in nanoseconds since 1970 (UTC).
    package var wallNanoseconds: Int64 { clock.wallNanoseconds() }

    /// The virtual wall clock as a `Date`.
    package var date: Date { clock.date() }

    /// Sets the virtual wall clock (the monotonic reading does not move) and, when it changed, has every
    /// running wall-clock ticker compute its deadline again, as a set of the system clock does.
    package func setWallClock(toNanoseconds nanoseconds: Int64) {
        guard clock.setWallClock(toNanoseconds: nanoseconds) != 0 else { return }
        WallClockWatch.recompute(base)
    }

    /// The virtual current time zone; setting a different one recomputes every running wall-clock
    /// ticker that follows the current zone, as a change of the system's zone does.
    package var timeZone: TimeZone {
        get { clock.timeZone }
        set {
            guard newValue != clock.timeZone else { return }
            clock.timeZone = newValue
            WallClockWatch.recompute(base)
        }
    }

    /// Moves the reading to `target` without running what falls due on the way.
    package func jump(toNanoseconds target: Int64) {
        clock.jump(to: target)
    }

    package var nextDeadlineNanoseconds: Int64? { clock.nextDeadline() }

    /// Fires every alarm due by `target`, in order, then sets the clock to `target`. Returns the number of
    /// wake-ups.
    @discardableResult
    package func advance(toNanoseconds target: Int64) -> Int {
        withActive { clock.run(until: target) }
    }

    /// As `advance(toNanoseconds:)`, one deadline at a time: after each, waits until every consumer it
    /// resumed has waited on virtual time again or ended (at most `grace` of real time per deadline, after
    /// which it warns and goes on). Returns the number of wake-ups.
    package func advanceSettling(
        toNanoseconds target: Int64, grace: Duration, isolation: isolated (any Actor)? = #isolation
    ) async -> Int {
        await settle(grace: grace)
        var fired = 0
        while let next = clock.nextDeadline(), next <= target {
            fired += advance(toNanoseconds: next)
            await settle(grace: grace)
        }
        fired += advance(toNanoseconds: target)
        await settle(grace: grace)
        return fired
    }

    /// Waits until no consumer resumed by a wake-up is still running.
    package func settle(grace: Duration, isolation: isolated (any Actor)? = #isolation) async {
        guard await !clock.waitForConsumers(grace: grace) else { return }
        Diagnostics.warn(
            "virtual time: a consumer resumed at \(TickInstant(nanoseconds: clock.now())) neither waited on "
                + "virtual time again nor ended within \(grace) of real time; advancing went on without it. "
                + "It waits on something else (a lock, an unrelated task, real time)."
        )
    }

    /// Suspends until at least `count` tickers are pending (tick-sequence consumers waiting included),
    /// or `grace` of real time passes. Returns whether the count was reached.
    package func waitForPendingTickers(count: Int, grace: Duration) async -> Bool {
        while true {
            let armings = clock.armings
            if liveTickers().count >= count { return true }
            guard await clock.waitForArming(after: armings, grace: grace) else {
                return liveTickers().count >= count
            }
        }
    }

    /// Waits on this virtual time (whatever the task's time base) until `deadline`, on the precise context
    /// tick sequences use. Returns `false` if the task was cancelled first or this virtual time went away.
    package func sleep(untilNanoseconds deadline: Int64, tolerance: Duration, fileID: String, line: Int) async -> Bool {
        var consumer: RunningConsumer?
        return await EngineWait.wait(
            nanoseconds: deadline.subtractingSaturating(clock.now()), tolerance: tolerance, on: base, fileID: fileID,
            line: line, consumer: &consumer)
    }

    package var mainRunLoopMode: RunLoop.Mode {
        get { clock.mainRunLoopMode }
        set { clock.mainRunLoopMode = newValue }
    }

    package func liveTickers() -> [TickerSnapshot] {
        withActive { TickerDiagnostics.liveTickers() }
    }

    package func cancelAllTickers() {
        base.cancelAllTickers()
    }

    // MARK: Whole-test scope

    /// Makes this virtual time the one for every ticker the process creates outside a task-local virtual
    /// time (see `TimeBase.current`) until `uninstallForProcess()`. Returns `false` if another one is
    /// installed.
    package func installForProcess() -> Bool {
        let installed = VirtualTimeActivity.state.withLock { state -> Bool in
            guard state.processWide == nil else { return false }
            state.processWide = base
            return true
        }
        if installed { _ = ctimerkit_virtual_time_count_add(1) }
        return installed
    }

    package func uninstallForProcess() {
        let removed = VirtualTimeActivity.state.withLock { state -> Bool in
            guard state.processWide === base else { return false }
            state.processWide = nil
            return true
        }
        if removed { _ = ctimerkit_virtual_time_count_add(-1) }
    }
}

/// A ticker created on real time while a virtual time was active.
package struct RealTimeTicker: Sendable, Hashable {
    package let fileID: String
    package let line: Int
    package let context: String
}

/// What the process knows about active virtual times: the one installed for the whole process, and the
/// observers told about tickers created on real time meanwhile.
package enum VirtualTimeActivity {
    struct State {
        var processWide: TimeBase?
        var nextObserver = 0
        var observers: [Int: @Sendable (RealTimeTicker) -> Bool] = [:]
        /// Sites already warned about while the current observers are active.
        var warned: Set<RealTimeTicker> = []
    }

    static let state = Locked<State>.make(State())

    /// Whether any virtual time is installed for the process or observes real-time tickers.
    @inline(__always)
    static var isAnyActive: Bool { ctimerkit_virtual_time_count() > 0 }

    static var processWide: TimeBase? { state.withLock { $0.processWide } }

    /// Calls `observer` (on the creating thread) for every ticker created on real time until the returned
    /// id is passed to `stopObserving`. The observer returns whether the ticker is its test's business:
    /// a warning is logged, once per site, when one observer says so.
    package static func observe(_ observer: @escaping @Sendable (RealTimeTicker) -> Bool) -> Int {
        let id = state.withLock { state in
            state.nextObserver += 1
            state.observers[state.nextObserver] = observer
            return state.nextObserver
        }
        _ = ctimerkit_virtual_time_count_add(1)
        return id
    }

    package static func stopObserving(_ id: Int) {
        let removed = state.withLock { state in
            let removed = state.observers.removeValue(forKey: id)
            if state.observers.isEmpty { state.warned = [] }
            return removed
        }
        if removed != nil { _ = ctimerkit_virtual_time_count_add(-1) }
    }

    /// Reports a ticker created on the system time base while a virtual time is active.
    static func realTimeTickerCreated(fileID: String, line: Int, context: TickerContext) {
        let ticker = RealTimeTicker(fileID: fileID, line: line, context: context.description)
        let observers = state.withLock { Array($0.observers.values) }
        guard observers.map({ $0(ticker) }).contains(true) else { return }
        guard state.withLock({ $0.warned.insert(ticker).inserted }) else { return }
        Diagnostics.warn(
            "ticker at \(fileID):\(line) (\(context)) was created on real time while a test runs on virtual "
                + "time: advancing will not move it. Create it from the test (or a task it creates), or install "
                + "the virtual time for the whole process.")
    }
}
