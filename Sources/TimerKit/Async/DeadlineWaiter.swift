import Dispatch

/// Waits for deadlines on a clock for a ``TickSequence``: with the clock's own `sleep(until:)`, or — for
/// a system clock under virtual time — with a one-shot ticker on the virtual engine.
struct DeadlineWaiter<C: Clock>: Sendable where C.Duration == Duration {
    /// Virtual time mapped onto the clock: the clock's reading and the virtual reading at the same moment.
    private struct Anchor: Sendable {
        let base: TimeBase
        let clockInstant: C.Instant
        let virtualNanoseconds: Int64
    }

    private let clock: C
    private let anchor: Anchor?

    /// The context the virtual waits are scheduled on (under virtual time, wake-ups run on the advancing
    /// thread whatever the context; this one only names the engine).
    private static var virtualContext: TickerContext { .dispatch(virtualWaitQueue) }

    init(clock: C, virtualBase: TimeBase?) {
        self.clock = clock
        anchor = virtualBase.map { Anchor(base: $0, clockInstant: clock.now, virtualNanoseconds: $0.now()) }
    }

    /// The clock's current reading (under virtual time: the anchor moved by the virtual time elapsed).
    func now() -> C.Instant {
        guard let anchor else { return clock.now }
        return anchor.clockInstant.advanced(by: .nanoseconds(anchor.base.now() - anchor.virtualNanoseconds))
    }

    /// Waits until `deadline`. Returns `false` if the task was cancelled first (promptly: the wait ends).
    func wait(until deadline: C.Instant) async -> Bool {
        guard let anchor else {
            do {
                try await clock.sleep(until: deadline, tolerance: nil)
                return true
            } catch {
                return false
            }
        }
        guard !Task.isCancelled else { return false }
        let target = anchor.virtualNanoseconds.addingSaturating(
            anchor.clockInstant.duration(to: deadline).saturatingNanoseconds)
        let delay = target.subtractingSaturating(anchor.base.now())
        guard delay > 0 else { return true }
        let waiter = VirtualWait()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // If the ticker is stopped without firing (its virtual time torn down), releasing its handler
                // releases the token, which ends the wait instead of leaving it suspended for ever.
                let token = WaitEndsWithHandler(waiter)
                let ticker = TimeBase.$override.withValue(anchor.base) {
                    Ticker.schedule(.after(.nanoseconds(delay)), on: Self.virtualContext) { _ in token.fired() }
                }
                waiter.install(continuation, ticker: ticker)
            }
        } onCancel: {
            waiter.resume(false)
        }
    }
}

/// One suspended virtual wait: resumed exactly once, by its ticker or by task cancellation, whichever
/// comes first. The continuation is resumed and the ticker cancelled outside the lock.
private final class VirtualWait: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Bool, Never>?
        var ticker: Ticker?
        /// Set when `resume` came before `install` (cancelled before the wait began).
        var early: Bool?
    }

    private let state = Locked<State>.make(State())

    func install(_ continuation: CheckedContinuation<Bool, Never>, ticker: Ticker) {
        let early = state.withLock { state -> Bool? in
            if let early = state.early { return early }
            state.continuation = continuation
            state.ticker = ticker
            return nil
        }
        if let early {
            ticker.cancel()
            continuation.resume(returning: early)
        }
    }

    func resume(_ value: Bool) {
        let (continuation, ticker) = state.withLock { state in
            if state.continuation == nil, state.early == nil { state.early = value }
            return (state.continuation.take(), state.ticker.take())
        }
        ticker?.cancel()
        continuation?.resume(returning: value)
    }
}

/// Held only by a virtual wait's ticker handler: resumes the wait with `true` when the ticker fires, and
/// with `false` when the handler is released without having fired (`resume` is idempotent).
private final class WaitEndsWithHandler: Sendable {
    private let waiter: VirtualWait

    init(_ waiter: VirtualWait) {
        self.waiter = waiter
    }

    func fired() { waiter.resume(true) }

    deinit { waiter.resume(false) }
}

/// Names the engine that virtual waits are scheduled on (never runs anything itself).
private let virtualWaitQueue = DispatchQueue(label: "TimerKit.TickSequence.virtual")
