/// Everything an engine knows, and every transition of its tickers: a value type kept inside the engine's
/// lock, whose events return the actions to carry out after unlocking.
///
/// The machine does no I/O. It never calls a handler, releases a closure or an owner, touches the alarm or
/// logs: each event returns what must happen — ``Arming`` (arm the alarm), ``Delivery`` (call a handler),
/// ``ReleasedResources`` (drop a handler, an owner, the engine's self-reference; log that an owner went
/// away) — and ``TickerEngine`` does it after unlocking.
///
/// Storage: the ticker records (a ``SlotTable``), a 4-ary min-heap of pending deadlines (a
/// ``DeadlineHeap``, ordered by deadline, then arrival order), and what the alarm is armed for (see
/// TickerStateMachine+Alarm.swift). The table gives pages back as tickers go, and the heap's storage
/// shrinks when it is mostly empty: after a burst, an engine's memory returns to what its remaining
/// tickers need.
///
/// The machine is noncopyable, as its ``SlotTable`` is (a copy would alias the table's raw page storage):
/// it lives in its engine's lock and is only used in place there. Built with `TIMERKIT_CHECKED`, the
/// engine checks every invariant of the table and the heap (``invariantViolation()``) after each locked
/// transition.
struct TickerStateMachine: ~Copyable {
    private(set) var table = SlotTable()
    private var nextSerial: UInt32 = 0
    var deadlines = DeadlineHeap()
    /// Arrival counter for tie order (internal so that tests can start it near the wrap).
    var sequence: UInt32 = 0
    /// What the alarm is armed for and how to reach it (see TickerStateMachine+Alarm.swift).
    var alarmState = AlarmState()
    /// Tickers not yet finished or cancelled.
    private(set) var liveCount = 0
    /// Live tickers bound to an owner or target: the only ones a dead-owner sweep looks for.
    private(set) var boundLiveCount = 0
    /// Keeps the engine alive while it has live tickers whose handles may all be gone: given by `add`,
    /// handed back in ``ReleasedResources`` when the last live ticker stops.
    private var keepAlive: (any AnyObject & Sendable)?
    /// Pending `fire()` requests, by slot (see ``ManualFires``).
    private var manualFires: [UInt32: ManualFires] = [:]
    /// The counters of tickers that outgrew their record's fields (see ``TickerRecord``), by slot: a
    /// ticker past 2^32 deadlines or calls, or 2^16 skipped deadlines, until its slot is freed.
    private var wideCounts: [UInt32: TickerCounts] = [:]
    /// Where the incremental dead-owner sweep continues.
    var sweepCursor = Lifetime.SweepCursor()
    #if DEBUG
        /// How many times `TickerEngine` has taken the lock this machine lives in (for tests that count
        /// the engine calls an operation makes).
        var lockAcquisitions = 0
    #endif
    #if TIMERKIT_CHECKED
        /// Which transitions `TickerEngine` checks the invariants after.
        var checkedCadence = CheckedCadence()
    #endif
    /// Creation sites of the tickers held, interned (at most `maximumSites`; beyond that each ticker gets
    /// its own), and the one used last.
    private var sites: [TickerOrigin: TickerSite] = [:]
    private var lastSite: TickerSite?
    static let maximumSites = 4_096

    /// Records examined for a dead owner each time a ticker is added.
    static let sweptPerAdd = 2

    // MARK: Actions

    /// What a stopped ticker leaves to release after unlocking: its handler (whose captures may run user
    /// deinitialisers), and the engine's self-reference when it was the last live ticker (releasing it may
    /// shut the alarm down). `ownerGone` is set when it stopped because its owner went away (logged when
    /// asked for).
    struct ReleasedResources {
        var handler: TickHandler?
        var keepAlive: (any AnyObject & Sendable)?
        var ownerGone: TickerSite?
    }

    /// A handler call decided under the lock. `owner` (bound tickers) was loaded under the lock and is
    /// released only after the call; `then` is what the ticker releases if this was its last deadline.
    struct Delivery {
        let handler: TickHandler
        let tick: Tick
        let id: TickerID
        let owner: AnyObject?
        let then: ReleasedResources?
    }

    /// What a lifecycle call (start, pause, resume, restart, cancel, fire, handle released) leaves to do.
    enum Action {
        case none
        case arm(Arming)
        case release(ReleasedResources)
        /// `restart()` on a finished ticker: its handler is gone, nothing can run again (warned about).
        case warnRestartedFinished(TickerSite)
        /// A wall-clock ticker was started, restarted or resumed: it is parked until its `WallTicker`
        /// computes its next deadline (after unlocking) and retargets it.
        case recomputeWall(WallTicker, TickerID, WallTicker.Reason)
    }

    /// One due ticker served: delivered, or stopped instead because its owner was gone.
    enum Due {
        case deliver(Delivery)
        case stop(ReleasedResources)
    }

    /// What a wake-up does next (noncopyable: a batch is served once).
    enum ServiceAction: ~Copyable {
        case serve(Due)
        /// Batched tickers (internal hand-overs): every due one decided under one lock, served back to back.
        case serveBatch(DueBatch)
        /// Nothing more is due now (or the wake-up served its share): arm for the next wake-up, if any.
        case done(Arming?)
    }

