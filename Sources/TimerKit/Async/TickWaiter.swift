internal import CTimerKit

/// The state a ``TickWaiter`` keeps under its lock.
typealias TickWaiterState = TickWaiterMachine<UnsafeContinuation<TickWaitOutcome, Never>>

/// The meeting point of one system-clock ``TickSequence`` iterator's waits in real time (see
/// `RealTimeTicks`, the consumer's side) and the tickers that serve them on TimerKit's engine: tickers on
/// the shared async context (a precise thread, `EngineWait.context`) whose handler resumes the parked
/// consumer. (Under virtual time each wait is an `EngineWait` instead, so that a test sees a consumer
/// suspended on its next deadline as one pending ticker, and a woken one as none.)
///
/// One repeating ticker on the sequence's grid serves the iterator while its consumer keeps up: each
/// deadline resumes the parked consumer, and waiting for the next one takes no engine call and no
/// allocation. A deadline that finds the consumer not waiting (it is busy or blocked) stops the ticker, so
/// a blocked consumer costs no further wake-ups; its next wait starts a new ticker on the same grid.
///
/// **What a fire touches.** The token (the ticker's handler itself, ``TickHandler/waiter(_:)``), then one
/// object that holds the state (`TickWaiterMachine`) and its lock side by side (the lock in a
/// `ManagedBuffer`'s tail), then the continuation: no separately allocated lock or state box, and no closure
/// context. The engine asks for that object ahead of the fire while it serves a batch (see
/// `TickerStateMachine.DueBatch`).
///
/// One iterator, one consumer: waits on one waiter never overlap (the iterator's `next()` is `mutating`).
struct TickWaiter: @unchecked Sendable {
    // Invariant: the machine in `storage` is only read or written between lock and unlock of the mutex
    // beside it, by `withLock` (`prefetch` takes the two addresses and reads nothing). Each continuation the
    // machine holds is resumed exactly once, by whichever of a park that cannot wait, a fire, the ticker's
    // handler release and the cancellation handler takes it out.
    private let storage = TickWaiterStorage.make()

    @inline(__always)
    private func withLock<Result>(_ body: (inout TickWaiterState) -> Result) -> Result {
        storage.withUnsafeMutablePointers { machine, mutex in
            mutex.lock()
            defer { mutex.unlock() }
            return body(&machine.pointee)
        }
    }

    /// Starts a ticker on `engine` (on `timeBase`, counting on `clock`), whose
    /// first deadline is sequence deadline `index`, `delay` nanoseconds from now; later deadlines follow
    /// every interval of `schedule`, up to its last (a one-shot for the last deadline, or when the interval
    /// is below the minimum). The ticker has no ``Ticker`` handle: the caller owns the returned id, keeps
    /// `engine` alive, and stops the ticker with `engine.cancelAndRelease(_:)`, once (one engine call).
    func start(
        index: Int, delay: Int64, schedule: ScheduleTimes, clock: TickClock, timeBase: TimeBase,
        engine: TickerEngine, fileID: String, line: Int
    ) -> TickerID {
        let count = schedule.count.map { $0 - index + 1 }
        let interval = schedule.intervalNanoseconds
        let tolerance = schedule.toleranceNanoseconds
        let repeating = interval >= TickSchedule.minimumInterval.saturatingNanoseconds && count != 1
        // Built from numbers, not with the public factories: a wait shorter than the tolerance is normal here
        // and must not log a clamp note at the user's call site. A repeating ticker's first deadline, `delay`
        // from now, is one interval after an origin `delay - interval` from now: its schedule's numbers are
        // then those of every unbounded ticker the call site starts on this grid, which share one creation
        // site (a ticker whose numbers differ has a site of its own: one more object, and two more cache
        // lines that each fire reads).
        let tickerSchedule =
            repeating
            ? TickSchedule(
                ScheduleTimes(
                    firstDelayNanoseconds: interval, intervalNanoseconds: interval, toleranceNanoseconds: tolerance,
                    bound: count ?? -1), clock: clock)
            : TickSchedule.oneShot(delayNanoseconds: delay, toleranceNanoseconds: tolerance, clock: clock)
        let generation = withLock { $0.startServing(base: index, count: repeating ? count : 1) }
        // The handler holds the only reference to this token, and nothing else: if the ticker stops without
        // reaching a parked consumer's deadline, releasing the handler releases the token, which ends the
        // wait instead of leaving it suspended for ever.
        let token = TickWaiterToken(waiter: self, generation: generation)
        return Ticker.add(
            tickerSchedule, on: engine.context, binding: .handle, owner: nil, ownerType: nil,
            startsImmediately: true,
            fileID: fileID, line: line, batched: true, timeBase: timeBase, engine: engine,
            originOffset: repeating ? delay.subtractingSaturating(interval) : 0, handler: .waiter(token)
        ).id
    }

