/// The frame rates a frame subscriber accepts, in frames per second: TimerKit's counterpart of
/// `CAFrameRateRange`, with the same minimum, maximum and preferred rate.
///
/// A ``FrameSource`` delivers only rates that divide its refresh rate — `refreshRate / n` for a whole
/// number n ≥ 1 (at 60 Hz: 60, 30, 20, 15, 12, 10, …) — so that every frame falls on a refresh and frames
/// are evenly spaced. ``frameInterval(forRefreshRate:)`` picks n:
///
/// 1. The target is ``preferred``, or ``maximum`` when there is no preference, and never above the
///    refresh rate.
/// 2. Among the deliverable rates inside `minimum...maximum`, the one nearest the target (by difference in
///    hertz) wins; on a tie, the faster one.
/// 3. When no deliverable rate lies inside the range, the deliverable rate nearest the target wins (on a
///    tie, the faster one).
///
/// Rates slower than 1 Hz are not offered (n is at most the refresh rate rounded down): use a ``Ticker``
/// for those. At 60 Hz:
///
/// | Range | Rate |
/// |---|---|
/// | ``native`` | 60 Hz |
/// | `FrameRateRange(preferred: 24)` | 20 Hz (4 Hz away; 30 Hz is 6 Hz away) |
/// | `FrameRateRange(minimum: 24, maximum: 60, preferred: 24)` | 30 Hz (20 Hz is below the minimum) |
/// | `FrameRateRange(preferred: 25)` | 30 Hz (30 and 20 are both 5 Hz away: the faster wins) |
/// | `FrameRateRange(preferred: 120)` | 60 Hz |
/// | `FrameRateRange(minimum: 40, maximum: 50)` | 60 Hz (none in range; target 50: 60 is nearer than 30) |
///
/// Out-of-range input is clamped, never trapped, except NaN, which stops the program with a message.
/// Each clamp is listed in ``adjustments`` and, in debug builds, logged when a subscription is made with it.
public struct FrameRateRange: Sendable, Hashable, CustomStringConvertible {
    /// The slowest acceptable rate in hertz (0: no lower bound).
    public let minimum: Double
    /// The fastest acceptable rate in hertz (`.infinity`: no upper bound, the source's refresh rate).
    public let maximum: Double
    /// The rate to aim for in hertz; `nil` aims for ``maximum``.
    public let preferred: Double?
    /// Human-readable notes about every clamp applied to the input (empty when none was needed).
    public let adjustments: [String]

    /// Creates a range.
    ///
    /// - Parameters:
    ///   - minimum: the slowest acceptable rate; a negative value becomes 0 (no lower bound).
    ///   - maximum: the fastest acceptable rate; zero or a negative value means no upper bound (as in
    ///     `CAFrameRateRange`); a value below `minimum` is raised to `minimum`.
    ///   - preferred: the rate to aim for; `nil`, zero or a negative value means no preference (aim for
    ///     `maximum`); a value outside `minimum...maximum` is clamped into it.
    ///   - file: the caller's file, named by the message for a NaN bound (filled in by the compiler).
    ///   - line: the caller's line (filled in by the compiler).
    ///
    /// A NaN argument stops the program with a message naming `file` and `line` (the caller's, filled in
    /// by the compiler).
    public init(
        minimum: Double, maximum: Double, preferred: Double? = nil, file: StaticString = #fileID, line: UInt = #line
    ) {
        Diagnostics.require(
            !minimum.isNaN && !maximum.isNaN && !(preferred?.isNaN ?? false),
            "TimerKit: a FrameRateRange bound is NaN; pass rates in hertz", file: file, line: line)
        var notes: [String] = []
        var low = minimum
        if low < 0 {
            notes.append("minimum \(minimum) Hz is negative; clamped to 0")
            low = 0
        }
        var high = maximum
        if high <= 0 {
            high = .infinity
        } else if high < low {
            notes.append("maximum \(maximum) Hz is below the minimum; raised to \(low) Hz")
            high = low
        }
        var target = preferred
        if let wanted = target {
            if wanted <= 0 {
                target = nil
            } else if wanted < low || wanted > high {
                let clamped = Swift.min(Swift.max(wanted, low), high)
                notes.append("preferred \(wanted) Hz lies outside \(low)...\(high) Hz; clamped to \(clamped) Hz")
                target = clamped
            }
        }
        self.minimum = low
        self.maximum = high
        self.preferred = target
        self.adjustments = notes
    }

    /// A range with only a preferred rate: no lower or upper bound. A NaN rate stops the program with a
    /// message naming `file` and `line`.
    public init(preferred: Double, file: StaticString = #fileID, line: UInt = #line) {
        self.init(minimum: 0, maximum: .infinity, preferred: preferred, file: file, line: line)
    }

    /// Every refresh: the source's full refresh rate (no bounds, no preference; like
    /// `CAFrameRateRange.default`).
    public static let native = FrameRateRange(minimum: 0, maximum: .infinity)

    /// The number of refreshes per frame (n ≥ 1) that this range gets from a source refreshing
    /// `refreshRate` times a second; the frame rate is `refreshRate / n`. See the type's summary for the
    /// rule.
    ///
    /// - Parameter refreshRate: the source's refresh rate in hertz; a value that is not positive and finite
    ///   yields 1, and one above ``FrameSource/maximumRefreshRate`` is treated as that maximum.
    public func frameInterval(forRefreshRate refreshRate: Double) -> Int {
        guard refreshRate.isFinite, refreshRate > 0 else { return 1 }
        let refreshRate = Swift.min(refreshRate, FrameSource.maximumRefreshRate)
        let slowest = Swift.max(1, Int(refreshRate.rounded(.down)))
        // Divisors inside the range: refreshRate / n ≤ maximum and ≥ minimum (a small slack absorbs
        // rounding, so that 60 / 30 counts as exactly 2).
        let fewest = Swift.max(1, (refreshRate / maximum - 1e-9).rounded(.up))
        let most =
            minimum > 0 ? Swift.min(Double(slowest), (refreshRate / minimum + 1e-9).rounded(.down)) : Double(slowest)
        let (lowest, highest) = fewest <= most ? (Int(fewest), Int(most)) : (1, slowest)
        // The distance |refreshRate / n − target| falls then rises with n, so the best divisor inside
        // [lowest, highest] is the in-range neighbour of refreshRate / target nearest the target.
        let target = Swift.min(preferred ?? maximum, refreshRate)
        let ideal = refreshRate / target
        func clamped(_ value: Double) -> Int {
            Int(Swift.min(Swift.max(value, Double(lowest)), Double(highest)))
        }
        let faster = clamped(ideal.rounded(.down))
        let slower = clamped(ideal.rounded(.up))
        let fasterError = abs(refreshRate / Double(faster) - target)
        let slowerError = abs(refreshRate / Double(slower) - target)
        return slowerError < fasterError ? slower : faster
    }

    /// A short human-readable description, for logs and test output.
    public var description: String {
        var text = "\(minimum)...\(maximum) Hz"
        if let preferred { text += ", preferred \(preferred) Hz" }
        return text
    }
}