    /// Batched deliveries, in the order they were decided, in storage of their own that the engine empties
    /// after unlocking: ``serveAll(_:)`` moves each one out in turn and frees the storage. (An array would
    /// either copy each delivery out, retaining its handler once more, or destroy an emptied element after
    /// each one.) A batch is made under the lock and served exactly once, by the wake-up that asked for it.
    ///
    /// It is made for the due tickers counted when the wake-up starts (see `nextDue`), and doubles only if
    /// more come due while it fills (a `fire()` request). Noncopyable, as it owns its storage: a batch dropped
    /// before it is served (or part way) releases what it still holds.
    struct DueBatch: ~Copyable {
        private var base: UnsafeMutablePointer<Due>
        /// Beside each delivery, its waiter token's address (unretained; nil for other handlers), taken
        /// when it was appended, so that the prefetch hints read no `Due` (a copy retains what it holds).
        private var waiters: UnsafeMutablePointer<UnsafeRawPointer?>
        private(set) var capacity: Int
        private(set) var count = 0
        /// Deliveries moved out to be served (the first `served` are no longer initialised).
        private var served = 0

        init(capacity: Int) {
            self.capacity = max(1, capacity)
            base = .allocate(capacity: self.capacity)
            waiters = .allocate(capacity: self.capacity)
        }

        mutating func append(_ due: consuming Due) {
            if count == capacity {
                let larger = UnsafeMutablePointer<Due>.allocate(capacity: capacity * 2)
                larger.moveInitialize(from: base, count: count)
                base.deallocate()
                let largerWaiters = UnsafeMutablePointer<UnsafeRawPointer?>.allocate(capacity: capacity * 2)
                largerWaiters.moveInitialize(from: waiters, count: count)
                waiters.deallocate()
                (base, waiters, capacity) = (larger, largerWaiters, capacity * 2)
            }
            var raw: UnsafeRawPointer? = nil
            if case .deliver(let delivery) = due, case .waiter(let token) = delivery.handler {
                raw = UnsafeRawPointer(Unmanaged.passUnretained(token).toOpaque())
            }
            (waiters + count).initialize(to: raw)
            (base + count).initialize(to: due)
            count += 1
        }

        /// How many deliveries ahead ``serveAll(_:)`` asks for a waiter's memory.
        static let lookahead = 4

        /// Asks for the memory a waiter's delivery touches first (`TickWaiterToken.prefetch`: the waiter's
        /// lock and state). `raw` is the token of a delivery still in this batch, unretained (see `waiters`):
        /// the delivery holds the token until it is served, and hints are only asked for deliveries not yet
        /// served, so the token is alive; borrowing it this way takes no reference-count write on its line.
        @inline(__always)
        private static func hint(_ raw: UnsafeRawPointer?) {
            guard let raw else { return }
            Unmanaged<TickWaiterToken>.fromOpaque(raw)._withUnsafeGuaranteedRef { $0.prefetch() }
        }

        /// Hands each delivery, moved out, to `serve` in order, then frees the storage. While one is served,
        /// the memory the one `lookahead` places later will touch first is asked for (see `hint`), so that
        /// its cache misses overlap the deliveries in between.
        consuming func serveAll(_ serve: (consuming Due) -> Void) {
            for index in 0..<min(count, Self.lookahead) { Self.hint(waiters[index]) }
            while served < count {
                let index = served
                if index + Self.lookahead < count { Self.hint(waiters[index + Self.lookahead]) }
                served += 1
                serve((base + index).move())
            }
        }

        deinit {
            (base + served).deinitialize(count: count - served)
            base.deallocate()
            waiters.deallocate()
        }
    }

    /// What a sweep for dead owners leaves to do: stopped tickers' resources, and owners found alive, which
    /// are released only after unlocking (see `Lifetime.Sweep`).
    typealias Sweep = Lifetime.Sweep<ReleasedResources>

    /// A lifecycle call from a handle (``Lifetime/Control``).
    typealias Command = Lifetime.Control

    // MARK: Events

    /// A ticker is created: it takes a slot and, unless its schedule is empty (then it is finished at once),
    /// waits for its first deadline. Also sweeps a few records for dead owners. A ticker that starts
    /// immediately counts its schedule from `now + originOffset` (see `Ticker.make`).
    mutating func add(
        times: ScheduleTimes, origin: TickerOrigin, owner: AnyObject?, startsImmediately: Bool, handler: TickHandler,
        finishedAtOnce: Bool, now: Int64, originOffset: Int64 = 0, keepAlive engine: any AnyObject & Sendable
    ) -> (id: TickerID, arming: Arming?, swept: Sweep) {
        let swept = sweep(limit: Self.sweptPerAdd)
        let start = now.addingSaturating(originOffset)
        let phase: TickerPhase = finishedAtOnce ? .finished : (startsImmediately ? .running(origin: start) : .idle)
        // Made here rather than by the caller: moving it in costs less than copying it in.
        let (site, isOwn) = site(for: origin, times: times)
        let id = insert(
            TickerRecord(phase: phase, site: site, owner: owner, handler: finishedAtOnce ? nil : handler, now: now))
        if isOwn { self[id.slot].hasOwnSite = true }
        guard !finishedAtOnce else { return (id, nil, swept) }
        liveCount += 1
        if liveCount == 1 { keepAlive = engine }
        if origin.binding.isBound { boundLiveCount += 1 }
        reschedule(id.slot)
        return (id, armingIfNeeded(), swept)
    }

