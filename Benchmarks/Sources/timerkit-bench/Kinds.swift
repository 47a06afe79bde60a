/// Every timer the report measures: TimerKit on each context, and the raw primitive it is compared with.
enum TimerKind: String, Codable, CaseIterable, Sendable {
    case timerKitDispatch = "timerkit.dispatch"
    case timerKitRunLoop = "timerkit.runLoop"
    case timerKitAsync = "timerkit.async"
    case timerKitPrecise = "timerkit.precise"
    case dispatchSource = "raw.dispatchSourceTimer"
    case foundationTimer = "raw.foundationTimer"
    case taskSleep = "raw.taskSleep"
    case nanosleep = "raw.clockNanosleep"
    case nanosleepPrecise = "raw.clockNanosleep1ns"
    /// The async floor of the CPU and wake-up sections: no timer at all, tasks suspended on continuations
    /// that a plain thread resumes (what a Swift concurrency task resume costs, whatever wakes it).
    case resumeFloor = "floor.continuationResume"

    /// The TimerKit contexts, in report order (the precise context last).
    static let timerKit: [TimerKind] = [.timerKitDispatch, .timerKitRunLoop, .timerKitAsync, .timerKitPrecise]

    /// Every kind, in report order: each TimerKit context followed by its raw counterpart.
    static let reportOrder: [TimerKind] = [
        .timerKitDispatch, .dispatchSource, .timerKitRunLoop, .foundationTimer, .timerKitAsync, .taskSleep,
        .timerKitPrecise, .nanosleepPrecise, .nanosleep,
    ]

    /// The order of a lateness round (reversed every other round): each TimerKit context next to its raw
    /// counterpart, and the strict dispatch timer between the dispatch and the precise contexts, so that the
    /// precise context's tails are compared with a neighbour in time too.
    static let measurementOrder: [TimerKind] = [
        .timerKitRunLoop, .foundationTimer, .timerKitAsync, .taskSleep, .timerKitDispatch, .dispatchSource,
        .timerKitPrecise, .nanosleepPrecise, .nanosleep,
    ]

    /// Pairs whose lateness is measured at once rather than one after the other (see
    /// `measureLatenessSideBySide`): each TimerKit context and its raw counterpart, each on a thread, run
    /// loop or queue of its own, taking turns within each interval. Measured one after the other, the
    /// machine's noise between two 3-second runs (tens of µs) was larger than the ±10 µs a pair is judged
    /// on. (The plain `clock_nanosleep` floor runs alone.)
    static let measuredSideBySide: [[TimerKind]] = timerKit.compactMap { kind in
        kind.counterpart.map { [kind, $0] }
    }

    var isTimerKit: Bool { Self.timerKit.contains(self) }

    /// The raw primitive a TimerKit context is compared with.
    var counterpart: TimerKind? {
        switch self {
        case .timerKitDispatch: .dispatchSource
        case .timerKitRunLoop: .foundationTimer
        case .timerKitAsync: .taskSleep
        case .timerKitPrecise: .nanosleepPrecise
        default: nil
        }
    }

    /// A short name for tables and the chart.
    var title: String {
        switch self {
        case .timerKitDispatch: "TimerKit .dispatch"
        case .timerKitRunLoop: "TimerKit .runLoop"
        case .timerKitAsync: "TimerKit ticks()"
        case .timerKitPrecise: "TimerKit .precise"
        case .dispatchSource: "DispatchSourceTimer"
        case .foundationTimer: "Foundation.Timer"
        case .taskSleep: "Task.sleep"
        case .nanosleep: "clock_nanosleep"
        case .nanosleepPrecise: "clock_nanosleep 1 ns"
        case .resumeFloor: "continuation resume, no timer"
        }
    }

    /// How the kind is set up, for the report's footnotes.
    var setup: String {
        switch self {
        case .timerKitDispatch:
            "`Ticker.schedule(_:on: .dispatch(DispatchQueue(label:), leeway: .zero, strict: true))` (lateness; "
                + "the other sections use the default leeway 0, not strict)"
        case .timerKitRunLoop: "`Ticker.schedule(_:on: .runLoop(loop))`, `loop` run by a dedicated thread"
        case .timerKitAsync:
            "`for await tick in Ticker.ticks(_:)` (ContinuousClock) in a task, one task per sequence; each "
                + "iterator's waits are served by one repeating ticker on TimerKit's engine, on one shared precise "
                + "thread (tolerance coalesces waits)"
        case .timerKitPrecise:
            "`Ticker.schedule(_:on: .precise)`: TimerKit's own thread, 1 ns timer slack and a 100 µs scheduler "
                + "slice, wakes early by its learned wake-up latency and busy-waits the rest"
        case .dispatchSource:
            "`DispatchSource.makeTimerSource(flags: .strict)` (lateness; the other sections without `.strict`), "
                + "leeway 0, on a serial queue (one source per timer)"
        case .foundationTimer:
            "`Timer(fire:interval:repeats:block:)` added in `.common` to a dedicated thread's run loop"
        case .taskSleep: "`Task.sleep(until:)` on absolute ContinuousClock deadlines, one task per timer"
        case .nanosleep: "`clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME)` loop on its own thread, default slack"
        case .nanosleepPrecise: "the same loop with the thread's timer slack set to 1 ns (`PR_SET_TIMERSLACK`)"
        case .resumeFloor:
            "the async floor (CPU and wake-ups only): 1,000 tasks each suspended on an `UnsafeContinuation`, "
                + "resumed by a plain thread sleeping on absolute `clock_nanosleep` deadlines, no timer; CPU: each "
                + "task at its own deadline, on the sequences' spread of deadlines (1 ns timer slack), or all "
                + "1,000 in one burst every 100 ms, "
                + "matching the sequences it is compared with; wake-ups: 10 bursts of 100 per second, each task "
                + "once per second"
        }
    }
}
