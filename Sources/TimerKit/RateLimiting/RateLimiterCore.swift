/// The timing of a rate limiter, as pure value math the core drives: events in, decided values out, and
/// the next instant it needs a wake-up.
protocol RateLimitMachine: Sendable {
    associatedtype Value: Sendable

    /// Decides every delivery whose deadline is at or before `now`, in deadline order.
    mutating func settle(at now: Int64, dropping: inout Dropped<Value>)
    /// A value sent at `now` (settles first).
    mutating func receive(_ value: Value, at now: Int64, dropping: inout Dropped<Value>)
    /// Takes the oldest value decided for delivery.
    mutating func takeReady() -> Value?
    /// Drops every pending and decided value.
    mutating func discardAll(dropping: inout Dropped<Value>)
    /// The next instant the machine needs a wake-up (`Int64.min`: at once), or `nil` when it waits for
    /// nothing.
    var nextWake: Int64? { get }
    /// Whether a value is pending or decided and not yet delivered.
    var hasPendingValue: Bool { get }
}

/// Values a transition let go of. They leave the lock inside the transition's result and are released
/// after unlocking: a value's `deinit` is user code, and may even call back into the rate limiter.
struct Dropped<Value> {
    private var first: Value?
    private var rest: [Value] = []

    mutating func add(_ value: Value) {
        if first == nil { first = value } else { rest.append(value) }
    }

    mutating func add(contentsOf values: [Value]) {
        for value in values { add(value) }
    }
}

/// Wake-ups taken in one turn of the context before the core yields it back (and re-arms for "now"), so
/// that a handler which keeps sending to a zero-interval rate limiter cannot hold its context for ever.
private let deliveriesPerWake = 16

/// The engine-facing half of ``Debouncer`` and ``Throttler``: the machine inside its lock, and the one
/// TimerKit ticker that wakes it.
///
/// **Wake-ups.** The core keeps at most one one-shot `.after` ticker armed, for the earliest instant the
/// machine needs (`armedAt`). A later need leaves it alone: it wakes early, the machine settles, and the
/// core re-arms for what is left. So a stream of sends costs one ticker per interval, not one per send.
/// An earlier need (a leading edge, a flush) replaces it. Each arming has a generation; a ticker of an
/// old generation that still fires finds nothing due and is harmless, and a ticker created after its
/// generation was superseded is cancelled as soon as it is stored.
///
/// **Locking.** Every transition runs under the lock and returns what to do afterwards — cancel a
/// superseded ticker, arm a new one, deliver a value, release dropped values — which is done after
/// unlocking. No user code, ticker call or value release happens under the lock.
final class RateLimiterCore<Machine: RateLimitMachine>: Sendable {
    typealias Value = Machine.Value
    /// Called by the armed ticker on the context, with the function that hands a value to the user's
    /// handler (with the owner loaded, for owner-bound forms).
    typealias Wake = @Sendable (_ deliver: (Value) -> Void) -> Void
    /// Schedules a one-shot ticker `delay` from now on the context, whose handler calls `wake`. Returns
    /// `nil` when the owner is gone.
    typealias Arm = @Sendable (_ delay: Duration, _ wake: @escaping Wake) -> Ticker?

    struct State {
        var machine: Machine
        var isCancelled = false
        /// Bumped whenever the armed wake-up changes.
        var generation: UInt64 = 0
        /// The instant the current generation's ticker is armed for (`nil`: none armed, or it fired).
        var armedAt: Int64?
        /// The current generation's ticker, once created (it is created after unlocking).
        var ticker: Ticker?

        /// Decides the wake-up the machine needs now; returns the ticker it supersedes and the arming to
        /// apply after unlocking.
        mutating func plan(now: Int64) -> Plan {
            var plan = Plan()
            guard !isCancelled else { return plan }
            guard let wanted = machine.nextWake, wanted != .max else {
                // Nothing to wait for (or a saturated deadline that is never reached): release the ticker.
                if armedAt != nil {
                    armedAt = nil
                    generation &+= 1
                    plan.superseded = ticker.take()
                }
                return plan
            }
            let target = max(wanted, now)
            if let armedAt, armedAt <= target { return plan }
            generation &+= 1
            armedAt = target
            plan.superseded = ticker.take()
            plan.arming = (generation, target)
            return plan
        }
    }

    /// What to do after unlocking.
    struct Plan {
        var superseded: Ticker?
        var arming: (generation: UInt64, deadline: Int64)?
    }

    let context: TickerContext
    /// `.owner` (owner-bound forms) or `.handle` (handle-owned ones): what releasing the rate limiter
    /// does (see ``Lifetime``).
    let binding: Lifetime.Binding
    /// The owner, for owner-bound forms (`nil` for handle-owned ones).
    let owner: WeakReference?
    /// The time base current when the rate limiter was made: its tickers use it whichever thread sends.
    private let timeBase: TimeBase
    private let arm: Arm
    private let state: Locked<State>

    init(machine: Machine, context: TickerContext, owner: WeakReference?, arm: @escaping Arm) {
        self.context = context
        self.binding = owner == nil ? .handle : .owner
        self.owner = owner
        self.timeBase = TimeBase.current
        self.arm = arm
        self.state = .make(State(machine: machine))
    }

    // MARK: Reading

    var isCancelled: Bool { state.withLock { $0.isCancelled } }

    var hasPendingValue: Bool { state.withLock { !$0.isCancelled && $0.machine.hasPendingValue } }

