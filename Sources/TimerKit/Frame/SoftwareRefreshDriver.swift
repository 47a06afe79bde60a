/// The software refresh clock: one repeating ticker (`.every(refreshInterval)`) on the source's context,
/// on the time base the source was made on.
///
/// Being an ordinary ticker, it inherits the engine's promises: refresh k is at `origin + k·interval`
/// without drift, a late context skips refreshes instead of bursting (the ticker's `skipped` deadlines
/// become a jump in the refresh index, which ``FrameSource`` turns into dropped frames), and virtual time
/// drives it like any other ticker.
struct SoftwareRefreshDriver: RefreshDriver {
    let context: TickerContext
    let intervalNanoseconds: Int64
    /// Refresh 0 of the grid. The grid is fixed for the life of the source: a restart resumes on it.
    let origin: Int64
    /// The time base the source was made on (a virtual one goes away with its test).
    let timeBase: TimeBaseReference

    init(context: TickerContext, intervalNanoseconds: Int64, timeBase: TimeBase) {
        self.context = context
        self.intervalNanoseconds = intervalNanoseconds
        self.origin = timeBase.now()
        self.timeBase = TimeBaseReference(timeBase)
    }

    func start(for source: FrameSource) -> @Sendable () -> Void {
        guard let base = timeBase.base else { return {} }
        let (interval, origin) = (intervalNanoseconds, origin)
        // The first refresh is the next grid instant strictly after now.
        let elapsed = max(0, base.now() - origin)
        let delay = (elapsed / interval + 1) * interval - elapsed
        // Handle-owned, and its handler holds the source: a running source stays alive without any handle
        // to it, and cancelling the ticker (or the time base cancelling it) releases the source.
        let ticker = TimeBase.$override.withValue(base) {
            Ticker.schedule(.every(.nanoseconds(interval), after: .nanoseconds(delay)), on: context) { tick in
                // On real time, deadlines sit a few microseconds past the grid (the engine reads its own
                // "now" when adding the ticker): round to the nearest refresh.
                let index = (tick.deadline.nanoseconds - origin + interval / 2) / interval
                source.refresh(index: index, timestamp: origin + index * interval)
            }
        }
        return { ticker.cancel() }
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
