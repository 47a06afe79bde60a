/// The software refresh clock: for each refresh, a one-shot ticker on the source's context, made for
/// that refresh's exact instant on the grid, on the time base the source was made on.
///
/// A repeating ticker cannot follow the grid: its interval is a whole number of nanoseconds, and the
/// rounding of 10⁹ / rate would add up (at 60 Hz, 40 ns after 2 s: the 120th refresh would come after
/// 2 s). So every refresh is scheduled on its own, for `origin + grid.offset(ofRefresh: k)`. Being
/// ordinary tickers, they inherit the engine's promises: a late context delays the one pending refresh,
/// which then stands for the latest grid refresh that has passed (a jump in the refresh index, which
/// ``FrameSource`` turns into dropped frames), never a burst; and virtual time drives them like any other
/// ticker.
struct SoftwareRefreshDriver: RefreshDriver {
    let context: TickerContext
    let grid: RefreshGrid
    /// Refresh 0 of the grid. The grid is fixed for the life of the source: a restart resumes on it.
    let origin: Int64
    /// The time base the source was made on (a virtual one goes away with its test).
    let timeBase: TimeBaseReference
    /// Its clock, for ``now()`` (held like an engine holds it: the clock does not keep the time base).
    let clock: TimeBase.Source

    init(context: TickerContext, grid: RefreshGrid, timeBase: TimeBase) {
        self.context = context
        self.grid = grid
        self.origin = timeBase.now()
        self.timeBase = TimeBaseReference(timeBase)
        self.clock = timeBase.source
    }

    func now() -> Int64 { clock.now() }

    func start(for source: FrameSource) -> @Sendable () -> Void {
        guard let base = timeBase.base else { return {} }
        let run = SoftwareRefreshRun(driver: self)
        // The first refresh is the next grid instant strictly after now.
        run.schedule(refresh: grid.latestRefresh(atOrBefore: base.now() - origin) + 1, for: source)
        return { run.stop() }
    }
}

/// One run of the software clock: the pending refresh's ticker, replaced at each refresh, until stopped.
///
/// Each ticker is handle-owned and its handler holds the run and the source: a running source stays
/// alive without any handle to it, and stopping (or the time base cancelling the ticker) releases both.
/// The run itself does not hold the source, so the source's stop closure, which holds the run, makes no
/// cycle that outlives the pending ticker.
private final class SoftwareRefreshRun: Sendable {
    private enum State {
        /// The ticker of the pending refresh (`nil` until the first one is made).
        case running(Ticker?)
        case stopped
    }

    private let driver: SoftwareRefreshDriver
    private let state = Locked<State>.make(.running(nil))

    init(driver: SoftwareRefreshDriver) {
        self.driver = driver
    }

    /// Makes the ticker for refresh `index` (due at once if its instant has passed) and keeps it as the
    /// pending one, unless the run has stopped meanwhile. The ticker is made and released outside the
    /// lock.
    func schedule(refresh index: Int64, for source: FrameSource) {
        let isRunning = state.withLock { state in
            if case .stopped = state { return false }
            return true
        }
        guard isRunning, let base = driver.timeBase.base else { return }
        let instant = driver.origin.addingSaturating(driver.grid.offset(ofRefresh: index))
        let delay = Duration.nanoseconds(max(0, instant.subtractingSaturating(base.now())))
        // Made on the source's time base directly, not by binding it as the current (task-local) time base
        // around `Ticker.schedule`: one thread-local push, pop and read less per refresh.
        let ticker = Ticker.make(
            .after(delay), on: driver.context, binding: .handle, owner: nil, ownerType: nil, startsImmediately: true,
            fileID: #fileID, line: #line, timeBase: base,
            handler: .tick { [self] tick in refresh(at: tick.timestamp.nanoseconds, for: source) })
        let (kept, replaced) = state.withLock { state -> (Bool, Ticker?) in
            guard case .running(let previous) = state else { return (false, nil) }
            state = .running(ticker)
            return (true, previous)
        }
        // The replaced ticker is the one that has just fired; a stopped run cancels the one it just made.
        if !kept { ticker.cancel() }
        _ = replaced
    }

    /// A refresh ticker fired at `now`: the refresh it stands for is the latest one that has passed (its
    /// own, or a later one when the context ran late). The next refresh is scheduled after the handlers
    /// have run (a handler that stops the source stops the run first, so none is made): its instant does
    /// not depend on when it is made, and when the handlers ran past it, it is due at once and stands for
    /// the latest refresh then. Made before the handlers, it would arm the context's alarm while they
    /// run, and a test that advances virtual time inside a handler would get the next refresh nested
    /// inside that handler.
    private func refresh(at now: Int64, for source: FrameSource) {
        let index = driver.grid.latestRefresh(atOrBefore: now - driver.origin)
        source.refresh(index: index, timestamp: driver.origin + driver.grid.offset(ofRefresh: index))
        schedule(refresh: index + 1, for: source)
    }

    func stop() {
        let pending = state.withLock { state -> Ticker? in
            defer { state = .stopped }
            guard case .running(let ticker) = state else { return nil }
            return ticker
        }
        pending?.cancel()
    }
}

/// A time base held weakly, unless it is the process-wide system one: that one lives as long as the
/// process, and a weak reference to it would only allocate a side table that leak checkers report.
struct TimeBaseReference: Sendable {
    private let isSystem: Bool
    private let virtual: WeakReference?

    init(_ base: TimeBase) {
        isSystem = base === TimeBase.system
        virtual = isSystem ? nil : WeakReference(base)
    }

    /// The time base, or `nil` once a virtual one has gone away.
    var base: TimeBase? { isSystem ? TimeBase.system : virtual?.object as? TimeBase }
}
