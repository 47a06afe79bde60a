import Foundation

/// When a ticker's deadlines fall: pure value math, no side effects.
///
/// Deadline *k* (counting from 1) is `start + firstDelay + (k − 1)·interval`, computed from the start
/// instant, never from the previous fire, so a schedule does not drift. A delivery that comes late enough
/// to miss deadlines reports them as ``Tick/skipped`` and the schedule continues from the next deadline
/// still in the future: there is never a burst of catch-up calls and never a slide of the whole schedule.
///
/// Input that has no meaning stops the program with a message naming the caller's file and line, in
/// every build configuration: a NaN `TimeInterval` or `Date`, and a repeating interval of zero or less
/// (never what the caller meant: clamping it, as 1.0 did, made a 10 kHz ticker that burned a core
/// silently in a release build). Other out-of-range input is clamped, never trapped:
/// - a positive repeating interval below ``minimumInterval`` becomes ``minimumInterval`` (100 µs, the
///   floor `Foundation.Timer` uses; the `TimerKitMigration` look-alikes keep Foundation's own rule, which
///   also turns zero and negative intervals into that floor);
/// - a one-shot delay below zero becomes zero (fire as soon as the context can run it);
/// - intervals, delays and tolerances beyond about 292 years saturate: that deadline is never reached;
/// - a negative tolerance becomes zero; a repeating schedule's tolerance is capped at half its interval,
///   a one-shot's at its delay;
/// - a `count` of zero or less makes a schedule without deadlines: the ticker finishes at once without
///   calling its handler (and logs a warning in debug builds).
///
/// Each clamp is listed in ``adjustments`` and, in debug builds, logged when a ticker is created with it.
public struct TickSchedule: Sendable, Hashable, CustomStringConvertible {
    /// The smallest repeating interval TimerKit schedules: 100 microseconds (10 kHz).
    public static let minimumInterval: Duration = .microseconds(100)

    /// The schedule's numbers; all of what the engine stores per ticker.
    let times: ScheduleTimes

    /// The clock the deadlines count on: ``TickClock/uptime`` (the default) stops while the device sleeps,
    /// ``TickClock/continuous`` keeps counting. Tickers on different clocks never share a wake-up. A tick
    /// sequence (``Ticker/ticks(_:clock:owner:fileID:line:)``) counts on the `Clock` it is given instead.
    public let clock: TickClock

    /// For a schedule at a wall-clock date: the date, turned into a delay when a ticker is created.
    let date: Date?

    /// For a wall-clock schedule (aligned or calendar): its rule; its deadlines are computed from the wall
    /// clock, one occurrence at a time, by the ticker (see `WallTicker`).
    let wall: WallSchedule?

    /// Whether the deadlines follow the wall clock: an aligned or calendar schedule
    /// (``aligned(to:tolerance:missed:file:line:)``, ``daily(hour:minute:second:in:tolerance:missed:file:line:)``
    /// and the others). Its ``firstDelay`` and ``interval`` are zero: each deadline is computed from the wall
    /// clock when the one before is delivered, and again when the clock is set or the zone changes.
    public var followsWallClock: Bool { wall != nil }

    /// The number of deadlines; `nil` for an unbounded schedule.
    public var count: Int? { times.count }

    /// Human-readable notes about every clamp applied to the input (empty when none was needed).
    public let adjustments: [String]

    /// Delay from start to the first deadline.
    public var firstDelay: Duration { .nanoseconds(times.firstDelayNanoseconds) }
    /// Distance between consecutive deadlines (for a one-shot schedule, equal to ``firstDelay``).
    public var interval: Duration { .nanoseconds(times.intervalNanoseconds) }
    /// How late past each deadline the engine may deliver so that one wake-up serves several tickers.
    /// Deliveries are never early, and tolerance costs only what coalescing needs: a ticker whose window
    /// [deadline, deadline + tolerance] holds no other ticker's deadline is delivered at its deadline; when
    /// deadlines fall inside the earliest-ending window, the engine wakes once, at the latest of them, and
    /// serves them all (see the "How it works" article).
    public var tolerance: Duration { .nanoseconds(times.toleranceNanoseconds) }
    /// Whether the schedule has more than one deadline (or no bound at all).
    public var repeats: Bool { count.map { $0 > 1 } ?? true }

