import Foundation

/// What a handler receives each time its ticker fires.
///
/// Deadlines are numbered from 1: deadline *k* is `start + firstDelay + (k − 1)·interval` (shifted by the
/// time spent paused, and counted from 1 again after ``Ticker/restart()``). A delivery that stands for several deadlines carries the latest one in ``index``
/// and the number it did not deliver in ``skipped``.
public struct Tick: Sendable, Hashable, CustomStringConvertible {
    /// The number of the deadline this tick stands for (1 for the first). For a manual fire
    /// (``Ticker/fire()``) it is the number of the last deadline delivered before it (0 if none). For a
    /// wall-clock schedule, the number of the occurrence since the start, missed ones included.
    public let index: Int
    /// The deadline this tick stands for. For a manual fire, the moment ``Ticker/fire()`` was called.
    public let deadline: TickInstant
    /// When the handler was called.
    public let timestamp: TickInstant
    /// Deadlines that passed since the previous tick without a delivery of their own (0 when on time).
    public let skipped: Int
    /// Deadlines left after this one; `nil` for an unbounded schedule. The last tick has `remaining == 0`.
    public let remaining: Int?
    /// How many times the handler has been called, this call included.
    public let fireCount: Int
    /// Whether this delivery came from ``Ticker/fire()`` rather than from the schedule.
    public let isManual: Bool
    /// For a wall-clock schedule (``TickSchedule/followsWallClock``), the wall-clock instant of the
    /// occurrence this tick stands for (09:00:00 exactly for a daily 09:00; the whole second for a
    /// schedule aligned to seconds): format this, not `Date()`, to show the time the tick is for. `nil` for
    /// other schedules and for a manual fire.
    public let date: Date?

    /// How late the delivery was: `timestamp − deadline` (never negative; deliveries are never early).
    public var lateness: Duration { deadline.duration(to: timestamp) }

    /// Whether the ticker finishes after this tick.
    public var isLast: Bool { remaining == 0 }

    package init(
        index: Int,
        deadline: TickInstant,
        timestamp: TickInstant,
        skipped: Int,
        remaining: Int?,
        fireCount: Int,
        isManual: Bool,
        date: Date?
    ) {
        self.index = index
        self.deadline = deadline
        self.timestamp = timestamp
        self.skipped = skipped
        self.remaining = remaining
        self.fireCount = fireCount
        self.isManual = isManual
        self.date = date
    }

    /// A tick of a schedule that does not follow the wall clock (no ``date``).
    package init(
        index: Int, deadline: TickInstant, timestamp: TickInstant, skipped: Int, remaining: Int?, fireCount: Int,
        isManual: Bool
    ) {
        self.init(
            index: index, deadline: deadline, timestamp: timestamp, skipped: skipped, remaining: remaining,
            fireCount: fireCount, isManual: isManual, date: nil)
    }

    /// A short human-readable description, for logs and test output.
    public var description: String {
        var text = "Tick #\(index) late \(lateness)"
        if skipped > 0 { text += " skipped \(skipped)" }
        if let remaining { text += " remaining \(remaining)" }
        if isManual { text += " (manual)" }
        return text
    }
}

/// Where a ticker is in its life. `finished` and `cancelled` are final.
public enum TickerState: String, Sendable, Hashable, CustomStringConvertible {
    /// Created with `startsImmediately: false` and not started yet.
    case idle
    /// Deadlines are armed; the handler will be called on the ticker's context.
    case running
    /// Deadlines are suspended; the time left to the next one is kept for ``Ticker/resume()``.
    case paused
    /// The schedule ran out (a one-shot fired, a count or countdown reached its end).
    case finished
    /// Stopped by ``Ticker/cancel()``, by releasing a handle-owned ticker, or because the owner went away.
    case cancelled

    /// Whether the state is final: no call changes it and the handler will never be called again.
    public var isTerminal: Bool { self == .finished || self == .cancelled }

    /// A short human-readable description, for logs and test output.
    public var description: String { rawValue }
}
