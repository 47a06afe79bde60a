/// Waits for the deadlines of one system-clock ``TickSequence`` iterator in real time on TimerKit's
/// engine: tickers on the shared async context (a precise thread, `EngineWait.context`) whose handler
/// resumes the parked consumer. (Under virtual time each wait is an `EngineWait` instead, so that a test
/// sees a consumer suspended on its next deadline as one pending ticker, and a woken one as none.)
///
/// One repeating ticker on the sequence's grid serves the iterator while its consumer keeps up: each
/// deadline resumes the parked consumer, and waiting for the next one takes no engine call and no
/// allocation. A deadline that finds the consumer not waiting (it is busy or blocked) stops the ticker, so
/// a blocked consumer costs no further wake-ups; its next wait starts a new ticker on the same grid.
///
/// **Clock.** The tickers count on the engine clock that counts like the sequence's (`.continuous` for
/// `ContinuousClock`, `.uptime` for `SuspendingClock`), so that after the device sleeps the engine and the
/// consumer agree on which deadlines passed. A consumer whose reading is still further ahead than the
/// running ticker can reach soon is not left parked while the ticker catches up deadline by deadline: its
/// wait starts a new ticker on the grid (see `TickWaiterMachine.park`).
///
/// One iterator, one consumer: waits on one waiter never overlap (`next()` is `mutating`).
final class TickWaiter: Sendable {
    typealias Machine = TickWaiterMachine<UnsafeContinuation<TickWaitOutcome, Never>>

    // Invariant of each continuation: resumed exactly once, by whichever of a park that cannot wait, a
    // fire, the ticker's handler release and the cancellation handler takes it out of the machine.
    private let machine = Locked<Machine>.make(Machine())
    let timeBase: TimeBase
    /// The clock the tickers count on: the one that counts like the sequence's clock, so that after the
    /// device sleeps the engine and the consumer agree on which deadlines passed.
    let clock: TickClock

    /// Waits on `timeBase` (the system one), counting on `clock`.
    init(timeBase: TimeBase, clock: TickClock) {
        self.timeBase = timeBase
        self.clock = clock
    }

    /// Waits until the engine reaches deadline `index` of the sequence, whose schedule is `schedule`.
    /// Returns `false` if the task was cancelled first (promptly: the wait ends) or the ticker stopped
    /// without reaching the deadline.
    ///
    /// While a repeating ticker serves the deadline, the wait parks at once, without reading a clock.
    /// Otherwise `delay()` gives the time left to the deadline on the sequence's clock, in nanoseconds: if
    /// it has passed the wait returns `true` at once, else a new ticker (owned by the caller, in `ticker`)
    /// starts for it.
    func wait(
        for index: Int, schedule: TickSchedule, ticker: inout Ticker?, fileID: String, line: Int,
        delay: () -> Int64
    ) async -> Bool {
        guard !Task.isCancelled else { return false }
        // Whether a ticker may serve this wait: one that has not stopped (a one-shot's machine state says it
        // serves only its own deadline).
        var mayBeServed = ticker != nil
        while true {
            if !mayBeServed {
                let delay = delay()
                guard delay > 0 else { return true }
                ticker.take()?.cancel()
                ticker = start(index: index, delay: delay, schedule: schedule, fileID: fileID, line: line)
            }
            let outcome = await withTaskCancellationHandler {
                await withUnsafeContinuation { continuation in park(continuation, for: index) }
            } onCancel: {
                cancel()
            }
            switch outcome {
            case .reached:
                // A wake-up resumed this wait, or the deadline was found reached when parking.
                return true
            case .ended:
                return false
            case .unserved:
                mayBeServed = false
            }
        }
    }

    /// Starts a ticker whose first deadline is sequence deadline `index`, `delay` nanoseconds from now;
    /// later deadlines follow every interval of `schedule`, up to its last (a one-shot for the last
    /// deadline, or when the interval is below the minimum).
    private func start(index: Int, delay: Int64, schedule: TickSchedule, fileID: String, line: Int) -> Ticker {
        let count = schedule.count.map { $0 - index + 1 }
        let interval = schedule.intervalNanoseconds
        let tolerance = schedule.toleranceNanoseconds
        let repeating = interval >= TickSchedule.minimumInterval.saturatingNanoseconds && count != 1
        // Built from numbers, not with the public factories: a wait shorter than the tolerance is normal here
        // and must not log a clamp note at the user's call site.
        let times =
            repeating
            ? TickSchedule(
                ScheduleTimes(
                    firstDelayNanoseconds: delay, intervalNanoseconds: interval, toleranceNanoseconds: tolerance,
                    bound: count ?? -1), clock: clock)
            : TickSchedule.oneShot(delayNanoseconds: delay, toleranceNanoseconds: tolerance, clock: clock)
        let generation = machine.withLock { $0.startServing(base: index, count: repeating ? count : 1) }
        // The handler holds the only reference to this token: if the ticker stops without reaching a
        // parked consumer's deadline, releasing the handler releases the token, which ends the wait
        // instead of leaving it suspended for ever. A fire reaches the waiter directly, not through it.
        let token = HandlerToken(waiter: self, generation: generation)
        return Ticker.make(
            times, on: EngineWait.context, binding: .handle, owner: nil, ownerType: nil, startsImmediately: true,
            fileID: fileID, line: line, batched: true, timeBase: timeBase,
            handler: .full { [self, token] tick, _, engine, id in
                withExtendedLifetime(token) { fired(generation: generation, tick, engine: engine, id: id) }
            })
    }

    /// Parks `continuation` for deadline `index`, or resumes it at once.
    private func park(_ continuation: UnsafeContinuation<TickWaitOutcome, Never>, for index: Int) {
        if case .resumeNow(let outcome) = machine.withLock({ $0.park(continuation, for: index) }) {
            continuation.resume(returning: outcome)
        }
    }

    /// Ends the parked wait, and every later one, at once.
    private func cancel() {
        machine.withLock { $0.cancel() }?.resume(returning: .ended)
    }

    private func fired(generation: UInt64, _ tick: Tick, engine: TickerEngine, id: TickerID) {
        let action = machine.withLock {
            $0.fired(generation: generation, engineIndex: tick.index, isLast: tick.isLast)
        }
        switch action {
        case .none:
            break
        case .resume(let continuation):
            continuation.resume(returning: .reached)
        case .stop:
            // From inside the ticker's own handler, on its context: exact, no further delivery.
            engine.perform(.cancel, on: id)
        }
    }

    fileprivate func handlerReleased(generation: UInt64) {
        machine.withLock { $0.handlerReleased(generation: generation) }?.resume(returning: .ended)
    }
}

/// Held only by one ticker's handler: tells the waiter when the handler is released (the ticker stopped).
private final class HandlerToken: Sendable {
    private let waiter: TickWaiter
    private let generation: UInt64

    init(waiter: TickWaiter, generation: UInt64) {
        self.waiter = waiter
        self.generation = generation
    }

    deinit { waiter.handlerReleased(generation: generation) }
}