    private init(
        first: Int64, interval: Int64, tolerance: Int64, count: Int?, clock: TickClock, date: Date? = nil,
        adjustments: [String]
    ) {
        self.times = ScheduleTimes(
            firstDelayNanoseconds: first, intervalNanoseconds: interval, toleranceNanoseconds: tolerance,
            bound: count ?? -1)
        self.clock = clock
        self.date = date
        self.wall = nil
        self.adjustments = adjustments
    }

    /// A wall-clock schedule: on the continuous clock, unbounded; the engine keeps only its tolerance (the
    /// ticker computes each deadline, see `WallTicker`).
    init(wall: WallSchedule, tolerance: Int64, adjustments: [String]) {
        self.times = ScheduleTimes(
            firstDelayNanoseconds: 0, intervalNanoseconds: 0, toleranceNanoseconds: tolerance, bound: -1)
        self.clock = .continuous
        self.date = nil
        self.wall = wall
        self.adjustments = adjustments
    }

    /// A one-shot schedule from numbers already in range (internal waits): no clamping and no notes, the
    /// tolerance capped at the delay.
    static func oneShot(
        delayNanoseconds delay: Int64, toleranceNanoseconds tolerance: Int64, clock: TickClock = .uptime
    ) -> TickSchedule {
        let first = max(0, delay)
        return TickSchedule(
            first: first, interval: first, tolerance: min(max(0, tolerance), first), count: 1, clock: clock,
            adjustments: [])
    }

    /// A schedule made of stored numbers, without adjustments (for snapshots).
    init(_ times: ScheduleTimes, clock: TickClock = .uptime, wall: WallSchedule? = nil) {
        self.times = times
        self.clock = clock
        self.date = nil
        self.wall = wall
        self.adjustments = []
    }

    /// The numbers a ticker created at the wall-clock date `now` stores: a schedule at a date becomes a
    /// one-shot whose delay is the time from `now` to the date (zero once the date has passed), with the
    /// tolerance capped at that delay.
    func times(createdAt now: Date) -> ScheduleTimes {
        guard let date else { return times }
        // `at(_:)` refused a NaN date, so the difference is a number (or infinite, which saturates).
        let delay = Duration.saturatingSeconds(date.timeIntervalSince(now)).saturatingNanoseconds
        return Self.oneShot(delayNanoseconds: delay, toleranceNanoseconds: times.toleranceNanoseconds).times
    }

    // MARK: Factories

