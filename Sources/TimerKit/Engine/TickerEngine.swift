/// The engine of one context on one time base: every ticker's state, a heap of pending deadlines and a
/// single alarm armed for the earliest of them.
///
/// All state lives in `state` (one lock). Each operation makes its transition under the lock and returns
/// what must happen afterwards — arm the alarm, call a handler, release a closure or the engine itself —
/// which is done after unlocking. No user code, closure release or driver call runs under the lock.
final class TickerEngine: Sendable {
    let context: TickerContext
    /// Where "now" comes from: the time base's source read on the engine's clock. The engine holds the
    /// source, not its `TimeBase`: the time base's registry holds run-loop engines strongly, and the reverse
    /// reference would make a cycle.
    let clock: EngineClock
    private let state = Locked<EngineState>.make(EngineState())

    /// Deliveries served in one wake-up before the engine yields the context back to its run loop or
    /// queue (and re-arms for "now"), so that a flood of due tickers cannot starve other work.
    static let deliveriesPerWake = 1_024

    init(context: TickerContext, clock: TickClock.Kind = .uptime, timeBase: TimeBase) {
        self.context = context
        self.clock = EngineClock(source: timeBase.source, kind: clock)
        // A virtual alarm holds no system resource: it is made now, while its time base surely lives (the
        // engine keeps no reference to the time base, weak or strong: a weak one to a time base that lives
        // until the process exits is reported by LeakSanitizer once the engine is gone). A system alarm is
        // made on the first arming, from the process's system time base.
        if case .virtual = timeBase.source {
            let alarm = timeBase.makeAlarm(for: context, clock: clock) { [weak self] in self?.serviceDueTickers() }
            state.withLock { $0.alarm = .made(alarm) }
        }
    }

    deinit {
        // The engine's last reference is gone, so no arming is under way: the alarm is made or not.
        if case .made(let alarm) = state.withLock({ $0.alarm }) { alarm.shutDown() }
    }

    // MARK: Creating

    func add(
        schedule: TickSchedule, origin: TickerOrigin, owner: AnyObject?, startsImmediately: Bool,
        handler: TickHandler, now: Int64
    ) -> TickerID {
        let finishedAtOnce = schedule.count == 0
        // A schedule at a date becomes a delay from the wall clock's reading now.
        let times = schedule.date == nil ? schedule.times : schedule.times(createdAt: clock.source.date())
        let (id, arming, swept) = state.withLock { state -> (TickerID, Arming?, Sweep) in
            let swept = Self.sweepDeadOwners(&state, limit: Self.sweptPerAdd)
            // Made here rather than before locking: moving it in costs less than copying it in.
            let id = state.insert(
                TickerRecord(
                    state: finishedAtOnce ? .finished : (startsImmediately ? .running : .idle),
                    times: times, site: state.site(for: origin), owner: owner,
                    handler: finishedAtOnce ? nil : handler, now: now))
            guard !finishedAtOnce else { return (id, nil, swept) }
            state.liveCount += 1
            if state.liveCount == 1 { state.retainedEngine = self }
            if origin.binding != .handle { state.boundLiveCount += 1 }
            state.reschedule(id.slot)
            return (id, state.armingIfNeeded(), swept)
        }
        applyArming(arming)
        if !swept.isEmpty { swept.outcomes.forEach { finish($0) } }
        return id
    }

    // MARK: Dead owners

    /// Records examined for a dead owner each time a ticker is added.
    static let sweptPerAdd = 2