    /// A lifecycle call on a handle. Calls that do not apply to the current phase do nothing.
    mutating func handle(_ command: Command, on id: TickerID, now: Int64) -> Action {
        guard isCurrent(id) else { return .none }
        let slot = id.slot
        let phase = self[slot].phase
        // Which calls apply is the rule every feature shares; what each does to a ticker's data is here.
        guard Lifetime.transition(command, from: phase.state) != nil else {
            if command == .restart, phase == .finished { return .warnRestartedFinished(self[slot].site) }
            return .none
        }
        if command == .start || command == .restart || command == .resume, let wall = self[slot].handler?.wallTicker {
            // Parked (running, waiting for no deadline) until the wall ticker retargets it.
            if command != .resume { updateCounts(slot) { $0.nextIndex = 1 } }
            self[slot].phase = .running(origin: .max)
            reschedule(slot)
            return .recomputeWall(wall, id, command == .resume ? .resumed : .started)
        }
        switch (command, phase) {
        case (.start, _), (.restart, _):
            // Deadline 1 is one first delay from now; pending `fire()` requests stay.
            self[slot].phase = .running(origin: now)
            updateCounts(slot) { $0.nextIndex = 1 }
        case (.pause, _):
            let deadline = scheduledDeadline(ofSlot: slot) ?? now
            self[slot].phase = .paused(remaining: max(0, deadline.subtractingSaturating(now)))
        case (.resume, .paused(let remaining)):
            let next = now.addingSaturating(remaining)
            self[slot].phase = .running(
                origin: next.subtractingSaturating(times(ofSlot: slot).offset(ofDeadline: nextIndex(ofSlot: slot))))
        case (.cancel, _):
            return .release(stop(slot, as: .cancelled))
        case (.fire, _):
            if self[slot].hasManualFires {
                manualFires[slot]!.pending &+= 1
            } else {
                manualFires[slot] = ManualFires(pending: 1, requestedAt: now)
                self[slot].hasManualFires = true
            }
        case (.resume, _):
            return .none
        }
        reschedule(slot)
        return armingIfNeeded().map(Action.arm) ?? .none
    }

    /// The ticker's handle, with `binding`, went away: a final ticker's record is freed; a live one stops or
    /// keeps going as `Lifetime` rules. For a bound ticker the owner is loaded here (its weak reference reads
    /// nil while the owner is being deinitialised, when the owner held the handle): the loaded reference is
    /// returned, to be released after unlocking.
    ///
    /// `newerSibling` is the last bound ticker with a handle that the releasing thread created: when it is
    /// live, made at the same call site for the same owner, and not older than the released one, the
    /// released ticker was replaced (`self.countdown = Ticker.schedule(…)` a second time) and stops.
    mutating func handleReleased(
        _ id: TickerID, binding: Lifetime.Binding, newerSibling: TickerID? = nil
    ) -> HandleReleased {
        guard binding != .view, isCurrent(id) else { return HandleReleased() }
        let slot = id.slot
        let phase = modify(slot) { record in
            record.handleAlive = false
            return record.phase
        }
        guard phase.isLive else {
            free(slot)
            return HandleReleased()
        }
        let delivered = counts(ofSlot: slot).fireCount > 0
        var result = HandleReleased()
        if binding == .handle, case .running = phase, !delivered {
            // Maybe the "never fires" mistake (`Lifetime.neverFires`): the engine tells from the age.
            result.undelivered = (self[slot].site, times(ofSlot: slot), self[slot].createdAt)
        }
        result.owner = binding.isBound ? self[slot].owner : nil
        switch Lifetime.effect(of: Lifetime.release(of: binding, ownerReadsNil: result.owner == nil), in: phase.state) {
        case .none:
            if let newerSibling, let owner = result.owner, isReplaced(slot, owner: owner, by: newerSibling) {
                result.action = .release(stop(slot, as: .cancelled))
            }
        case .cancel:
            result.action = .release(stop(slot, as: .cancelled))
        case .cancelOwnerGone:
            let site = self[slot].site
            var released = stop(slot, as: .cancelled)
            released.ownerGone = site
            result.action = .release(released)
        }
        return result
    }