    /// A repeating schedule: deadlines at `start + k·interval` for k = 1, 2, 3, …
    ///
    /// - Parameters:
    ///   - interval: distance between deadlines: positive; values below ``minimumInterval`` are clamped to
    ///     it. Zero or a negative interval stops the program with a message naming `file` and `line`.
    ///   - delay: offset of the first deadline from the start; `nil` (the default) means one `interval`.
    ///   - tolerance: lateness the engine may add to coalesce wake-ups; capped at half the interval.
    ///   - count: number of deadlines after which the ticker finishes; `nil` (the default) repeats until
    ///     cancelled. Missed deadlines count towards it, so a ticker with a count ends on time.
    ///   - clock: the clock deadlines count on; ``TickClock/uptime`` (the default) stops while the device
    ///     sleeps, ``TickClock/continuous`` does not.
    ///   - file: the caller's file, named by the message for a bad interval (filled in by the compiler).
    ///   - line: the caller's line (filled in by the compiler).
    public static func every(
        _ interval: Duration,
        after delay: Duration? = nil,
        tolerance: Duration = .zero,
        count: Int? = nil,
        clock: TickClock = .uptime,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> TickSchedule {
        Diagnostics.require(interval > .zero, nonPositiveIntervalMessage("\(interval)"), file: file, line: line)
        return clampingEvery(interval, after: delay, tolerance: tolerance, count: count, clock: clock)
    }

    static func nonPositiveIntervalMessage(_ interval: String) -> String {
        "TimerKit: a repeating interval of \(interval) is not positive; a ticker on it would call its handler "
            + "without pause. Pass a positive interval (at least 100 µs), or use .after(_:) for one deadline"
    }

    /// A repeating schedule that clamps any interval below ``minimumInterval``, zero and negative ones
    /// included, to it: `Foundation.Timer`'s rule, for the `TimerKitMigration` look-alikes.
    static func clampingEvery(
        _ interval: Duration, after delay: Duration? = nil, tolerance: Duration = .zero, count: Int? = nil,
        clock: TickClock = .uptime
    ) -> TickSchedule {
        var notes: [String] = []
        var step = interval.saturatingNanoseconds
        let floor = minimumInterval.saturatingNanoseconds
        if step < floor {
            notes.append("interval \(interval) is below the 100 µs minimum; clamped to 100 µs")
            step = floor
        }
        noteSaturation(step, "interval", &notes)
        var first = delay?.saturatingNanoseconds ?? step
        if first < 0 {
            notes.append("first delay \(delay ?? .zero) is negative; clamped to zero")
            first = 0
        }
        if delay != nil { noteSaturation(first, "first delay", &notes) }
        var slack = tolerance.saturatingNanoseconds
        if slack < 0 {
            notes.append("tolerance \(tolerance) is negative; clamped to zero")
            slack = 0
        }
        if slack > step / 2 {
            notes.append(
                "tolerance \(tolerance) exceeds half the interval; capped at \(Duration.nanoseconds(step / 2))")
            slack = step / 2
        }
        var bound = count
        if let count, count <= 0 {
            notes.append("count \(count) is not positive; the schedule has no deadlines and finishes at once")
            bound = 0
        }
        return TickSchedule(
            first: first, interval: step, tolerance: slack, count: bound, clock: clock, adjustments: notes)
    }

    /// A one-shot schedule: a single deadline `delay` after the start.
    ///
    /// A negative delay is clamped to zero: the ticker fires as soon as its context runs. The tolerance
    /// is capped at the delay. `clock` is the clock the delay counts on (see ``TickClock``).
    public static func after(_ delay: Duration, tolerance: Duration = .zero, clock: TickClock = .uptime)
        -> TickSchedule
    {
        var notes: [String] = []
        var first = delay.saturatingNanoseconds
        if first < 0 {
            notes.append("delay \(delay) is negative; clamped to zero")
            first = 0
        }
        noteSaturation(first, "delay", &notes)
        var slack = tolerance.saturatingNanoseconds
        if slack < 0 {
            notes.append("tolerance \(tolerance) is negative; clamped to zero")
            slack = 0
        }
        if slack > first {
            notes.append("tolerance \(tolerance) exceeds the delay; capped at \(Duration.nanoseconds(first))")
            slack = first
        }
        return TickSchedule(
            first: first, interval: first, tolerance: slack, count: 1, clock: clock, adjustments: notes)
    }

    /// A one-shot schedule at a wall-clock date, on the continuous clock (it keeps counting while the
    /// device sleeps): for an expiry or an appointment given as a `Date`.
    ///
    /// The date is turned into a delay once, when a ticker is created with the schedule: the time from
    /// the wall clock's reading then (``TickClock/date``; under virtual time, the virtual date) to `date`.
    /// Changing the wall clock afterwards — the user setting the time, a time-zone change, a network time
    /// correction — does not move the deadline: it stays that delay after creation. A date already passed
    /// fires as soon as the context runs. `start()` of a ticker created idle, and `restart()`, count the
    /// same delay again from then. The tolerance is capped at the delay. A NaN date (from
    /// `Date(timeIntervalSinceReferenceDate: .nan)`) stops the program with a message naming `file` and
    /// `line` (the caller's, filled in by the compiler).
    public static func at(
        _ date: Date, tolerance: Duration = .zero, file: StaticString = #fileID, line: UInt = #line
    ) -> TickSchedule {
        Diagnostics.require(
            !date.timeIntervalSinceReferenceDate.isNaN, "TimerKit: the date is NaN; pass a real date", file: file,
            line: line)
        var notes: [String] = []
        var slack = tolerance.saturatingNanoseconds
        if slack < 0 {
            notes.append("tolerance \(tolerance) is negative; clamped to zero")
            slack = 0
        }
        return TickSchedule(
            first: 0, interval: 0, tolerance: slack, count: 1, clock: .continuous, date: date, adjustments: notes)
    }

    /// A countdown: `count` deadlines one `interval` apart; each ``Tick/remaining`` says how many are
    /// left, and the ticker finishes after the tick whose `remaining` is zero.
    ///
    /// With `ticksAtStart`, there is one more tick, at the start itself, whose `remaining` is `count`: a
    /// countdown from 60 shows 60 at once, then 59 … 0 one interval apart, and still finishes `count`
    /// intervals after the start. The tick at the start is delivered on the context as soon as it runs,
    /// never on the calling thread.
    ///
    /// The tick with `remaining == 0` is always delivered, even when the deadlines before it were missed.
    /// A `count` below zero (or of zero without `ticksAtStart`) finishes at once without a tick. An
    /// `interval` of zero or less stops the program with a message naming `file` and `line`, as in
    /// ``every(_:after:tolerance:count:clock:file:line:)``.
    public static func countdown(
        from count: Int, every interval: Duration = .seconds(1), ticksAtStart: Bool = false,
        clock: TickClock = .uptime, file: StaticString = #fileID, line: UInt = #line
    ) -> TickSchedule {
        guard ticksAtStart else { return every(interval, count: count, clock: clock, file: file, line: line) }
        // count + 1 deadlines from the start on: the first (remaining == count) at once.
        return every(
            interval, after: .zero, count: count < 0 ? count : count.addingSaturating(1), clock: clock, file: file,
            line: line)
    }

    // MARK: TimeInterval conveniences

    /// A repeating schedule with the interval in seconds. A NaN interval or tolerance, or an interval of
    /// zero or less, stops the program with a message naming `file` and `line` (the caller's, filled in by
    /// the compiler); infinite or huge intervals saturate (the deadline is never reached).
    public static func every(
        seconds interval: TimeInterval, tolerance: TimeInterval = 0, count: Int? = nil,
        file: StaticString = #fileID, line: UInt = #line
    ) -> TickSchedule {
        let seconds = Duration.checkedSeconds(interval, "interval", file: file, line: line)
        // Checked on the number of seconds: a positive interval below a nanosecond rounds to zero, and is
        // clamped to the minimum like any positive interval below it.
        Diagnostics.require(interval > 0, nonPositiveIntervalMessage("\(interval) seconds"), file: file, line: line)
        return clampingEvery(
            seconds, tolerance: .checkedSeconds(tolerance, "tolerance", file: file, line: line), count: count)
    }

    /// A one-shot schedule with the delay in seconds. A NaN delay or tolerance stops the program with a
    /// message naming `file` and `line` (the caller's, filled in by the compiler).
    public static func after(
        seconds delay: TimeInterval, tolerance: TimeInterval = 0, file: StaticString = #fileID, line: UInt = #line
    ) -> TickSchedule {
        after(
            .checkedSeconds(delay, "delay", file: file, line: line),
            tolerance: .checkedSeconds(tolerance, "tolerance", file: file, line: line))
    }

    private static func noteSaturation(_ nanoseconds: Int64, _ what: String, _ notes: inout [String]) {
        if nanoseconds == .max {
            notes.append("\(what) exceeds about 292 years; saturated: that deadline is never reached")
        }
    }

    // MARK: Math (see ScheduleTimes)

    var firstDelayNanoseconds: Int64 { times.firstDelayNanoseconds }
    var intervalNanoseconds: Int64 { times.intervalNanoseconds }
    var toleranceNanoseconds: Int64 { times.toleranceNanoseconds }
    func offset(ofDeadline index: Int) -> Int64 { times.offset(ofDeadline: index) }
    func lastIndex(dueBy elapsed: Int64) -> Int { times.lastIndex(dueBy: elapsed) }
    func isFinal(_ index: Int) -> Bool { times.isFinal(index) }

    /// A short human-readable description, for logs and test output.
    public var description: String {
        let onClock = clock == .uptime ? "" : " (\(clock))"
        if let date { return "at \(date)" }
        if let wall { return wall.summary }
        switch count {
        case 1?: return "after \(firstDelay)" + onClock
        case let n?: return "every \(interval) ×\(n)" + onClock
        case nil: return "every \(interval)" + onClock
        }
    }
}

/// A schedule's numbers, in nanoseconds: what the engine keeps for each ticker (32 bytes; a schedule's
/// `adjustments` are reported when the ticker is created and not kept).
struct ScheduleTimes: Sendable, Hashable {
    /// Offset of the first deadline from the start instant (≥ 0).
    let firstDelayNanoseconds: Int64
    /// Distance between consecutive deadlines (≥ the minimum interval for repeating schedules).
    let intervalNanoseconds: Int64
    /// Tolerance window (≥ 0).
    let toleranceNanoseconds: Int64
    /// The number of deadlines, or -1 for an unbounded schedule (an `Int?` would take a word more).
    let bound: Int

