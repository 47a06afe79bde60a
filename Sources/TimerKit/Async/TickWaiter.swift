/// Waits for the deadlines of one system-clock ``TickSequence`` iterator on TimerKit's engine: tickers on
/// the shared async context (a precise thread, `EngineWait.context`) whose handler resumes the parked
/// consumer.
///
/// **Real time.** One repeating ticker on the sequence's grid serves the iterator while its consumer keeps
/// up: each deadline resumes the parked consumer, and waiting for the next one takes no engine call and
/// no allocation. A deadline that finds the consumer not waiting (it is busy or blocked) stops the ticker,
/// so a blocked consumer costs no further wake-ups; its next wait starts a new ticker on the same grid.
///
/// **Virtual time.** Each wait is a one-shot ticker, so that a test sees what it expects: a consumer
/// suspended on its next deadline shows as one pending ticker, a woken one as none, and an async advance
/// waits for the consumers a wake-up resumed (a ``RunningConsumer`` travels with the resume).
///
/// **Clock.** The tickers count on the engine clock that counts like the sequence's (`.continuous` for
/// `ContinuousClock`, `.uptime` for `SuspendingClock`), so that after the device sleeps the engine and the
/// consumer agree on which deadlines passed. A consumer whose reading is still further ahead than the
/// running ticker can reach soon is not left parked while the ticker catches up deadline by deadline: its
/// wait starts a new ticker on the grid (see `TickWaiterMachine.park`).
///
/// One iterator, one consumer: waits on one waiter never overlap (`next()` is `mutating`).
final class TickWaiter: Sendable {
    typealias Machine = TickWaiterMachine<UnsafeContinuation<Wake, Never>>

    /// What a resumed wait receives.
    struct Wake: Sendable {
        let outcome: Machine.Outcome
        /// Under virtual time, for a wait a wake-up resumed: the consumer counts as running until released.
        let consumer: RunningConsumer?
    }

    // Invariant of each continuation: resumed exactly once, by whichever of a park that cannot wait, a
    // fire, the ticker's handler release and the cancellation handler takes it out of the machine.
    private let machine = Locked<Machine>.make(Machine())
    let timeBase: TimeBase
    /// The clock the tickers count on: the one that counts like the sequence's clock, so that after the
    /// device sleeps the engine and the consumer agree on which deadlines passed.
    let clock: TickClock
    /// The virtual clock of a virtual time base, read once here rather than on every fire.
    private let virtualClock: VirtualClock?
    /// Whether each wait is a one-shot ticker (virtual time) rather than one repeating ticker.
    var oneShotWaits: Bool { virtualClock != nil }

    /// Waits on `timeBase`, counting on `clock`: with one repeating ticker on the system time base, with a
    /// one-shot per wait on a virtual one.
    init(timeBase: TimeBase, clock: TickClock) {
        self.timeBase = timeBase
        self.clock = clock
        if case .virtual(let clock) = timeBase.source { virtualClock = clock } else { virtualClock = nil }
    }

    /// Waits until the engine reaches deadline `index` of the sequence, whose schedule is `schedule`.
    /// Returns `false` if the task was cancelled first (promptly: the wait ends) or the ticker stopped
    /// without reaching the deadline (its virtual time went away).
    ///
    /// While a repeating ticker serves the deadline, the wait parks at once, without reading a clock.
    /// Otherwise `delay()` gives the time left to the deadline on the sequence's clock, in nanoseconds: if
    /// it has passed the wait returns `true` at once, else a new ticker (owned by the caller, in `ticker`)
    /// starts for it.
    ///
    /// Under virtual time, `consumer` tells an async advance that the waiting task is running: it is
    /// released once the wait is parked (the consumer waits again), and a wake-up that resumes the wait
    /// puts a new one there, kept by the caller while it works on the tick.
    func wait(
        for index: Int, schedule: TickSchedule, ticker: inout Ticker?, consumer: inout RunningConsumer?,
        fileID: String, line: Int, delay: () -> Int64
    ) async -> Bool {
        var previous = consumer.take()
        guard !Task.isCancelled else { return false }
        // Whether a ticker may serve this wait: a repeating one that has not stopped. A one-shot never
        // serves the wait after its own.
        var mayBeServed = !oneShotWaits && ticker != nil
        while true {
            if !mayBeServed {
                let delay = delay()
                guard delay > 0 else {
                    consumer = previous
                    return true
                }
                ticker.take()?.cancel()
                ticker = start(index: index, delay: delay, schedule: schedule, fileID: fileID, line: line)
            }
            let wake = await withTaskCancellationHandler {
                await withUnsafeContinuation { continuation in
                    // Parked: the consumer no longer counts as running.
                    if park(continuation, for: index) { previous = nil }
                }
            } onCancel: {
                cancel()
            }
            switch wake.outcome {
            case .reached:
                // A wake-up resumed this wait (with its running-consumer token under virtual time), or the
                // deadline was found reached when parking (the consumer ran all along).
                consumer = wake.consumer ?? previous
                return true
            case .ended:
                return false
            case .unserved:
                mayBeServed = false
            }
        }
    }

    /// Starts a ticker whose first deadline is sequence deadline `index`, `delay` nanoseconds from now;
    /// later deadlines (real time) follow every interval of `schedule`, up to its last.
    private func start(index: Int, delay: Int64, schedule: TickSchedule, fileID: String, line: Int) -> Ticker {
        let count = schedule.count.map { $0 - index + 1 }
        let interval = schedule.intervalNanoseconds
        let tolerance = schedule.toleranceNanoseconds
        let repeating = !oneShotWaits && interval >= TickSchedule.minimumInterval.saturatingNanoseconds && count != 1
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

    /// Parks `continuation` for deadline `index`; returns `false` if it was resumed at once instead.
    private func park(_ continuation: UnsafeContinuation<Wake, Never>, for index: Int) -> Bool {
        switch machine.withLock({ $0.park(continuation, for: index) }) {
        case .parked:
            return true
        case .resumeNow(let outcome):
            continuation.resume(returning: Wake(outcome: outcome, consumer: nil))
            return false
        }
    }

    /// Ends the parked wait, and every later one, at once.
    private func cancel() {
        machine.withLock { $0.cancel() }?.resume(returning: Wake(outcome: .ended, consumer: nil))
    }

    private func fired(generation: UInt64, _ tick: Tick, engine: TickerEngine, id: TickerID) {
        let action = machine.withLock {
            $0.fired(generation: generation, engineIndex: tick.index, isLast: tick.isLast)
        }
        switch action {
        case .none:
            break
        case .resume(let continuation):
            continuation.resume(returning: Wake(outcome: .reached, consumer: virtualClock?.consumerResumed()))
        case .stop:
            // From inside the ticker's own handler, on its context: exact, no further delivery.
            engine.perform(.cancel, on: id)
        }
    }

    fileprivate func handlerReleased(generation: UInt64) {
        machine.withLock { $0.handlerReleased(generation: generation) }?
            .resume(returning: Wake(outcome: .ended, consumer: nil))
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