    /// Whether the running bound ticker in `slot`, whose owner `owner` lives and whose handle is being
    /// released, has been replaced by `sibling`: a live ticker from the same call site, bound to the same
    /// owner, created no earlier (see `Lifetime`'s replacement rule).
    private func isReplaced(_ slot: UInt32, owner: AnyObject, by sibling: TickerID) -> Bool {
        guard sibling.slot != slot, isCurrent(sibling) else { return false }
        let candidate = record(sibling.slot)
        let released = record(slot)
        return candidate.pointee.phase.isLive
            && Lifetime.isReplacement(
                sameSite: candidate.pointee.site === released.pointee.site
                    || candidate.pointee.site.origin == released.pointee.site.origin,
                createdAt: candidate.pointee.createdAt, owner: candidate.pointee.owner,
                releasedCreatedAt: released.pointee.createdAt, releasedOwner: owner)
    }

    /// A wall-clock ticker's next deadline, computed by its `WallTicker`: a running ticker (parked or not)
    /// waits for `deadline` from now on; `retract` takes back the delivery the engine counted at the last
    /// deadline, which the wall ticker did not make (not due yet by the wall clock, or skipped).
    mutating func retarget(_ id: TickerID, deadline: Int64, retract: Bool) -> Arming? {
        guard isCurrent(id) else { return nil }
        let slot = id.slot
        if retract { updateCounts(slot) { $0.fireCount = max(0, $0.fireCount - 1) } }
        guard case .running = self[slot].phase else { return nil }
        self[slot].phase = .running(origin: deadline)
        reschedule(slot)
        return armingIfNeeded()
    }

    /// The wall-clock tickers that are running, with their ids (for a recompute after a clock change).
    func runningWallTickers() -> [(WallTicker, TickerID)] {
        var found: [(WallTicker, TickerID)] = []
        for slot in 0..<UInt32(slotCount) where isOccupied(slot) {
            let record = self.record(slot)
            guard case .running = record.pointee.phase, let wall = record.pointee.handler?.wallTicker else { continue }
            found.append((wall, TickerID(slot: slot, serial: record.pointee.serial)))
        }
        return found
    }

    /// What releasing a handle leaves to do after unlocking.
    struct HandleReleased {
        var action = Action.none
        /// A bound ticker's owner, loaded under the lock: released after unlocking (this may be its last
        /// release, which runs its `deinit`).
        var owner: AnyObject?
        /// Set for a handle-owned ticker that was running and never delivered: its site, schedule and
        /// creation instant, for the "never fires" warning.
        var undelivered: (site: TickerSite, times: ScheduleTimes, createdAt: Int64)?
    }

    /// Stops every live ticker (when a virtual time base is torn down).
    mutating func cancelAll() -> [ReleasedResources] {
        var released: [ReleasedResources] = []
        var slot: UInt32 = 0
        // Stopping a ticker may free the last slot, which releases the table: re-read its end.
        while Int(slot) < slotCount {
            if isOccupied(slot), self[slot].phase.isLive { released.append(stop(slot, as: .cancelled)) }
            slot += 1
        }
        return released
    }

    /// Stops up to `limit` bound tickers (all when `limit` is nil) whose owner has gone away, continuing
    /// round-robin from where the last sweep stopped.
    ///
    /// A ticker notices a dead owner at its next deadline by itself. Swift offers no hook into another
    /// object's deinitialisation, so a discarded handle cannot tell the ticker earlier; this incremental
    /// sweep (two records per new ticker, and all of them when diagnostics list live tickers) stops such
    /// tickers between deadlines, so that long intervals do not hold handlers and engines for long.
    mutating func sweep(limit: Int?) -> Sweep {
        var sweep = Sweep()
        sweepDeadOwners(limit: limit, into: &sweep)
        return sweep
    }

    /// One slice of a listing of live tickers: from slot `next` on, at most `limit` slots, each first swept
    /// for a dead owner; the summaries of the live ones go to `summaries`. Returns the sweep and whether the
    /// listing is complete.
    mutating func listSlice<Summary>(
        from next: inout Int, limit: Int, into summaries: inout [Summary],
        _ summary: (borrowing TickerRecord, _ times: ScheduleTimes, _ counts: TickerCounts, _ nextDeadline: Int64?) ->
            Summary
    ) -> (sweep: Sweep, isDone: Bool) {
        var sweep = Sweep()
        let end = min(next + limit, slotCount)
        // Stopping a ticker may free the last slot, which empties the table: re-read its end.
        while next < min(end, slotCount) {
            let slot = UInt32(next)
            next += 1
            sweepSlot(slot, into: &sweep)
            guard isOccupied(slot), self[slot].phase.isLive else { continue }
            summaries.append(summary(self[slot], times(ofSlot: slot), counts(ofSlot: slot), nextDeadline(ofSlot: slot)))
        }
        return (sweep, next >= slotCount)
    }

    /// The alarm fired: it is no longer armed (a wake-up re-arms when it is done).
    mutating func alarmFired() {
        alarmState.armedAt = nil
    }

