import Dispatch

/// One `DispatchSourceTimer` per dispatch context, activated once and never suspended.
///
/// Pausing a ticker re-arms this source (or leaves it for a harmless spurious wake), it never suspends
/// it, so the raw API's over-resume and released-while-suspended crashes are unreachable. The source is
/// cancelled when its engine goes away.
final class DispatchAlarm: Alarm, @unchecked Sendable {
    // Invariant: the source is only scheduled (thread-safe in libdispatch) after init, and cancelled once
    // in shutDown; `leeway` is immutable.
    private let source: any DispatchSourceTimer
    private let leeway: DispatchTimeInterval

    init(queue: DispatchQueue, leewayNanoseconds: Int64, strict: Bool, wake: @escaping @Sendable () -> Void) {
        source = DispatchSource.makeTimerSource(flags: strict ? .strict : [], queue: queue)
        leeway = .nanoseconds(Int(clamping: leewayNanoseconds))
        source.setEventHandler(handler: wake)
        source.schedule(deadline: .distantFuture, repeating: .never, leeway: leeway)
        source.activate()
    }

    func arm(at deadline: Int64) {
        // DispatchTime(uptimeNanoseconds: 0) means "now"; anything at or before now fires at once.
        let when =
            deadline >= Int64.max
            ? DispatchTime.distantFuture : DispatchTime(uptimeNanoseconds: UInt64(max(1, deadline)))
        source.schedule(deadline: when, repeating: .never, leeway: leeway)
    }

    func shutDown() {
        source.setEventHandler(handler: nil)
        source.cancel()
    }
}
