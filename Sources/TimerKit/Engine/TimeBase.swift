import Dispatch

/// Where "now" comes from and how a context's single alarm is made: the system's monotonic clock with
/// real drivers, or virtual time that tests advance by hand.
///
/// Each time base owns its registry of engines (one per context), so tickers made under virtual time
/// never share an engine with real ones, and a virtual time base takes its engines with it when it goes.
final class TimeBase: Sendable {
    enum Source: Sendable {
        case system
        case virtual(VirtualClock)

        /// The current instant, in nanoseconds on this source's monotonic timeline.
        @inline(__always)
        func now() -> Int64 {
            switch self {
            case .system: Int64(truncatingIfNeeded: DispatchTime.now().uptimeNanoseconds)
            case .virtual(let clock): clock.now()
            }
        }
    }

    let source: Source
    /// Engines by context. Run-loop engines are held for the life of the time base (their one
    /// `Foundation.Timer` is never freed on Linux, so it must be made once per run loop and mode set, not
    /// once per burst of tickers); dispatch engines are held weakly and keep themselves alive while they
    /// have live tickers.
    let engineRegistry = Locked<SharedObjects<ContextKey, TickerEngine>>.make(SharedObjects())
    /// Shared frame sources, held weakly (see `FrameSource.software(refreshRate:on:)`).
    let frameSourceRegistry = Locked<SharedObjects<FrameSourceKey, FrameSource>>.make(SharedObjects())

    init(_ source: Source) {
        self.source = source
    }

    /// The process-wide system time base.
    static let system = TimeBase(.system)

    /// The time base tickers created in this task use: virtual time inside a test's scope, else system.
    @TaskLocal static var override: TimeBase?

    static var current: TimeBase { override ?? system }

    /// The current instant, in nanoseconds on this time base's monotonic timeline.
    @inline(__always)
    func now() -> Int64 { source.now() }

    /// The engine serving `context` on this time base, created on first use.
    func engine(for context: TickerContext) -> TickerEngine {
        engineRegistry.object(for: context.key, permanent: context.enginesArePermanent) {
            TickerEngine(context: context, timeBase: self)
        }
    }

    /// Cancels every live ticker on this time base, releasing their handlers and engines (used when a
    /// virtual time base is torn down, so that a test's leftover tickers do not outlive it).
    func cancelAllTickers() {
        engines().forEach { $0.cancelAll() }
    }

    /// Every engine currently alive on this time base (for diagnostics).
    func engines() -> [TickerEngine] {
        engineRegistry.withLock { $0.all() }
    }

    func makeAlarm(for context: TickerContext, wake: @escaping @Sendable () -> Void) -> any Alarm {
        switch source {
        case .virtual(let clock):
            return clock.makeAlarm(wake: wake)
        case .system:
            return context.makeSystemAlarm(wake: wake)
        }
    }
}

/// A context's single wake-up source: "wake me at T" and nothing else.
protocol Alarm: AnyObject, Sendable {
    /// Arms the alarm for `deadline` (nanoseconds on the time base), replacing any earlier arming.
    /// Thread-safe; a deadline in the past wakes as soon as the context runs.
    func arm(at deadline: Int64)
    /// Releases the backend resource. Called once, when the engine goes away.
    func shutDown()
}