    /// The next step of a wake-up at `now`, which has served `served` deliveries so far. The first step
    /// (`served` is 0: every other step follows a delivery) also notes that the alarm fired.
    mutating func nextDue(now: Int64, served: Int, limit: Int) -> ServiceAction {
        if served == 0 { alarmFired() }
        guard let top = firstPending(), top.deadline <= now else { return .done(armingIfNeeded()) }
        if served >= limit { return .done(arm(at: now)) }
        guard self[top.slot].site.isBatched else { return .serve(serveTop(slot: top.slot, now: now)) }
        // Every due record is asked for at once, before the first is served: their cache misses overlap
        // instead of each one waiting for the previous ticker's reschedule (the records are cold after an
        // interval, and serving them one by one walks memory at one miss at a time). The count sizes the
        // batch, which then never grows unless a ticker is due again (a `fire()` request).
        let due = deadlines.forEachDue(now: now, limit: limit - served) { table.prefetch($0) }
        var batch = DueBatch(capacity: due)
        while served + batch.count < limit, let next = firstPending(), next.deadline <= now,
            self[next.slot].site.isBatched
        {
            batch.append(serveTop(slot: next.slot, now: now))
        }
        return .serveBatch(batch)
    }

    // MARK: Transitions

    /// Takes the due record at the top of the heap, advances its schedule and returns its delivery.
    private mutating func serveTop(slot: UInt32, now: Int64) -> Due {
        // Found once, used until the ticker stops or is rescheduled (no page is freed before that).
        let record = self.record(slot)
        let id = TickerID(slot: slot, serial: record.pointee.serial)
        // A bound ticker is delivered only with its owner loaded (and kept alive for the call): a dead
        // owner stops it instead. The loaded reference travels out in the delivery, never released here.
        var owner: AnyObject?
        switch Lifetime.load(record.pointee.site.binding, owner: record.pointee.owner) {
        case .deliver(let loaded):
            owner = loaded
        case .deliverWithoutOwner:
            break
        case .ownerGone:
            let site = record.pointee.site
            var released = stop(slot, as: .cancelled)
            released.ownerGone = site
            return .stop(released)
        }
        let tick: Tick
        var isFinal = false
        var counts = counts(of: record, slot: slot)
        let lastDelivered = counts.nextIndex - 1
        let schedule = record.pointee.site.times
        let oneShotUnfired = schedule.count == 1 && lastDelivered == 0
        let requested = record.pointee.hasManualFires ? manualFires[slot] : nil
        let manual = requested.map { $0.requestedAt <= now } ?? false
        if manual, !oneShotUnfired, let requested {
            takeManualFire(slot, all: false)
            counts.fireCount += 1
            tick = Tick(
                index: lastDelivered,
                deadline: TickInstant(nanoseconds: requested.requestedAt),
                timestamp: TickInstant(nanoseconds: now),
                skipped: 0,
                remaining: schedule.count.map { $0 - lastDelivered },
                fireCount: counts.fireCount,
                isManual: true
            )
        } else {
            // A scheduled deadline (or fire() on a one-shot that has not fired: it becomes the one tick, in
            // any live phase).
            let nextIndex = counts.nextIndex
            var origin: Int64 = now
            if case .running(let running) = record.pointee.phase { origin = running }
            let due = manual ? nextIndex : schedule.lastIndex(dueBy: now.subtractingSaturating(origin))
            let index = max(due, nextIndex)
            let skipped = index - nextIndex
            counts.nextIndex = index + 1
            counts.fireCount += 1
            counts.skippedTotal = counts.skippedTotal.addingSaturating(max(0, skipped))
            if manual { takeManualFire(slot, all: true) }
            isFinal = schedule.isFinal(index)
            let deadline: Int64 =
                if manual, let requested { requested.requestedAt } else {
                    origin.addingSaturating(schedule.offset(ofDeadline: index))
                }
            tick = Tick(
                index: index,
                deadline: TickInstant(nanoseconds: deadline),
                timestamp: TickInstant(nanoseconds: max(now, deadline)),
                skipped: skipped,
                remaining: schedule.count.map { $0 - index },
                fireCount: counts.fireCount,
                isManual: manual
            )
        }
        setCounts(counts, of: record, slot: slot)
        // A live record holds its handler (it is taken out only when the ticker stops). Copied: the call
        // runs after unlocking, when the ticker may have stopped and released its own reference.
        let handler = record.pointee.handler!
        var then: ReleasedResources?
        if isFinal {
            then = stop(slot, as: .finished)
        } else {
            // A wall-clock ticker waits, parked, for its `WallTicker` to decide this occurrence and the next.
            if !tick.isManual, case .wall = handler { record.pointee.phase = .running(origin: .max) }
            // The schedule and counters are at hand: not read from the record (or a side table) again.
            reschedule(slot, to: heapKey(of: record, slot: slot, times: schedule, nextIndex: counts.nextIndex))
        }
        return .deliver(Delivery(handler: handler, tick: tick, id: id, owner: owner, then: then))
    }

