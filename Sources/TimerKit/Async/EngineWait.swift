/// Waits once, for a delay, on TimerKit's engine: a one-shot ticker on the shared async context (a precise
/// thread), whose handler resumes the waiting task. It serves ``TickClock``'s `sleep(until:tolerance:)`
/// (on either clock, and on virtual time in tests) and a virtual time base's own sleeps
/// (`VirtualTimeBase.sleep(untilNanoseconds:…)`) and, under virtual time, each wait of a tick sequence; in
/// real time tick sequences wait with a `TickWaiter` instead, on the same context.
///
/// Every wait shares the engine's single alarm, so waits whose tolerance windows overlap are served by one
/// wake-up, and the ticker exists only while its task waits: under virtual time, a suspended sleeper shows
/// as one pending ticker. The one-shots are batched: when many waits share a deadline, the engine decides
/// them under one lock and resumes them back to back.
final class EngineWait: Sendable {
    private struct State {
        var continuation: UnsafeContinuation<Bool, Never>?
        var ticker: Ticker?
        /// Set when `resume` came before `install` (cancelled before the wait began).
        var early: Bool?
        /// Under virtual time: set when a wake-up resumed the consumer, for it to hold while it runs.
        var consumer: RunningConsumer?
    }

    // Invariant of the continuation: resumed exactly once, by whichever of the ticker's handler, the
    // release of that handler, and the cancellation handler first takes it out under the lock.
    private let state = Locked<State>.make(State())

    /// The context every engine wait runs on: these sleeps, and the tickers of system-clock tick sequences.
    static let context = TickerContext.precise(label: "TimerKit.ticks")

    private let timeBase: TimeBase

    private init(timeBase: TimeBase) {
        self.timeBase = timeBase
    }

    /// Waits `delay` nanoseconds on `timeBase`, counted on `clock` (late by at most `tolerance`). Returns
    /// `false` if the task was cancelled first (promptly: the wait ends) or the wait's ticker was stopped
    /// without firing (its virtual time torn down).
    ///
    /// Under virtual time, `consumer` tells an async advance that the waiting task is running: on entry
    /// it is released once this wait is pending (the consumer waits again), and a wake-up that resumes
    /// this wait puts a new one there, for the caller to keep while it works on the tick.
    ///
    /// `isolation` is the caller's actor, if any: the wait runs on it up to its one suspension, so that
    /// the wait is registered before anything else can run on that actor (see `RunningConsumer`).
    static func wait(
        nanoseconds delay: Int64, tolerance: Duration, clock: TickClock = .uptime, on timeBase: TimeBase,
        fileID: String, line: Int, consumer: inout RunningConsumer?, isolation: isolated (any Actor)? = #isolation
    ) async -> Bool {
        var previous = consumer.take()
        guard !Task.isCancelled else { return false }
        guard delay > 0 else {
            consumer = previous
            return true
        }
        if case .virtual(let clock) = timeBase.source { clock.consumerWaits(fileID: fileID, line: line) }
        let wait = EngineWait(timeBase: timeBase)
        defer { consumer = wait.state.withLock { $0.consumer.take() } }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation(isolation: isolation) { continuation in
                // The handler holds the only reference to this token: if the ticker stops without firing,
                // releasing the handler releases the token, which ends the wait instead of leaving it
                // suspended for ever.
                let token = EndsWithHandler(wait)
                // Built from numbers, not with `.after(_:tolerance:)`: a wait shorter than the tolerance is
                // normal here and must not log the "tolerance exceeds the delay" note at the user's call site.
                let schedule = TickSchedule.oneShot(
                    delayNanoseconds: delay, toleranceNanoseconds: tolerance.saturatingNanoseconds, clock: clock)
                let ticker = Ticker.make(
                    schedule, on: context, binding: .handle, owner: nil,
                    ownerType: nil, startsImmediately: true, fileID: fileID, line: line, batched: true,
                    timeBase: timeBase, handler: .tick { _ in token.fired() })
                wait.install(continuation, ticker: ticker)
                // The wait is pending on the (virtual) clock: the consumer no longer counts as running.
                previous?.settlesAtOnce()
                previous = nil
            }
        } onCancel: {
            wait.resume(false)
        }
    }

    private func install(_ continuation: UnsafeContinuation<Bool, Never>, ticker: Ticker) {
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

    fileprivate func resume(_ value: Bool) {
        var running: RunningConsumer?
        if value, case .virtual(let clock) = timeBase.source { running = clock.consumerResumed() }
        let (continuation, ticker, unused) = state.withLock { state in
            if state.continuation == nil, state.early == nil { state.early = value }
            // Kept even when the wake-up comes before `install` (which then ends the wait at once): the
            // waiter takes it on its way out, or it goes with this wait.
            if running != nil { state.consumer = running.take() }
            return (state.continuation.take(), state.ticker.take(), running)
        }
        _ = unused  // released here, outside the lock
        if !value { ticker?.cancel() }
        continuation?.resume(returning: value)
        // A fired one-shot is finished; its handle is released here, outside the lock.
        withExtendedLifetime(ticker) {}
    }
}

/// Held only by a wait's ticker handler: resumes the wait with `true` when the ticker fires, and with
/// `false` when the handler is released without having fired (`resume` acts once).
private final class EndsWithHandler: Sendable {
    private let wait: EngineWait

    init(_ wait: EngineWait) {
        self.wait = wait
    }

    func fired() { wait.resume(true) }

    deinit { wait.resume(false) }
}