    /// Stops up to `limit` bound tickers (all when `limit` is nil) whose owner has gone away, continuing
    /// round-robin from where the last sweep stopped.
    ///
    /// A ticker notices a dead owner at its next deadline by itself. Swift offers no hook into another
    /// object's deinitialisation, so a discarded handle cannot tell the ticker earlier; this incremental
    /// sweep (two records per new ticker, and all of them when diagnostics list live tickers) releases
    /// such tickers between deadlines, so that long intervals do not hold handlers and engines for long.
    ///
    /// Loading a weak reference makes a strong one, and releasing it may be the owner's last release,
    /// which runs its `deinit` (and so user code, possibly calling back into this engine). So owners found
    /// alive are not released here: they are returned in `Sweep.alive`, to be dropped after unlocking.
    private static func sweepDeadOwners(_ state: inout EngineState, limit: Int?) -> Sweep {
        var sweep = Sweep()
        for _ in 0..<min(limit ?? state.slotCount, state.slotCount) {
            // Stopping a ticker may free the last slot, which releases the table.
            let total = state.slotCount
            guard total > 0, state.boundLiveCount > 0 else { break }
            let slot = UInt32(state.sweepCursor % total)
            state.sweepCursor = Int(slot) + 1
            sweepIfOwnerGone(&state, slot: slot, into: &sweep)
        }
        return sweep
    }

    /// Stops the ticker in `slot` if it is live, bound, and its owner has gone away (see
    /// `sweepDeadOwners`).
    private static func sweepIfOwnerGone(_ state: inout EngineState, slot: UInt32, into sweep: inout Sweep) {
        guard state.isLiveBound(slot) else { return }
        if let alive = state[slot].owner {
            sweep.alive.append(alive)
            return
        }
        let origin = state[slot].site
        var outcome = stop(&state, slot: slot, as: .cancelled)
        outcome.ownerGone = origin
        sweep.outcomes.append(outcome)
    }

    /// What a sweep leaves to do after unlocking.
    private struct Sweep {
        var outcomes: [Outcome] = []
        /// Owners found alive, released only after unlocking (see `sweepDeadOwners`).
        var alive: [AnyObject] = []

        var isEmpty: Bool { outcomes.isEmpty && alive.isEmpty }
    }

    // MARK: Lifecycle calls (any thread, any state)

    enum Command {
        case start, pause, resume, restart, cancel, fire
    }

    /// Applies a lifecycle call. Calls that do not apply to the current state do nothing.
    func perform(_ command: Command, on id: TickerID) {
        // Only these read the clock; cancel is the hot path and needs no instant.
        let now = command == .cancel ? 0 : clock.now()
        let outcome = state.withLock { state -> Outcome in
            guard state.isCurrent(id) else { return Outcome() }
            let slot = id.slot
            var outcome = Outcome()
            switch (command, state[slot].state) {
            case (.start, .idle), (.restart, .idle), (.restart, .running), (.restart, .paused):
                // Deadline 1 is one first delay from now; pending `fire()` requests stay.
                state[slot].start = now
                state[slot].nextIndex = 1
                state[slot].state = .running
            case (.pause, .running):
                let deadline = state[slot].scheduledDeadline ?? now
                // While paused, `start` holds the time left to the next deadline.
                state[slot].start = max(0, deadline.subtractingSaturating(now))
                state[slot].state = .paused
            case (.resume, .paused):
                let next = now.addingSaturating(state[slot].start)
                state[slot].start = next.subtractingSaturating(
                    state[slot].times.offset(ofDeadline: state[slot].nextIndex))
                state[slot].state = .running
            case (.cancel, .idle), (.cancel, .running), (.cancel, .paused):
                return Self.stop(&state, slot: slot, as: .cancelled)
            case (.fire, .idle), (.fire, .running), (.fire, .paused):
                if state[slot].manualPending == 0 { state[slot].manualRequestedAt = now }
                state[slot].manualPending &+= 1
            case (.restart, .finished):
                // Its handler is gone: nothing can run again. Almost always a mistake (see `restart()`).
                outcome.restartedFinished = state[slot].site
                return outcome
            default:
                return outcome
            }
            state.reschedule(slot)
            outcome.arming = state.armingIfNeeded()
            return outcome
        }
        finish(outcome)
    }