    /// Moves a live ticker to a final phase, taking out its handler and its heap entry; frees its slot if
    /// its handle is already gone.
    private mutating func stop(_ slot: UInt32, as final: TickerPhase) -> ReleasedResources {
        var released = ReleasedResources()
        // One access to the record (each goes through the table's pages).
        let (isBound, handleAlive, hadManualFires) = modify(slot) { record in
            record.phase = final
            // Moved out (`take()` would retain and release it once more).
            swap(&released.handler, &record.handler)
            defer { record.hasManualFires = false }
            return (record.site.binding.isBound, record.handleAlive, record.hasManualFires)
        }
        if hadManualFires { manualFires.removeValueGivingStorageBack(forKey: slot) }
        // Buried, not sifted out: cancel does no heap work (see `DeadlineHeap`).
        let position = heapPosition(of: slot)
        if position >= 0 { deadlines.bury(at: position, positions: &table) }
        liveCount -= 1
        if isBound { boundLiveCount -= 1 }
        if liveCount == 0 { released.keepAlive = keepAlive.take() }
        if !handleAlive { free(slot) }
        return released
    }

    /// Takes one pending `fire()` request of `slot` (or all of them) out of the side table.
    private mutating func takeManualFire(_ slot: UInt32, all: Bool) {
        guard self[slot].hasManualFires else { return }
        if !all, let fires = manualFires[slot], fires.pending > 1 {
            manualFires[slot]!.pending = fires.pending - 1
            return
        }
        manualFires.removeValueGivingStorageBack(forKey: slot)
        self[slot].hasManualFires = false
    }

    /// The site for a ticker made at `origin` with `times`: the shared one (made with `times` when it is
    /// new) when its numbers are `times`, else one of the ticker's own, with its numbers (so that serving a
    /// ticker reads its schedule from its site, never from a table keyed by slot).
    private mutating func site(for origin: TickerOrigin, times: ScheduleTimes) -> (TickerSite, isOwn: Bool) {
        let shared: TickerSite
        if let lastSite, lastSite.origin == origin {
            shared = lastSite
        } else if let known = sites[origin] {
            shared = known
        } else {
            shared = TickerSite(origin, times: times)
            if sites.count < Self.maximumSites { sites[origin] = shared }
        }
        lastSite = shared
        return shared.times == times ? (shared, false) : (TickerSite(origin, times: times), true)
    }

    // MARK: Records

    /// One past the highest slot that may hold a ticker (the range a scan covers).
    var slotCount: Int { table.slotEnd }

    /// The record in `slot`, read or modified in place (through the table's storage: a record is never
    /// copied whole, which would retain its handler and site and copy its weak owner).
    subscript(slot: UInt32) -> TickerRecord {
        @inline(__always) unsafeAddress { UnsafePointer(table.address(of: slot)) }
        @inline(__always) mutating unsafeMutableAddress { table.address(of: slot) }
    }

    /// The address of the record in `slot`, for a run of accesses to one record (each subscript access
    /// finds the record's page again). Valid until the slot's page is freed: not across `stop` or `free`.
    @inline(__always)
    func record(_ slot: UInt32) -> UnsafeMutablePointer<TickerRecord> { table.address(of: slot) }

    /// Runs `body` on the record in `slot`, in place, in one access.
    @inline(__always)
    mutating func modify<Result>(_ slot: UInt32, _ body: (inout TickerRecord) -> Result) -> Result {
        body(&self[slot])
    }

    /// Whether `slot` holds a ticker (false for a slot of a page given back).
    func isOccupied(_ slot: UInt32) -> Bool { table.isOccupied(slot) }

    /// The heap key of the record in `slot`, from its fields read one by one in place.
    // Inlined: a call passed the whole machine (192 bytes) by copy.
    @inline(__always)
    func heapKey(ofSlot slot: UInt32) -> (deadline: Int64, latest: Int64)? {
        let record = self.record(slot)
        return heapKey(of: record, slot: slot, times: record.pointee.site.times, nextIndex: nextIndex(ofSlot: slot))
    }

    /// The heap key of `record` (in `slot`), whose schedule numbers and next index the caller has at hand.
    @inline(__always)
    func heapKey(of record: UnsafeMutablePointer<TickerRecord>, slot: UInt32, times: ScheduleTimes, nextIndex: Int)
        -> (deadline: Int64, latest: Int64)?
    {
        let manual = record.pointee.hasManualFires ? manualFires[slot]?.requestedAt : nil
        return TickerRecord.heapKey(
            phase: record.pointee.phase, times: times, nextIndex: nextIndex, manualRequestedAt: manual)
    }

    /// The schedule numbers of the ticker in `slot` (its site's: a ticker whose numbers differ from its
    /// call site's first ticker's has a site of its own).
    // Inlined: a call passed the whole machine (192 bytes) by copy.
    @inline(__always)
    func times(ofSlot slot: UInt32) -> ScheduleTimes {
        self[slot].site.times
    }

    /// The counters of the ticker in `slot`: inline in its record, or in the side table once they outgrew it.
    // Inlined: a call passed the whole machine (192 bytes) by copy.
    @inline(__always)
    func counts(ofSlot slot: UInt32) -> TickerCounts {
        counts(of: record(slot), slot: slot)
    }

    @inline(__always)
    private func counts(of record: UnsafeMutablePointer<TickerRecord>, slot: UInt32) -> TickerCounts {
        record.pointee.hasWideCounts ? wideCounts[slot]! : record.pointee.inlineCounts
    }