    /// Whether the rate limiter is owner-bound and its owner is gone. Loads the weak reference outside
    /// every lock: the temporary strong reference may be the owner's last.
    var ownerIsGone: Bool {
        if case .ownerGone = Lifetime.load(binding, owner: owner?.object) { return true }
        return false
    }

    // MARK: Lifetime

    /// The ``Debouncer`` or ``Throttler`` holding this core went away (both call this from `deinit`). A
    /// handle-owned rate limiter is cancelled; an owner-bound one keeps its pending delivery while its
    /// owner lives (a rate limiter is never paused: it counts as running), and is cancelled when the owner
    /// is being deinitialised (it held the rate limiter) or is gone.
    func handleReleased() {
        let release = Lifetime.release(of: binding, ownerReadsNil: ownerIsGone)
        if Lifetime.effect(of: release, in: .running) != .none { cancel() }
    }

    // MARK: Events (any thread)

    /// Runs `transition` on the machine at the current instant, then arms what it needs. Does nothing
    /// once cancelled; cancels instead when the owner is gone.
    func update(_ transition: (inout Machine, Int64, inout Dropped<Value>) -> Void) {
        if ownerIsGone {
            cancel()
            return
        }
        let now = timeBase.now()
        let (plan, dropped) = state.withLock { state -> (Plan, Dropped<Value>) in
            var dropped = Dropped<Value>()
            guard !state.isCancelled else { return (Plan(), dropped) }
            transition(&state.machine, now, &dropped)
            return (state.plan(now: now), dropped)
        }
        apply(plan)
        _ = dropped  // released here, outside the lock
    }

    /// Stops for good: drops every value, cancels the armed ticker (releasing its handler) and ignores
    /// every later event. Safe to call twice, from any thread and from inside the handler.
    func cancel() {
        let (ticker, dropped) = state.withLock { state -> (Ticker?, Dropped<Value>) in
            var dropped = Dropped<Value>()
            guard !state.isCancelled else { return (nil, dropped) }
            state.isCancelled = true
            state.machine.discardAll(dropping: &dropped)
            state.armedAt = nil
            state.generation &+= 1
            return (state.ticker.take(), dropped)
        }
        ticker?.cancel()
        _ = dropped  // released here, outside the lock
    }

    // MARK: Arming

    private func apply(_ plan: consuming Plan) {
        plan.superseded?.cancel()
        if let (generation, deadline) = plan.arming {
            armTicker(generation: generation, deadline: deadline)
        }
    }

    private func armTicker(generation: UInt64, deadline: Int64) {
        let delay = Duration.nanoseconds(max(0, deadline.subtractingSaturating(timeBase.now())))
        let handle = WakeHandle(core: self, generation: generation)
        let made = onTimeBase {
            arm(delay) { deliver in handle.core.wake(generation: handle.generation, deliver) }
        }
        guard let ticker = made else {
            // The owner went away: nothing can be delivered any more.
            cancel()
            return
        }
        let unused = state.withLock { state -> Ticker? in
            // Store it unless its generation was superseded, cancelled, or it already fired meanwhile.
            guard !state.isCancelled, state.generation == generation, state.armedAt != nil, state.ticker == nil
            else { return ticker }
            state.ticker = ticker
            return nil
        }
        unused?.cancel()  // a ticker that already fired ignores this
    }

    /// Creates tickers on the time base the rate limiter was made on (virtual time in tests), whichever
    /// thread sends.
    private func onTimeBase<Result>(_ body: () -> Result) -> Result {
        if TimeBase.current === timeBase { return body() }
        return TimeBase.$override.withValue(timeBase, operation: body)
    }

    /// What an armed ticker's handler captures. The engine releases the handler when the ticker stops —
    /// after firing, when cancelled, or when it finds the owner gone (at the deadline, or in a sweep for
    /// dead owners) without calling it. In that last case this is the core's only news of the owner's
    /// death, so the release stops the core at once, dropping its pending value instead of keeping it
    /// until the rate limiter's next call. The engine releases handlers outside its lock, and the core
    /// never releases a ticker under its own.
    private final class WakeHandle: Sendable {
        let core: RateLimiterCore
        let generation: UInt64

        init(core: RateLimiterCore, generation: UInt64) {
            self.core = core
            self.generation = generation
        }

        deinit {
            if core.ownerIsGone { core.cancel() }
        }
    }

    // MARK: Waking (on the context)

    private struct WakeStep {
        var fired: Ticker?
        var value: Value?
        var plan = Plan()
        var dropped = Dropped<Value>()
    }

    /// Called by an armed ticker on the context: delivers every decided value, one per turn of the lock
    /// (so that a `cancel()` from inside the handler is exact), then arms for what is left.
    private func wake(generation: UInt64, _ deliver: (Value) -> Void) {
        var isFirstTurn = true
        var delivered = 0
        while true {
            let now = timeBase.now()
            let step = state.withLock { state -> WakeStep in
                var step = WakeStep()
                if isFirstTurn, state.generation == generation, state.armedAt != nil {
                    state.armedAt = nil
                    step.fired = state.ticker.take()
                }
                guard !state.isCancelled else { return step }
                state.machine.settle(at: now, dropping: &step.dropped)
                if delivered < deliveriesPerWake, let value = state.machine.takeReady() {
                    step.value = value
                } else {
                    step.plan = state.plan(now: now)
                }
                return step
            }
            isFirstTurn = false
            let value = step.value
            apply(step.plan)
            _ = consume step  // the fired ticker and dropped values are released here, outside the lock
            guard let value else { return }
            delivered += 1
            deliver(value)
        }
    }
}