    /// What releasing a handle does to its ticker.
    enum Release {
        /// Stop the ticker (handle-owned).
        case cancel
        /// Stop the ticker because its owner is gone (the owner held the handle): logged when asked.
        case ownerGone
        /// Keep a running ticker going (its owner defines its lifetime), but stop an idle or paused one:
        /// with its last handle gone nothing could ever start or resume it.
        case keepIfRunning
    }

    /// The ticker's handle went away.
    func handleReleased(_ id: TickerID, _ release: Release) {
        let outcome = state.withLock { state -> Outcome in
            guard state.isCurrent(id) else { return Outcome() }
            let slot = id.slot
            state[slot].handleAlive = false
            let current = state[slot].state
            if current.isTerminal {
                state.free(slot)
                return Outcome()
            }
            if release != .keepIfRunning || current != .running {
                let origin = release == .ownerGone ? state[slot].site : nil
                var outcome = Self.stop(&state, slot: slot, as: .cancelled)
                outcome.ownerGone = origin
                return outcome
            }
            return Outcome()
        }
        finish(outcome)
    }

    /// Cancels every live ticker (when a virtual time base is torn down).
    func cancelAll() {
        let outcomes = state.withLock { state -> [Outcome] in
            (0..<UInt32(state.slotCount)).compactMap { slot in
                // Stopping a ticker may free the last slot, which releases the table.
                guard state.isOccupied(slot), !state[slot].state.isTerminal else {
                    return nil
                }
                return Self.stop(&state, slot: slot, as: .cancelled)
            }
        }
        outcomes.forEach { finish($0) }
    }

    /// Moves a live ticker to a final state, taking out its handler and its heap entry; frees its slot
    /// if its handle is already gone.
    private static func stop(_ state: inout EngineState, slot: UInt32, as final: TickerState) -> Outcome {
        var outcome = Outcome()
        state[slot].state = final
        state[slot].manualPending = 0
        outcome.released = state[slot].handler.take()
        state.reschedule(slot)
        state.liveCount -= 1
        if state[slot].site.binding != .handle { state.boundLiveCount -= 1 }
        if state.liveCount == 0 { outcome.releasedEngine = state.retainedEngine.take() }
        if !state[slot].handleAlive { state.free(slot) }
        return outcome
    }

    /// What to do after unlocking.
    private struct Outcome {
        var arming: Arming?
        var released: TickHandler?
        var releasedEngine: TickerEngine?
        /// Set when the ticker stopped because its owner went away (logged when asked for).
        var ownerGone: TickerSite?
        /// Set when `restart()` was called on a finished ticker (warned about in debug builds).
        var restartedFinished: TickerSite?
    }

    private func finish(_ outcome: consuming Outcome) {
        applyArming(outcome.arming)
        if let origin = outcome.ownerGone {
            Diagnostics.ownerWentAway(origin: origin, context: context)
        }
        if let origin = outcome.restartedFinished {
            Diagnostics.warn(
                "restart() on the finished ticker created at \(origin.fileID):\(origin.line) does nothing: a "
                    + "finished ticker has released its handler. Schedule a new ticker instead, or restart it "
                    + "before its last tick.")
        }
        // `released` and `releasedEngine` are dropped here, outside the lock: a handler's captures may
        // run user deinitialisers, and releasing the engine may shut its alarm down.
    }

    // MARK: Arming

    /// Arms the alarm outside the lock; if another arming was issued meanwhile (and may have been applied
    /// before ours), applies the newest again so that the last arming to land is always the newest.
    ///
    /// The first arming makes the alarm (outside the lock, like every driver call) and publishes it; an
    /// arming issued while it is being made is left to the thread making it, which applies the newest
    /// arming once the alarm is published.
    private func applyArming(_ arming: Arming?) {
        guard var arming else { return }
        while true {
            let alarm: any Alarm
            let isNew: Bool
            switch arming.alarm {
            case .made(let made): (alarm, isNew) = (made, false)
            case .make: (alarm, isNew) = (makeAlarm(), true)
            case .beingMade: return
            }
            alarm.arm(at: arming.deadline)
            let newer = state.withLock { state -> Arming? in
                if isNew { state.alarm = .made(alarm) }
                guard state.armSequence != arming.sequence, let armedAt = state.armedAt else { return nil }
                return Arming(deadline: armedAt, sequence: state.armSequence, alarm: .made(alarm))
            }
            guard let newer else { return }
            arming = newer
        }
    }

