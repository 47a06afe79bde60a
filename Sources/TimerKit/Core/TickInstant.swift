/// A point on one of the monotonic timelines that TimerKit schedules on (a ``TickClock``).
///
/// In production this is the system's uptime clock (the one `DispatchTime` uses; ``TickClock/uptime``,
/// the default) or its continuous clock (``TickClock/continuous``), counted in nanoseconds; under virtual
/// time it is the virtual clock's reading, one timeline for both. Instants of different timelines are not
/// comparable in any meaningful way, but a ticker never mixes them: its ticks and ``Ticker/nextDeadline``
/// are on its ``Ticker/clock``.
public struct TickInstant: InstantProtocol, Sendable, Hashable, CustomStringConvertible {
    /// Nanoseconds since the timeline's origin.
    public var nanoseconds: Int64

    /// Creates an instant `nanoseconds` after the timeline's origin.
    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// An instant later than every instant a ticker can reach; deadlines saturate here instead of
    /// overflowing.
    public static let distantFuture = TickInstant(nanoseconds: .max)

    /// Returns the instant `duration` later (saturating at ``distantFuture`` instead of overflowing).
    public func advanced(by duration: Duration) -> TickInstant {
        TickInstant(nanoseconds: nanoseconds.addingSaturating(duration.saturatingNanoseconds))
    }

    /// Returns the duration from this instant to `other` (negative when `other` is earlier).
    public func duration(to other: TickInstant) -> Duration {
        .nanoseconds(other.nanoseconds.subtractingSaturating(nanoseconds))
    }

    /// Whether `lhs` comes before `rhs` on the timeline.
    public static func < (lhs: TickInstant, rhs: TickInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    /// A short human-readable description, for logs and test output.
    public var description: String {
        nanoseconds == .max ? "TickInstant(distantFuture)" : "TickInstant(\(nanoseconds) ns)"
    }
}

extension Int64 {
    @inline(__always)
    func addingSaturating(_ other: Int64) -> Int64 {
        let (result, overflow) = addingReportingOverflow(other)
        if overflow { return other > 0 ? .max : .min }
        return result
    }

    @inline(__always)
    func subtractingSaturating(_ other: Int64) -> Int64 {
        let (result, overflow) = subtractingReportingOverflow(other)
        if overflow { return other < 0 ? .max : .min }
        return result
    }

    @inline(__always)
    func multipliedSaturating(by other: Int64) -> Int64 {
        let (result, overflow) = multipliedReportingOverflow(by: other)
        if overflow { return (self < 0) == (other < 0) ? .max : .min }
        return result
    }
}

extension Duration {
    /// The duration in whole nanoseconds, saturating at `Int64.min`/`Int64.max` (about ±292 years).
    ///
    /// Computed from the stored 128-bit attosecond count (`_high`, `_low`: public stored properties of the
    /// frozen `Duration`) with one 128-by-64-bit division: `components` divides twice, in software, which
    /// made it a sixth of the cost of creating a ticker.
    var saturatingNanoseconds: Int64 {
        let isNegative = _high < 0
        var (high, low) = (UInt64(bitPattern: _high), _low)
        if isNegative {
            // The magnitude: two's complement negation of the 128-bit value.
            low = ~low &+ 1
            high = ~high &+ (low == 0 ? 1 : 0)
        }
        // A quotient that does not fit 64 bits is past every limit.
        guard high < 1_000_000_000 else { return isNegative ? .min : .max }
        let magnitude = UInt64(1_000_000_000).dividingFullWidth((high, low)).quotient
        if isNegative { return magnitude > UInt64(Int64.max) ? .min : -Int64(magnitude) }
        return magnitude > UInt64(Int64.max) ? .max : Int64(magnitude)
    }

    /// The duration in seconds as a `Double` (for messages and Foundation interop).
    var timeInterval: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}