    /// Parks `continuation` for deadline `index`, or resumes it at once (with `.ended` if the task was
    /// cancelled, `.reached` if the deadline was, `.unserved` if no ticker serves it).
    func park(_ continuation: UnsafeContinuation<TickWaitOutcome, Never>, for index: Int) {
        if case .resumeNow(let outcome) = withLock({ $0.park(continuation, for: index) }) {
            continuation.resume(returning: outcome)
        }
    }

    /// Ends the parked wait, and every later one, at once (the consumer's task was cancelled).
    func cancel() {
        withLock { $0.cancel() }?.resume(returning: .ended)
    }

    /// Ticker `generation` delivered `tick`: resumes the consumer parked for it, or stops the ticker (`id`
    /// in `engine`) if nobody waits.
    fileprivate func fired(generation: UInt64, _ tick: Tick, engine: TickerEngine, id: TickerID) {
        let action = withLock { $0.fired(generation: generation, engineIndex: tick.index, isLast: tick.isLast) }
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
        withLock { $0.handlerReleased(generation: generation) }?.resume(returning: .ended)
    }

    /// Starts loading the lock and the state into the cache (the consumer's core wrote them when it
    /// parked), so that a fire served a few deliveries later does not wait for them; changes no state.
    fileprivate func prefetch() {
        storage.withUnsafeMutablePointers { machine, mutex in
            ctimerkit_prefetch_for_write(mutex)
            ctimerkit_prefetch_for_write(machine)
        }
    }
}

/// Held only by one ticker, as its handler (``TickHandler/waiter(_:)``): passes the ticker's fires to the
/// waiter, and tells it when the handler is released (the ticker stopped).
final class TickWaiterToken: Sendable {
    private let waiter: TickWaiter
    private let generation: UInt64

    init(waiter: TickWaiter, generation: UInt64) {
        self.waiter = waiter
        self.generation = generation
    }

    func fired(_ tick: Tick, engine: TickerEngine, id: TickerID) {
        waiter.fired(generation: generation, tick, engine: engine, id: id)
    }

    /// Starts loading the waiter's lock and state into the cache (see `TickerStateMachine.DueBatch`).
    @inline(__always)
    func prefetch() { waiter.prefetch() }

    deinit { waiter.handlerReleased(generation: generation) }
}

/// A waiter's machine with its lock in the same allocation (the lock in the buffer's tail).
private final class TickWaiterStorage: ManagedBuffer<TickWaiterState, PlatformMutex> {
    /// A machine with no ticker and nobody parked, and its lock, initialised.
    static func make() -> TickWaiterStorage {
        let storage = unsafeDowncast(create(minimumCapacity: 1) { _ in TickWaiterState() }, to: Self.self)
        storage.withUnsafeMutablePointerToElements { $0.initializeMutex() }
        return storage
    }

    deinit {
        withUnsafeMutablePointerToElements { $0.deinitializeMutex() }
    }
}