    /// The context's system alarm, calling back into this engine without keeping it alive. (A virtual
    /// engine made its alarm when it was created, so it never gets here.)
    private func makeAlarm() -> any Alarm {
        guard case .system = clock.source else { return SilentAlarm() }
        return TimeBase.system.makeAlarm(for: context, clock: clock.kind) { [weak self] in
            self?.serviceDueTickers()
        }
    }

    /// Whether the engine has made its alarm (for tests: an engine makes it on its first arming).
    var hasAlarm: Bool {
        state.withLock { state in
            if case .made = state.alarm { return true }
            return false
        }
    }

    // MARK: Serving deadlines (on the context)

    private indirect enum Step {
        /// Call the handler; `owner` (bound tickers) was loaded under the lock and is released only
        /// after the call, outside the lock.
        case deliver(TickHandler, Tick, TickerID, owner: AnyObject?, last: Outcome)
        /// The due ticker's owner was already gone: it was stopped instead of delivered.
        case stopped(Outcome)
        /// Deliveries (and stops) of batched tickers, decided under one lock.
        case batch([Step])
        case done(Arming?)
    }

    /// Called by the alarm on the context: delivers every due tick, one at a time, then re-arms.
    func serviceDueTickers() {
        state.withLock { $0.armedAt = nil }
        var served = 0
        while true {
            let step = state.withLock { state -> Step in
                let now = clock.now()
                guard let top = state.heap.first, let deadline = state.topDeadline, deadline <= now else {
                    return .done(state.armingIfNeeded())
                }
                if served >= Self.deliveriesPerWake {
                    return .done(state.arm(at: now))
                }
                guard state[top.slot].site.isBatched else {
                    return Self.nextDelivery(&state, slot: top.slot, now: now)
                }
                // Batched tickers (internal hand-overs): decide every due one under this lock.
                var batch: [Step] = []
                while served + batch.count < Self.deliveriesPerWake, let next = state.heap.first,
                    state[next.slot].site.isBatched, let due = state.topDeadline, due <= now
                {
                    batch.append(Self.nextDelivery(&state, slot: next.slot, now: now))
                }
                return .batch(batch)
            }
            switch step {
            case .done(let arming):
                applyArming(arming)
                return
            case .deliver, .stopped:
                served += 1
                perform(step)
            case .batch(let steps):
                served += steps.count
                steps.forEach(perform)
            }
        }
    }

    /// Carries out a delivery (or a stop) decided under the lock.
    private func perform(_ step: Step) {
        switch step {
        case let .deliver(handler, tick, id, owner, last):
            handler(tick, owner: owner, engine: self, id: id)
            finish(last)
        case .stopped(let outcome):
            finish(outcome)
        case .batch, .done:
            preconditionFailure("TimerKit internal: not a single delivery")
        }
    }