    /// The next deadline the ticker in `slot` will serve (1-based).
    // Inlined: a call passed the whole machine (192 bytes) by copy.
    @inline(__always)
    func nextIndex(ofSlot slot: UInt32) -> Int {
        self[slot].hasWideCounts ? wideCounts[slot]!.nextIndex : self[slot].inlineNextIndex
    }

    /// Stores the counters of the ticker in `slot`: inline while they fit, else (from then on, until the
    /// slot is freed) in the side table. Internal so that tests can start a ticker near a field's limit.
    mutating func setCounts(_ counts: TickerCounts, ofSlot slot: UInt32) {
        setCounts(counts, of: record(slot), slot: slot)
    }

    @inline(__always)
    private mutating func setCounts(
        _ counts: TickerCounts, of record: UnsafeMutablePointer<TickerRecord>, slot: UInt32
    ) {
        if record.pointee.hasWideCounts {
            wideCounts[slot] = counts
        } else if !record.pointee.storeInline(counts) {
            wideCounts[slot] = counts
            record.pointee.hasWideCounts = true
        }
    }

    private mutating func updateCounts(_ slot: UInt32, _ body: (inout TickerCounts) -> Void) {
        var counts = counts(ofSlot: slot)
        body(&counts)
        setCounts(counts, ofSlot: slot)
    }

    /// The scheduled deadline the ticker in `slot` waits for, if it is running (`Int64.max`: never reached).
    func scheduledDeadline(ofSlot slot: UInt32) -> Int64? {
        guard case .running(let origin) = self[slot].phase else { return nil }
        return origin.addingSaturating(times(ofSlot: slot).offset(ofDeadline: nextIndex(ofSlot: slot)))
    }

    /// The next instant the ticker in `slot` waits for (see `Ticker.nextDeadline`): its heap key's deadline,
    /// or `Int64.max` (``TickInstant/distantFuture``) for a running ticker whose deadline saturated.
    func nextDeadline(ofSlot slot: UInt32) -> Int64? {
        heapKey(ofSlot: slot)?.deadline ?? scheduledDeadline(ofSlot: slot)
    }

    // Inlined: a call passed the whole machine (192 bytes) by copy.
    @inline(__always)
    func isCurrent(_ id: TickerID) -> Bool {
        table.isOccupied(id.slot) && table[id.slot].serial == id.serial
    }

    /// Stores a record in a free slot (internal so that storage tests can fill a machine directly).
    mutating func insert(_ record: consuming TickerRecord) -> TickerID {
        nextSerial &+= 1
        record.serial = nextSerial
        let slot = table.insert(record)
        return TickerID(slot: slot, serial: nextSerial)
    }

    /// Frees a slot whose ticker is final and whose handle is gone (the table may give its page back).
    private mutating func free(_ slot: UInt32) {
        // One access to the record for the side-table flag.
        let hadWideCounts = modify(slot) { record in
            defer { record.hasWideCounts = false }
            return record.hasWideCounts
        }
        if hadWideCounts { wideCounts.removeValueGivingStorageBack(forKey: slot) }
        table.free(slot)
        if table.occupiedCount == 0 {
            // Sites stay: they are few (one per call site, at most `maximumSites`).
            deadlines.removeAll()
            sweepCursor.reset()
        }
    }

    /// What the table holds (for tests and diagnostics): slots handed out in allocated pages, occupied
    /// slots, allocated pages, the heap's capacity, interned sites.
    var storage: (slots: Int, occupied: Int, pages: Int, heapCapacity: Int, sites: Int) {
        let usage = table.usage
        return (usage.slots, usage.occupied, usage.allocatedPages, deadlines.capacity, sites.count)
    }

    // MARK: Heap

    // Inlined: a call passed the whole machine (192 bytes) by copy.
    @inline(__always)
    func heapPosition(of slot: UInt32) -> Int { Int(table.position(of: slot)) }

    /// The pending deadlines in heap order (the first is the earliest), buried nodes included (their slot is
    /// `DeadlineHeap.tombstone`).
    var heap: [HeapNode] { deadlines.nodes }

    /// The earliest pending deadline's node, after dropping buried nodes from the top.
    mutating func firstPending() -> HeapNode? {
        deadlines.dropBuriedTop(positions: &table)
        return deadlines.nodes.first
    }

    /// Puts the record in the heap under its current key, moves it, or takes it out.
    mutating func reschedule(_ slot: UInt32) {
        reschedule(slot, to: heapKey(ofSlot: slot))
    }

    /// Puts the record in the heap under `key` (its current key), moves it, or takes it out (`nil`).
    private mutating func reschedule(_ slot: UInt32, to key: (deadline: Int64, latest: Int64)?) {
        let position = heapPosition(of: slot)
        guard let key else {
            if position >= 0 { deadlines.remove(at: position, positions: &table) }
            return
        }
        sequence &+= 1
        let node = HeapNode(deadline: key.deadline, sequence: sequence, slot: slot)
        if position >= 0 {
            deadlines.replace(at: position, with: node, positions: &table)
        } else {
            deadlines.insert(node, positions: &table)
        }
        noteKey(key)
    }