    /// The number of deadlines; `nil` for an unbounded schedule.
    var count: Int? { bound < 0 ? nil : bound }

    // MARK: Math (offsets from the start instant, in nanoseconds)

    /// Offset of deadline `index` (1-based) from the start, saturating at `Int64.max`.
    func offset(ofDeadline index: Int) -> Int64 {
        precondition(index >= 1, "TimerKit internal: deadline index starts at 1")
        return firstDelayNanoseconds.addingSaturating(intervalNanoseconds.multipliedSaturating(by: Int64(index - 1)))
    }

    /// The last deadline index whose offset is ≤ `elapsed` (0 when none is), bounded by `count`.
    func lastIndex(dueBy elapsed: Int64) -> Int {
        guard elapsed >= firstDelayNanoseconds else { return 0 }
        let steps = intervalNanoseconds == 0 ? 0 : (elapsed - firstDelayNanoseconds) / intervalNanoseconds
        let index = steps >= Int64(Int.max - 1) ? Int.max - 1 : Int(steps) + 1
        return bound >= 0 ? min(index, bound) : index
    }

    /// Whether `index` is the schedule's last deadline.
    func isFinal(_ index: Int) -> Bool {
        bound >= 0 && index >= bound
    }
}

extension Int {
    /// `self + other`, saturating at `Int.max` instead of overflowing.
    func addingSaturating(_ other: Int) -> Int {
        let (result, overflow) = addingReportingOverflow(other)
        return overflow ? .max : result
    }
}

extension Duration {
    /// Converts seconds to a `Duration`, stopping with a message that names `file` and `line` on NaN, and
    /// saturating infinities.
    static func checkedSeconds(_ seconds: Double, _ what: StaticString, file: StaticString, line: UInt) -> Duration {
        Diagnostics.require(
            !seconds.isNaN, "TimerKit: \(what) is NaN; pass a finite number of seconds", file: file, line: line)
        return saturatingSeconds(seconds)
    }

    /// Converts a number of seconds that is not NaN to a `Duration`, saturating infinities.
    static func saturatingSeconds(_ seconds: Double) -> Duration {
        if seconds >= 9.2e9 { return .nanoseconds(Int64.max) }
        if seconds <= -9.2e9 { return .nanoseconds(Int64.min) }
        return .nanoseconds(Int64((seconds * 1e9).rounded()))
    }
}