    /// Takes the due record at the top of the heap, advances its schedule and returns its delivery.
    private static func nextDelivery(_ state: inout EngineState, slot: UInt32, now: Int64) -> Step {
        let id = state.id(of: slot)
        // A bound ticker is delivered only with its owner loaded (and kept alive for the call): a dead
        // owner stops it instead. The loaded reference travels out in the step, never released here.
        var owner: AnyObject?
        if state[slot].site.binding != .handle {
            owner = state[slot].owner
            if owner == nil {
                let origin = state[slot].site
                var outcome = stop(&state, slot: slot, as: .cancelled)
                outcome.ownerGone = origin
                return .stopped(outcome)
            }
        }
        let tick: Tick
        var isFinal = false
        let lastDelivered = state[slot].nextIndex - 1
        let oneShotUnfired = state[slot].times.count == 1 && lastDelivered == 0
        let manual = state[slot].manualPending > 0 && state[slot].manualRequestedAt <= now
        if manual, !oneShotUnfired {
            state[slot].manualPending -= 1
            state[slot].fireCount += 1
            tick = Tick(
                index: lastDelivered,
                deadline: TickInstant(nanoseconds: state[slot].manualRequestedAt),
                timestamp: TickInstant(nanoseconds: now),
                skipped: 0,
                remaining: state[slot].times.count.map { $0 - lastDelivered },
                fireCount: state[slot].fireCount,
                isManual: true
            )
        } else {
            // A scheduled deadline (or fire() on a one-shot that has not fired: it becomes the one tick).
            let schedule = state[slot].times
            let start = state[slot].start
            let nextIndex = state[slot].nextIndex
            let due = manual ? nextIndex : schedule.lastIndex(dueBy: now.subtractingSaturating(start))
            let index = max(due, nextIndex)
            let skipped = index - nextIndex
            state[slot].nextIndex = index + 1
            state[slot].fireCount += 1
            state[slot].skippedTotal = UInt32(clamping: UInt64(state[slot].skippedTotal) + UInt64(max(0, skipped)))
            if manual { state[slot].manualPending = 0 }
            isFinal = schedule.isFinal(index)
            let deadline =
                manual ? state[slot].manualRequestedAt : start.addingSaturating(schedule.offset(ofDeadline: index))
            tick = Tick(
                index: index,
                deadline: TickInstant(nanoseconds: deadline),
                timestamp: TickInstant(nanoseconds: max(now, deadline)),
                skipped: skipped,
                remaining: schedule.count.map { $0 - index },
                fireCount: state[slot].fireCount,
                isManual: manual
            )
        }
        let handler = state[slot].handler!
        var last = Outcome()
        if isFinal {
            last = stop(&state, slot: slot, as: .finished)
        } else {
            state.reschedule(slot)
        }
        return .deliver(handler, tick, id, owner: owner, last: last)
    }

    // MARK: Reading

    func snapshot(_ id: TickerID) -> TickerSnapshot? {
        let found = state.withLock { state -> RecordSummary? in
            guard state.isCurrent(id) else { return nil }
            return RecordSummary(state[id.slot])
        }
        return found?.snapshot(context: context.description, clock: clock.tickClock)
    }

    /// Slots a listing of live tickers examines under one lock: a listing takes the engine's lock once per
    /// slice, so deliveries and other calls on the context wait for one slice at most, not the whole list.
    static let listingSlice = 1_024

    /// Snapshots of every ticker that is not final, first stopping those whose owner is gone. Taken slice
    /// by slice (see `listingSlice`): not one atomic picture, a ticker created or stopped meanwhile may or
    /// may not be listed. The snapshots are formatted after unlocking.
    func liveSnapshots() -> [TickerSnapshot] {
        var summaries: [RecordSummary] = []
        var next = 0
        var isDone = false
        while !isDone {
            // Filled under the lock and appended after unlocking: growing the whole list may copy it.
            var slice: [RecordSummary] = []
            slice.reserveCapacity(Self.listingSlice)
            let sweep = state.withLock { state -> Sweep in
                var sweep = Sweep()
                let end = min(next + Self.listingSlice, state.slotCount)
                // Stopping a ticker may free the last slot, which empties the table: re-read its end.
                while next < min(end, state.slotCount) {
                    let slot = UInt32(next)
                    next += 1
                    Self.sweepIfOwnerGone(&state, slot: slot, into: &sweep)
                    guard state.isOccupied(slot), !state[slot].state.isTerminal else { continue }
                    slice.append(RecordSummary(state[slot]))
                }
                isDone = next >= state.slotCount
                return sweep
            }
            summaries.append(contentsOf: slice)
            sweep.outcomes.forEach { finish($0) }
        }
        let description = context.description
        return summaries.map { $0.snapshot(context: description, clock: clock.tickClock) }
    }

