/// Reads a ``TickSequence``'s clock — mapped onto virtual time for a system clock under
/// `TimerKitTesting` — and sleeps on clocks TimerKit's engine does not serve.
struct ClockReader<C: Clock>: Sendable where C.Duration == Duration {
    /// Virtual time mapped onto the clock: the clock's reading and the virtual reading at the same moment.
    private struct Anchor: Sendable {
        let base: TimeBase
        let clockInstant: C.Instant
        let virtualNanoseconds: Int64
    }

    private let clock: C
    private let anchor: Anchor?

    init(clock: C, virtualBase: TimeBase?) {
        self.clock = clock
        anchor = virtualBase.map { Anchor(base: $0, clockInstant: clock.now, virtualNanoseconds: $0.now()) }
    }

    /// The clock's current reading (under virtual time: the anchor moved by the virtual time elapsed).
    func now() -> C.Instant {
        guard let anchor else { return clock.now }
        return anchor.clockInstant.advanced(by: .nanoseconds(anchor.base.now() - anchor.virtualNanoseconds))
    }

    /// Sleeps on the clock until `deadline`, passing the schedule's tolerance (if any) to the clock.
    /// Returns `false` if the task was cancelled first (promptly: the sleep ends).
    func sleep(until deadline: C.Instant, tolerance: Duration) async -> Bool {
        do {
            try await clock.sleep(until: deadline, tolerance: tolerance > .zero ? tolerance : nil)
            return true
        } catch {
            return false
        }
    }
}