    mutating func removeFromHeap(at position: Int) {
        deadlines.remove(at: position, positions: &table)
    }

    // MARK: Reading

    /// The time left to the ticker's next scheduled deadline (see `Ticker.timeRemaining`), or nil once it
    /// is final or its record is gone.
    func timeRemaining(_ id: TickerID, now: Int64) -> Int64? {
        guard isCurrent(id) else { return nil }
        if self[id.slot].handler?.wallTicker != nil {
            // Known only while running: idle or paused, the next occurrence is computed at start or resume.
            guard case .running = self[id.slot].phase, let deadline = scheduledDeadline(ofSlot: id.slot),
                deadline < .max
            else { return nil }
            return max(0, deadline.subtractingSaturating(now))
        }
        // Field by field: a copy of the record would retain its handler and site.
        switch self[id.slot].phase {
        case .idle: return times(ofSlot: id.slot).offset(ofDeadline: nextIndex(ofSlot: id.slot))
        case .paused(let remaining): return remaining
        case .running: return max(0, (scheduledDeadline(ofSlot: id.slot) ?? now).subtractingSaturating(now))
        case .finished, .cancelled: return nil
        }
    }

    // MARK: Checking

    /// The reserved capacity of every collection the machine holds, its table's included, by name (for
    /// tests: an engine emptied after a burst must not keep the burst's room). A collection added to the
    /// machine is listed here.
    var collectionCapacities: [(path: String, capacity: Int)] {
        table.collectionCapacities.map { ("table.\($0.path)", $0.capacity) } + [
            ("deadlines", deadlines.capacity), ("manualFires", manualFires.capacity),
            ("wideCounts", wideCounts.capacity), ("sites", sites.capacity),
        ]
    }

    /// Checks the invariants of the table, of the heap, and of the two together; returns the first one
    /// broken, or nil (for tests).
    func invariantViolation() -> String? {
        if let broken = table.invariantViolation() { return broken }
        if let broken = deadlines.invariantViolation() { return broken }
        var placed = 0
        var live = 0
        for slot in 0..<UInt32(table.slotEnd) where table.hasRecord(slot) {
            if table.isOccupied(slot), self[slot].phase.isLive {
                live += 1
                if self[slot].handler == nil { return "live slot \(slot) has no handler" }
            }
            let position = table.position(of: slot)
            guard position >= 0 else { continue }
            placed += 1
            guard Int(position) < heap.count, heap[Int(position)].slot == slot else {
                return "slot \(slot) records heap position \(position), which holds another slot"
            }
            guard table.isOccupied(slot) else { return "free slot \(slot) is in the heap" }
        }
        if placed != heap.count - deadlines.buried {
            return "\(placed) slots are in the heap, which holds \(heap.count - deadlines.buried) live nodes"
        }
        if live != liveCount { return "\(live) live tickers, counted \(liveCount)" }
        for slot in wideCounts.keys where !table.isOccupied(slot) || !self[slot].hasWideCounts {
            return "slot \(slot) has wide counters but no ticker flagged for them"
        }
        var wide = 0
        for slot in 0..<UInt32(table.slotEnd) where table.isOccupied(slot) && self[slot].hasWideCounts { wide += 1 }
        if wide != wideCounts.count { return "\(wide) tickers flagged for wide counters, \(wideCounts.count) kept" }
        for (slot, fires) in manualFires {
            guard table.isOccupied(slot), self[slot].hasManualFires, self[slot].phase.isLive, fires.pending > 0 else {
                return "slot \(slot) has fire() requests but no live ticker flagged for them"
            }
        }
        return nil
    }
}

extension TickerStateMachine: OwnerSweeping {
    /// The table's end while a bound ticker is live; 0 (nothing to sweep) otherwise.
    var sweepEnd: Int { boundLiveCount > 0 ? table.slotEnd : 0 }

    func ownerVerdict(at slot: UInt32) -> Lifetime.SweepVerdict { table.ownerVerdict(at: slot) }

    /// Stops the live bound ticker in `slot`, whose owner has gone away.
    mutating func stopOwnerGone(at slot: UInt32) -> ReleasedResources {
        let site = self[slot].site
        var released = stop(slot, as: .cancelled)
        released.ownerGone = site
        return released
    }
}

extension Dictionary {
    /// Removes `key`'s value, and gives storage back once the table is mostly empty: a dictionary keeps its
    /// capacity as entries go, so a side table that once held a burst's tickers would keep their room while
    /// one ticker stays. It is rebuilt at its live size when under an eighth full (each rebuild follows at
    /// least as many removals as it copies entries, so removal stays O(1) amortised), and freed when empty.
    mutating func removeValueGivingStorageBack(forKey key: Key) {
        removeValue(forKey: key)
        if isEmpty {
            if capacity > 0 { self = [:] }
        } else if capacity > 64, count < capacity / 8 {
            var smaller = Self(minimumCapacity: count)
            for (key, value) in self { smaller[key] = value }
            self = smaller
        }
    }
}