    /// The state of the ticker `id` (`nil` once its record is gone), without building a snapshot.
    func tickerState(_ id: TickerID) -> TickerState? {
        state.withLock { state in state.isCurrent(id) ? state[id.slot].state : nil }
    }

    /// The time left to the ticker's next scheduled deadline (`nil` once it is finished or cancelled, or its
    /// record is gone): from now while running (zero when the deadline has passed and its delivery is on
    /// its way), the time kept at the pause while paused, the first delay while idle.
    func timeRemaining(_ id: TickerID) -> Duration? {
        let now = clock.now()
        return state.withLock { state -> Int64? in
            guard state.isCurrent(id) else { return nil }
            // Field by field: a copy of the record would retain its handler and site.
            switch state[id.slot].state {
            case .idle: return state[id.slot].times.offset(ofDeadline: state[id.slot].nextIndex)
            case .paused: return state[id.slot].start
            case .running: return max(0, (state[id.slot].scheduledDeadline ?? now).subtractingSaturating(now))
            case .finished, .cancelled: return nil
            }
        }.map { .nanoseconds($0) }
    }

    /// How many times the ticker `id` has fired (`nil` once its record is gone).
    func fireCount(_ id: TickerID) -> Int? {
        state.withLock { state in state.isCurrent(id) ? state[id.slot].fireCount : nil }
    }

    /// What a snapshot needs from a record, copied under the lock (a few references and numbers); the
    /// snapshot's strings are made after unlocking.
    private struct RecordSummary {
        let state: TickerState
        let site: TickerSite
        let times: ScheduleTimes
        let fireCount: Int
        let skippedTotal: UInt32
        let nextDeadline: Int64?
        let createdAt: Int64

        init(_ record: borrowing TickerRecord) {
            state = record.state
            site = record.site
            times = record.times
            fireCount = record.fireCount
            skippedTotal = record.skippedTotal
            nextDeadline = record.heapKey?.deadline
            createdAt = record.createdAt
        }

        func snapshot(context: String, clock: TickClock) -> TickerSnapshot {
            TickerSnapshot(
                state: state,
                fileID: site.fileID,
                line: site.line,
                ownerType: site.ownerTypeName,
                binding: site.binding.name,
                context: context,
                schedule: TickSchedule(times, clock: clock),
                fireCount: fireCount,
                skippedCount: Int(skippedTotal),
                nextDeadline: nextDeadline.map { TickInstant(nanoseconds: $0) },
                createdAt: TickInstant(nanoseconds: createdAt)
            )
        }
    }

    func liveCount() -> Int { state.withLock { $0.liveCount } }

    /// The first broken invariant of the engine's table and heap, or nil (for tests).
    func storageInvariantViolation() -> String? {
        state.withLock { $0.invariantViolation() }
    }

    /// What the engine's table holds (for tests).
    func storage() -> (slots: Int, occupied: Int, pages: Int, heapCapacity: Int, sites: Int) {
        state.withLock { $0.storage }
    }

    /// The engine's current instant.
    func now() -> TickInstant { TickInstant(nanoseconds: clock.now()) }
}

/// A time base's source read on one clock's timeline.
struct EngineClock: Sendable {
    let source: TimeBase.Source
    let kind: TickClock.Kind

    @inline(__always)
    func now() -> Int64 { source.now(kind) }

    /// The clock as the public API names it.
    var tickClock: TickClock { TickClock(kind) }
}

extension Optional {
    /// Returns the wrapped value and leaves `nil` behind.
    mutating func take() -> Wrapped? {
        defer { self = nil }
        return self
    }
}

/// An alarm that never wakes (for an engine that cannot have a system alarm).
private final class SilentAlarm: Alarm {
    func arm(at deadline: Int64) {}
    func shutDown() {}
}
