/// The engine of one context on one time base: it holds a ``TickerStateMachine`` under one lock, carries
/// out the actions the machine returns, and drives the context's single alarm.
///
/// Each operation locks, calls one event of the machine and unlocks; then it does what the machine asked —
/// arm the alarm, call a handler, release a closure, an owner or the engine itself, log. No user code,
/// closure release, continuation or driver call runs under the lock.
final class TickerEngine: Sendable {
    let context: TickerContext
    /// Where "now" comes from: the time base's source read on the engine's clock. The engine holds the
    /// source, not its `TimeBase`: the time base's registry holds run-loop engines strongly, and the reverse
    /// reference would make a cycle.
    let clock: EngineClock
    private let machine = Locked<TickerStateMachine>.make(TickerStateMachine())
    /// Whether a wake-up has added this engine to its run loop thread's list (see `RunLoopThreadEnd`).
    /// Only set, and only read past false, by `serviceDueTickers` of a run-loop engine on system time,
    /// which its loop's timers call on that loop's one thread only; other engines only read it, as false.
    nonisolated(unsafe) private var watchesItsLoopThread = false

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
            _ = withMachine { $0.alarmMade(alarm, by: 0) }
        }
    }

    /// Runs one locked transition of the machine: every access to the machine goes through here (a debug
    /// build counts them, for tests). Built with `TIMERKIT_CHECKED`, the invariants of the
    /// machine's table and heap are checked before unlocking (at the cadence `CheckedCadence` sets: every
    /// 8th transition, less often for a large machine), and a broken one stops the program, naming it.
    @inline(__always)
    private func withMachine<Result: ~Copyable>(_ body: (inout TickerStateMachine) -> Result) -> Result {
        machine.withLock { machine in
            #if DEBUG
                machine.lockAcquisitions &+= 1
            #endif
            let result = body(&machine)
            #if TIMERKIT_CHECKED
                if machine.checkedCadence.isDue(slots: machine.slotCount), let broken = machine.invariantViolation() {
                    preconditionFailure("TimerKit checked build: engine invariant broken: \(broken)")
                }
            #endif
            return result
        }
    }

    deinit {
        // The engine's last reference is gone, so no arming is under way: the alarm is made or not.
        if case .made(let alarm) = withMachine({ $0.alarmState.alarm }) { alarm.shutDown() }
    }

    #if DEBUG
        /// How many times the engine has taken its lock so far, this reading included (debug builds only).
        var lockAcquisitions: Int { withMachine { $0.lockAcquisitions } }
    #endif

    // MARK: Events

    func add(
        schedule: TickSchedule, origin: TickerOrigin, owner: AnyObject?, startsImmediately: Bool,
        handler: TickHandler, now: Int64, originOffset: Int64 = 0
    ) -> TickerID {
        // A schedule at a date becomes a delay from the wall clock's reading now.
        let times = schedule.date == nil ? schedule.times : schedule.times(createdAt: clock.source.date())
        let (id, arming, swept) = withMachine { machine in
            machine.add(
                times: times, origin: origin, owner: owner, startsImmediately: startsImmediately, handler: handler,
                finishedAtOnce: schedule.count == 0, now: now, originOffset: originOffset, keepAlive: self)
        }
        applyArming(arming)
        if !swept.isEmpty { carryOut(swept) }
        return id
    }

    /// Applies a lifecycle call. Calls that do not apply to the current state do nothing.
    func perform(_ command: TickerStateMachine.Command, on id: TickerID) {
        // Only these read the clock; cancel is the hot path and needs no instant.
        let now = command == .cancel ? 0 : clock.now()
        carryOut(withMachine { $0.handle(command, on: id, now: now) })
    }

    /// Cancels a handle-owned ticker that no ``Ticker`` handle represents (made with `Ticker.add`) and frees
    /// its record, in one lock: what `cancel()` and then releasing the handle do in two. Once per such
    /// ticker; it may have stopped already (finished, or cancelled from its handler).
    func cancelAndRelease(_ id: TickerID) {
        let (cancelled, released) = withMachine { machine in
            // The cancel leaves the ticker stopped, so the release only frees its record.
            (machine.handle(.cancel, on: id, now: 0), machine.handleReleased(id, binding: .handle))
        }
        carryOut(cancelled)
        carryOut(released.action)
    }

    /// The ticker's handle, with `binding`, went away (see `TickerStateMachine.handleReleased`). Releasing a
    /// handle-owned ticker that was running and never delivered, within `Lifetime.neverFiresWindow` of its
    /// creation, logs the "never fires" warning when `TickerDiagnostics.warnsAboutMistakes` is on.
    ///
    /// A bound handle released on the thread that has just made a sibling of its ticker (same call site,
    /// same owner) stops its ticker: it was replaced (see `Lifetime`).
    func handleReleased(_ id: TickerID, binding: Lifetime.Binding) {
        var sibling: TickerID?
        if binding.isBound, let last = Lifetime.LastBoundCreation.latest(in: self) {
            sibling = TickerID(
                slot: UInt32(truncatingIfNeeded: last.slot), serial: UInt32(truncatingIfNeeded: last.serial))
        }
        let released = withMachine { $0.handleReleased(id, binding: binding, newerSibling: sibling) }
        if let undelivered = released.undelivered,
            Lifetime.neverFires(
                binding: .handle, state: .running, deliveries: 0,
                age: clock.now().subtractingSaturating(undelivered.createdAt)),
            TickerDiagnostics.warnsAboutMistakes
        {
            let schedule = TickSchedule(undelivered.times, clock: clock.tickClock)
            Diagnostics.warn(
                Lifetime.neverFiresWarning(
                    "ticker (\(schedule))", site: "\(undelivered.site.fileID):\(undelivered.site.line)",
                    handleType: "Ticker"))
        }
        carryOut(released.action)
        // A bound ticker's owner (`released.owner`) is released here, after unlocking.
    }

    /// Retargets a wall-clock ticker (see `TickerStateMachine.retarget`); the arming it returns is applied
    /// by the caller, with ``apply(_:)``, once it has released its own lock.
    func retarget(_ id: TickerID, deadline: Int64, retract: Bool) -> Arming? {
        withMachine { $0.retarget(id, deadline: deadline, retract: retract) }
    }

    /// Applies an arming returned by ``retarget(_:deadline:retract:)``.
    func apply(_ arming: Arming?) { applyArming(arming) }

    /// The running wall-clock tickers, each with its id (retained: their recompute runs after unlocking).
    func runningWallTickers() -> [(WallTicker, TickerID)] {
        withMachine { $0.runningWallTickers() }
    }

    /// Cancels every live ticker (when a virtual time base is torn down).
    func cancelAll() {
        withMachine { $0.cancelAll() }.forEach { carryOut($0) }
    }

    // MARK: Carrying out actions (after unlocking)

    private func carryOut(_ action: consuming TickerStateMachine.Action) {
        switch consume action {
        case .none:
            break
        case .arm(let arming):
            applyArming(arming)
        case .release(let released):
            carryOut(released)
        case .recomputeWall(let wall, let id, let reason):
            wall.recompute(reason, engine: self, id: id)
        case .warnRestartedFinished(let site):
            Diagnostics.warn(
                "restart() on the finished ticker created at \(site.fileID):\(site.line) does nothing: a "
                    + "finished ticker has released its handler. Schedule a new ticker instead, or restart it "
                    + "before its last tick.")
        }
    }

    /// Drops what a stopped ticker held: its handler (whose captures may run user deinitialisers) and, for
    /// the last live ticker, the engine's self-reference (which may shut the alarm down); logs a dead owner.
    private func carryOut(_ released: consuming TickerStateMachine.ReleasedResources) {
        if let site = released.ownerGone {
            Diagnostics.ownerWentAway(origin: site, context: context)
        }
        // `released` is dropped here, outside the lock.
    }

    private func carryOut(_ sweep: consuming TickerStateMachine.Sweep) {
        sweep.stopped.forEach { carryOut($0) }
        // The owners found alive (in `sweep.alive`) are released here, outside the lock.
    }

    // MARK: Arming

    /// Arms the alarm outside the lock. Armings issued on several threads may land in any order; the alarm
    /// ignores one older than the newest it has taken (see ``EngineAlarm``), so one call per arming suffices.
    ///
    /// The first arming makes the alarm (outside the lock, like every driver call) and publishes it; an
    /// arming issued while it is being made is left to the thread making it, which applies the newest of
    /// those once the alarm is published (later armings find it published and apply themselves).
    private func applyArming(_ arming: Arming?) {
        guard let arming else { return }
        switch arming.alarm {
        case .made(let alarm):
            alarm.arm(at: arming.deadline, sequence: arming.sequence)
        case .beingMade:
            return
        case .make:
            let alarm = makeAlarm()
            alarm.arm(at: arming.deadline, sequence: arming.sequence)
            if let newest = withMachine({ $0.alarmMade(alarm, by: arming.sequence) }) {
                alarm.arm(at: newest.deadline, sequence: newest.sequence)
            }
        }
    }

    /// The context's system alarm, calling back into this engine without keeping it alive. (A virtual
    /// engine made its alarm when it was created, so it never gets here.)
    private func makeAlarm() -> any EngineAlarm {
        guard case .system = clock.source else { return SilentAlarm() }
        return TimeBase.system.makeAlarm(for: context, clock: clock.kind) { [weak self] in
            self?.serviceDueTickers()
        }
    }

    /// Whether the engine has made its alarm (for tests: an engine makes it on its first arming).
    var hasAlarm: Bool {
        withMachine { machine in
            if case .made = machine.alarmState.alarm { return true }
            return false
        }
    }

    // MARK: Serving deadlines (on the context)

    /// Called by the alarm on the context: delivers every due tick, one at a time, then re-arms.
    func serviceDueTickers() {
        // On system time a run-loop engine is served by its loop's timers, on the loop's thread: the
        // loop's tickers are then cancelled when that thread ends (see `RunLoopThreadEnd`).
        // Once per engine: the thread never changes, and its list keeps the engine until the thread ends.
        if !watchesItsLoopThread, case .runLoop(let loop, _) = context.storage, !loop.isMain,
            case .system = clock.source
        {
            RunLoopThreadEnd.watchOnItsThread(self)
            watchesItsLoopThread = true
        }
        // A continuous-clock engine wakes at least once a second: where a set of the wall clock is noticed.
        if clock.kind == .continuous, case .system = clock.source { WallClockWatch.check() }
        var served = 0
        while true {
            let action = withMachine { machine in
                machine.nextDue(now: clock.now(), served: served, limit: Self.deliveriesPerWake)
            }
            switch consume action {
            case .done(let arming):
                applyArming(arming)
                return
            case .serve(let due):
                served += 1
                serve(due)
            case .serveBatch(let batch):
                served += batch.count
                batch.serveAll(serve)
            }
        }
    }

    /// Carries out a delivery (or a stop) decided under the lock.
    private func serve(_ due: consuming TickerStateMachine.Due) {
        switch consume due {
        case .deliver(let delivery):
            delivery.handler(delivery.tick, owner: delivery.owner, engine: self, id: delivery.id)
            if let released = delivery.then { carryOut(released) }
        case .stop(let released):
            carryOut(released)
        }
    }

    // MARK: Reading

    func snapshot(_ id: TickerID) -> TickerSnapshot? {
        let found = withMachine { machine -> RecordSummary? in
            guard machine.isCurrent(id) else { return nil }
            return RecordSummary(
                machine[id.slot], times: machine.times(ofSlot: id.slot), counts: machine.counts(ofSlot: id.slot),
                nextDeadline: machine.nextDeadline(ofSlot: id.slot))
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
            let sweep = withMachine { machine in
                let (sweep, done) = machine.listSlice(from: &next, limit: Self.listingSlice, into: &slice) {
                    RecordSummary($0, times: $1, counts: $2, nextDeadline: $3)
                }
                isDone = done
                return sweep
            }
            summaries.append(contentsOf: slice)
            carryOut(sweep)
        }
        let description = context.description
        return summaries.map { $0.snapshot(context: description, clock: clock.tickClock) }
    }

    /// The state of the ticker `id` (`nil` once its record is gone), without building a snapshot.
    func tickerState(_ id: TickerID) -> TickerState? {
        withMachine { machine in machine.isCurrent(id) ? machine[id.slot].phase.state : nil }
    }

    /// The time left to the ticker's next scheduled deadline (`nil` once it is finished or cancelled, or its
    /// record is gone): from now while running (zero when the deadline has passed and its delivery is on
    /// its way), the time kept at the pause while paused, the first delay while idle.
    func timeRemaining(_ id: TickerID) -> Duration? {
        let now = clock.now()
        return withMachine { $0.timeRemaining(id, now: now) }.map { .nanoseconds($0) }
    }

    /// How many times the ticker `id` has fired (`nil` once its record is gone).
    func fireCount(_ id: TickerID) -> Int? {
        withMachine { machine in machine.isCurrent(id) ? machine.counts(ofSlot: id.slot).fireCount : nil }
    }

    /// What a snapshot needs from a record, copied under the lock (a few references and numbers); the
    /// snapshot's strings are made after unlocking.
    private struct RecordSummary {
        let state: TickerState
        let site: TickerSite
        let times: ScheduleTimes
        let fireCount: Int
        let skippedTotal: Int
        let nextDeadline: Int64?
        let createdAt: Int64
        /// A wall-clock ticker's rule (its schedule's description).
        let wall: WallSchedule?

        init(_ record: borrowing TickerRecord, times: ScheduleTimes, counts: TickerCounts, nextDeadline: Int64?) {
            state = record.phase.state
            site = record.site
            self.times = times
            fireCount = counts.fireCount
            skippedTotal = counts.skippedTotal
            self.nextDeadline = nextDeadline
            createdAt = record.createdAt
            wall = record.handler?.wallTicker?.schedule
        }

        func snapshot(context: String, clock: TickClock) -> TickerSnapshot {
            TickerSnapshot(
                state: state,
                fileID: site.fileID,
                line: site.line,
                ownerType: site.ownerTypeName,
                binding: site.binding.name,
                context: context,
                schedule: TickSchedule(times, clock: clock, wall: wall),
                fireCount: fireCount,
                skippedCount: skippedTotal,
                nextDeadline: nextDeadline.map { TickInstant(nanoseconds: $0) },
                createdAt: TickInstant(nanoseconds: createdAt)
            )
        }
    }

    func liveCount() -> Int { withMachine { $0.liveCount } }

    /// The first broken invariant of the engine's table and heap, or nil (for tests).
    func storageInvariantViolation() -> String? {
        withMachine { $0.invariantViolation() }
    }

    /// What the engine's table holds (for tests).
    func storage() -> (slots: Int, occupied: Int, pages: Int, heapCapacity: Int, sites: Int) {
        withMachine { $0.storage }
    }

    /// The reserved capacity of every collection the engine's machine holds, by name (for tests).
    func collectionCapacities() -> [(path: String, capacity: Int)] {
        withMachine { $0.collectionCapacities }
    }

    /// Nodes in the engine's deadline heap, buried ones included (for tests).
    func heapNodeCount() -> Int {
        withMachine { $0.heap.count }
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
private final class SilentAlarm: EngineAlarm {
    func arm(at deadline: Int64, sequence: UInt64) {}
    func shutDown() {}
}
