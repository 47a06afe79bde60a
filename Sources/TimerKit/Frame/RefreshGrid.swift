/// The instants of a frame source's refreshes, as offsets from refresh 0.
///
/// Refresh k is `k × 10⁹ / refreshRate` nanoseconds after refresh 0, each rounded to the nanosecond on
/// its own, so that no rounding accumulates: at 60 Hz the refreshes fall at 16,666,667, 33,333,333 and
/// 50,000,000 ns, and refresh 120 at exactly 2 s. Adding a rounded interval k times would put refresh 120
/// 40 ns late, and after 2 s of virtual time only 119 refreshes would have passed.
///
/// The rate is kept in micro-hertz, so that the math is exact integer math (128-bit intermediates).
struct RefreshGrid: Sendable, Hashable {
    /// The refresh rate in micro-hertz: 60 Hz is 60,000,000.
    let microhertz: Int64

    /// `refreshRate` must lie in `FrameSource.minimumRefreshRate...FrameSource.maximumRefreshRate`.
    init(refreshRate: Double) {
        microhertz = Int64((refreshRate * 1e6).rounded())
    }

    /// Nanoseconds per second times micro-hertz per hertz.
    private static let scale: Int64 = 1_000_000_000_000_000

    /// The nominal refresh interval: one second divided by the rate, rounded to the nanosecond. Refresh k
    /// is not `k` times this (see the type's summary).
    var nominalIntervalNanoseconds: Int64 { offset(ofRefresh: 1) }

    /// Nanoseconds from refresh 0 to refresh `index` (`index × 10⁹ / rate`, rounded half up; negative for
    /// a negative index; saturating beyond about 146 years).
    func offset(ofRefresh index: Int64) -> Int64 {
        if index < 0 { return index == .min ? .min : -offset(ofRefresh: -index) }
        let (high, low) = index.multipliedFullWidth(by: Self.scale)
        let (roundedLow, carry) = low.addingReportingOverflow(UInt64(microhertz / 2))
        let roundedHigh = high + (carry ? 1 : 0)
        // The quotient fits in 63 bits when the dividend is below microhertz × 2⁶² (a conservative bound).
        guard roundedHigh < microhertz / 4 else { return .max }
        return microhertz.dividingFullWidth((high: roundedHigh, low: roundedLow)).quotient
    }

    /// The last refresh whose offset is at most `elapsed` nanoseconds (-1 when `elapsed` is negative).
    func latestRefresh(atOrBefore elapsed: Int64) -> Int64 {
        guard elapsed >= 0 else { return -1 }
        let (high, low) = elapsed.multipliedFullWidth(by: microhertz)
        // `elapsed × rate` in refreshes, truncated: off by at most one from the answer, since each
        // refresh's offset is rounded by at most half a nanosecond and a refresh lasts at least 1 ms.
        var index = Self.scale.dividingFullWidth((high: high, low: low)).quotient
        if offset(ofRefresh: index) > elapsed {
            index -= 1
        } else if offset(ofRefresh: index + 1) <= elapsed {
            index += 1
        }
        return index
    }
}
