internal import CTimerKit
import Dispatch
import Foundation

/// Virtual time: a monotonic reading that only moves when a test advances it, and alarms that fire
/// synchronously, in deadline order, while the advancing call waits.
///
/// Every context's engine arms a virtual alarm instead of its real driver, so code written against the
/// normal API runs unchanged. Each alarm is delivered where its context delivers in production: a
/// dispatch context's on its queue (the advancing thread waits with `sync`), the main run loop's on the
/// main actor (the main queue), and only while the virtual main run loop runs in one of the context's modes; other run
/// loops' and precise contexts' alarms run on the advancing thread. Advance from one thread at a time.
/// Ties between alarms due at the same instant are broken by the order in which the contexts were first
/// used.
final class VirtualClock: AlarmHost {
    /// Where a virtual alarm's wake-up runs.
    enum Delivery: Sendable {
        /// On the advancing thread (precise contexts, run loops of other threads).
        case inline
        /// On the queue, while the advancing thread waits.
        case queue(DispatchQueue)
        /// On the main actor (the main queue), while the main run loop runs in one of `modes`.
        case mainRunLoop(modes: [RunLoop.Mode])
    }

    private struct Alarm {
        /// The armed deadline, from the newest arming taken.
        var armed = EngineArming()
        let wake: @Sendable () -> Void
        let delivery: Delivery
    }

    private struct State {
        var now: Int64 = 0
        /// The virtual wall clock, as its distance from `now`: wall-clock nanoseconds since 1970 are
        /// `now + wallOffset`. At first the virtual reading counts seconds since 1 January 2001 (UTC).
        var wallOffset = VirtualClock.referenceDateOffset
        /// The virtual current time zone (UTC until a test sets it).
        var timeZone = TimeZone(identifier: "UTC")!
        var nextAlarmID = 0
        /// Every alarm by id (its order: ids grow as contexts are first used); `deadline` set while armed.
        var alarms: [Int: Alarm] = [:]
        var mainRunLoopMode = RunLoop.Mode.default
        /// Bumped by every arming, so that a waiter can tell an arming happened after it looked.
        var armings: UInt64 = 0
        var armingWaiters: [OnceContinuation] = []
        /// Consumers resumed by a wake-up that have not yet waited again or ended, by id.
        var runningConsumers: Set<Int> = []
        /// The running consumers an advance stopped waiting for after its grace period (a subset of
        /// `runningConsumers`): no advance waits for them again until they wait again or end.
        var givenUpConsumers: Set<Int> = []
        var nextConsumerID = 0
        var settleWaiters: [OnceContinuation] = []
        /// Tasks not isolated to an actor that left a tick sequence, by task: the virtual instant they left
        /// at and the sequence's site. Looked up when the task waits on virtual time again (at most
        /// `maximumLeftSequences`; the oldest are dropped first).
        var leftSequences: [Int: (at: Int64, site: String)] = [:]

        /// Whether an advance still has a resumed consumer to wait for.
        var awaitsConsumers: Bool { runningConsumers.count > givenUpConsumers.count }

        func canRun(_ alarm: Alarm) -> Bool {
            guard case .mainRunLoop(let modes) = alarm.delivery else { return true }
            return modes.contains(mainRunLoopMode)
                || (modes.contains(.common) && VirtualClock.commonModes.contains(mainRunLoopMode))
        }

        /// The earliest alarm that can run, by (deadline, order). An alarm armed for the end of the timeline
        /// (`Int64.max`, a saturated deadline) is never due, so advancing to the end of time returns.
        func next(dueBy target: Int64) -> (id: Int, deadline: Int64)? {
            var best: (id: Int, deadline: Int64)?
            for (id, alarm) in alarms {
                guard let deadline = alarm.armed.deadline, deadline <= target, deadline < .max, canRun(alarm) else {
                    continue
                }
                if let current = best, (current.deadline, current.id) < (deadline, id) { continue }
                best = (id, deadline)
            }
            return best
        }
    }

    /// The modes `RunLoop.Mode.common` stands for on Apple platforms: default, tracking (a scroll view
    /// following a finger), event tracking and modal panels.
    static let commonModes: Set<RunLoop.Mode> = [
        .default, RunLoop.Mode("UITrackingRunLoopMode"), RunLoop.Mode("NSEventTrackingRunLoopMode"),
        RunLoop.Mode("NSModalPanelRunLoopMode"),
    ]

    private let state = Locked<State>.make(State())

    /// How long (real time) a delivery waits for its queue or the main actor before the advance logs what
    /// it waits for (see `DeliveryWatch`).
    let deliveryNotice: Duration

    init(start: Int64 = 1_000_000_000, deliveryNotice: Duration = .seconds(10)) {
        self.deliveryNotice = deliveryNotice
        state.withLock { $0.now = start }
    }

    func now() -> Int64 { state.withLock { $0.now } }

    /// Nanoseconds from 1970 to 1 January 2001 (UTC), `Date`'s reference date.
    static let referenceDateOffset: Int64 = 978_307_200_000_000_000

    /// The virtual wall clock: nanoseconds since 1970 (UTC).
    func wallNanoseconds() -> Int64 { state.withLock { $0.now.addingSaturating($0.wallOffset) } }

    /// The virtual wall clock as a `Date`, exact while the wall clock is where it started (seconds since
    /// the reference date are then the virtual reading).
    func date() -> Date {
        let sinceReference = state.withLock { $0.now.addingSaturating($0.wallOffset - Self.referenceDateOffset) }
        return Date(timeIntervalSinceReferenceDate: Double(sinceReference) / 1e9)
    }

    /// Sets the virtual wall clock to read `nanoseconds` (since 1970) now; the monotonic reading does not
    /// move. Returns the change, in nanoseconds.
    func setWallClock(toNanoseconds nanoseconds: Int64) -> Int64 {
        state.withLock { state in
            let offset = nanoseconds.subtractingSaturating(state.now)
            defer { state.wallOffset = offset }
            return offset.subtractingSaturating(state.wallOffset)
        }
    }

    /// The virtual current time zone.
    var timeZone: TimeZone {
        get { state.withLock { $0.timeZone } }
        set { state.withLock { $0.timeZone = newValue } }
    }

    /// Moves the reading to `target` without firing the alarms due on the way (a suspended process, a
    /// sleeping device): they are due when the next advance runs.
    func jump(to target: Int64) {
        state.withLock { $0.now = max($0.now, target) }
    }

    func makeAlarm(delivery: Delivery = .inline, wake: @escaping @Sendable () -> Void) -> any EngineAlarm {
        if case .queue(let queue) = delivery { Self.mark(queue) }
        let id = state.withLock { state in
            state.nextAlarmID += 1
            state.alarms[state.nextAlarmID] = Alarm(wake: wake, delivery: delivery)
            return state.nextAlarmID
        }
        return HostedAlarm(self, id: id)
    }

    func arm(_ id: Int, at deadline: Int64, sequence: UInt64) {
        let waiters = state.withLock { state -> [OnceContinuation] in
            guard state.alarms[id]?.armed.take(deadline, sequence: sequence) == true else { return [] }
            state.armings &+= 1
            defer { state.armingWaiters = [] }
            return state.armingWaiters
        }
        waiters.forEach { $0.resume() }
    }

    func remove(_ id: Int) {
        let removed = state.withLock { $0.alarms.removeValue(forKey: id) }
        _ = removed  // its wake closure is released here, outside the lock
    }

    /// The earliest armed deadline that can run now (a main-run-loop alarm whose modes exclude the
    /// current mode waits), if any.
    func nextDeadline() -> Int64? {
        state.withLock { $0.next(dueBy: .max)?.deadline }
    }

    /// The mode the virtual main run loop runs in (`.default` unless a test says otherwise).
    var mainRunLoopMode: RunLoop.Mode {
        get { state.withLock { $0.mainRunLoopMode } }
        set { state.withLock { $0.mainRunLoopMode = newValue } }
    }

    /// Moves time forward by `duration`, firing every alarm that falls due on the way, in order; each
    /// alarm runs at its own deadline (time jumps there first). Returns the number of alarms fired.
    @discardableResult
    func advance(by duration: Duration) -> Int {
        let target = state.withLock { $0.now }.addingSaturating(max(0, duration.saturatingNanoseconds))
        return run(until: target)
    }

    /// Fires every alarm due by `target` in deadline order, then sets the time to `target`.
    @discardableResult
    func run(until target: Int64) -> Int {
        let watch = DeliveryWatch(notice: deliveryNotice)
        defer { watch.finish() }
        var fired = 0
        var firedAtThisInstant = 0
        var lastInstant = Int64.min
        while true {
            let due = state.withLock { state -> (wake: @Sendable () -> Void, delivery: Delivery, at: Int64)? in
                guard let next = state.next(dueBy: target), let alarm = state.alarms[next.id] else {
                    state.now = max(state.now, target)
                    return nil
                }
                state.now = max(state.now, next.deadline)
                state.alarms[next.id]?.armed.deadline = nil
                return (alarm.wake, alarm.delivery, state.now)
            }
            guard let due else { return fired }
            if due.at == lastInstant {
                firedAtThisInstant += 1
                precondition(
                    firedAtThisInstant < 1_000_000,
                    "TimerKit virtual time: a million wake-ups at one instant; a handler keeps re-arming without letting time move"
                )
            } else {
                lastInstant = due.at
                firedAtThisInstant = 0
            }
            Self.deliver(due.wake, due.delivery, watch: watch)
            fired += 1
        }
    }

    /// Runs a wake-up where its context runs in production, waiting for it to finish.
    ///
    /// An advance made from inside a delivered handler (a handler that lets virtual time pass, as a slow
    /// one would) delivers inline, on the handler's thread: waiting there for another queue, or the main
    /// actor, could wait for ever on a delivery that waits for this handler's queue in turn (two tests on
    /// the main actor and a shared queue, say).
    private static func deliver(_ wake: @escaping @Sendable () -> Void, _ delivery: Delivery, watch: DeliveryWatch) {
        let wake: @Sendable () -> Void = {
            _ = ctimerkit_virtual_delivery_depth_add(1)
            defer { _ = ctimerkit_virtual_delivery_depth_add(-1) }
            wake()
        }
        if ctimerkit_virtual_delivery_depth_add(0) > 0 {
            wake()
            return
        }
        switch delivery {
        case .inline:
            wake()
        case .queue(let queue):
            // Already on the queue (advancing from one of its handlers): `sync` would deadlock.
            if let mark = DispatchQueue.getSpecific(key: queueKey), !mark.isMain, mark.queue === queue {
                wake()
            } else {
                run(
                    wake, on: queue, watch: watch, named: "the queue \"\(queue.label)\"",
                    fix: "do not block that queue while advancing, or advance from it")
            }
        case .mainRunLoop:
            // The main actor is the main thread outside dispatch blocks, or whichever thread drains the main
            // queue (after `dispatchMain()`, as Swift Testing's runner on Linux does).
            if Thread.isMainThread || isOnMainQueue() {
                wake()
            } else {
                run(
                    wake, on: .main, watch: watch, named: "the main actor",
                    fix: "advance from the main actor (a @MainActor test, or `await MainActor.run { … }`), or "
                        + "with the async advance, which does not block the caller")
            }
        }
    }

    /// Runs `wake` on `queue` with `sync` (the block runs on this thread, on the queue), so that queue
    /// preconditions hold, under `watch`.
    private static func run(
        _ wake: @escaping @Sendable () -> Void, on queue: DispatchQueue, watch: DeliveryWatch, named name: String,
        fix: @autoclosure @escaping @Sendable () -> String
    ) {
        watch.begin(name: name, fix: fix)
        queue.sync(execute: wake)
        watch.end()
    }

    /// Marks queues that virtual alarms deliver on, so that a delivery can tell it is already on one.
    private static let queueKey = DispatchSpecificKey<QueueMark>()

    /// Serialises marking, so that a queue gets its mark once.
    private static let marking = Locked<Void>.make(())

    /// Marks `queue` unless it already is. A queue is marked once for its life, never again for each new
    /// virtual time: replacing a mark releases the old one (libdispatch destroys it on another thread) while
    /// a thread running a block of that queue, or of a queue targeting it, may be reading it through
    /// `getSpecific`, which hands out the stored reference without retaining it first.
    private static func mark(_ queue: DispatchQueue) {
        marking.withLock { _ in
            if queue.getSpecific(key: queueKey) == nil { queue.setSpecific(key: queueKey, value: QueueMark(queue)) }
        }
    }

    // `DispatchQueue.main` may return a new wrapper on each call (Linux): the main queue's mark says so
    // instead of holding one.
    private static let mainQueueMarked: Void = DispatchQueue.main.setSpecific(key: queueKey, value: QueueMark(nil))

    private static func isOnMainQueue() -> Bool {
        _ = mainQueueMarked
        return DispatchQueue.getSpecific(key: queueKey)?.isMain == true
    }

    // MARK: Waiting for the code under test

    /// How many arming calls have happened (see `waitForArming(after:)`).
    var armings: UInt64 { state.withLock { $0.armings } }

    /// Suspends until an alarm is armed after `armings` reached `count` (at once if one already was), or
    /// until `grace` of real time passes (returns `false` then).
    func waitForArming(after count: UInt64, grace: Duration) async -> Bool {
        await OnceContinuation.wait(grace: grace) { waiter in
            state.withLock { state in
                guard state.armings == count else { return true }
                state.armingWaiters.append(waiter)
                return false
            }
        }
    }

    /// Records that a wake-up resumed a consumer (a task waiting on virtual time); the returned token
    /// ends that when it is released: when the consumer waits again, or its iterator goes away.
    func consumerResumed() -> RunningConsumer {
        let id = state.withLock { state in
            state.nextConsumerID += 1
            state.runningConsumers.insert(state.nextConsumerID)
            return state.nextConsumerID
        }
        return RunningConsumer(clock: self, id: id)
    }

    fileprivate func consumerSettled(_ id: Int) {
        let waiters = state.withLock { state -> [OnceContinuation] in
            state.runningConsumers.remove(id)
            state.givenUpConsumers.remove(id)
            guard !state.awaitsConsumers else { return [] }
            defer { state.settleWaiters = [] }
            return state.settleWaiters
        }
        waiters.forEach { $0.resume() }
    }

    /// How many tasks that left a sequence `leftSequences` keeps track of.
    static let maximumLeftSequences = 256

    /// Records that the current task, not isolated to an actor, left the tick sequence made at `site`
    /// while it counted as running (its iterator went, or the sequence ended).
    fileprivate func consumerLeftSequence(site: String) {
        guard let task = withUnsafeCurrentTask(body: { $0?.hashValue }) else { return }
        state.withLock { state in
            if state.leftSequences.count >= Self.maximumLeftSequences { state.leftSequences.removeAll() }
            state.leftSequences[task] = (state.now, site)
        }
    }

    /// Called as the current task starts a wait on this clock: if it left a tick sequence and virtual
    /// time moved on before this wait, an async advance did not wait for it (nothing can tell when a
    /// nonisolated task waits again), so the task may have missed deadlines: this logs a warning that
    /// names the fix.
    func consumerWaits(fileID: String, line: Int) {
        guard let task = withUnsafeCurrentTask(body: { $0?.hashValue }) else { return }
        let left = state.withLock { state -> (at: Int64, site: String, now: Int64)? in
            guard !state.leftSequences.isEmpty, let left = state.leftSequences.removeValue(forKey: task) else {
                return nil
            }
            return left.at < state.now ? (left.at, left.site, state.now) : nil
        }
        guard let left else { return }
        Diagnostics.warn(
            "a task left a tick sequence (created at \(left.site)) at virtual time \(Duration.nanoseconds(left.at)) "
                + "and waited on virtual time again, at \(fileID):\(line), only at "
                + "\(Duration.nanoseconds(left.now)): time moved on in between without waiting for it, so its "
                + "new waits may start late. An async advance cannot tell when a task that is not isolated to an "
                + "actor waits again. Iterate the sequences isolated to an actor (in an actor method, or on the "
                + "main actor): the advance then waits until the task suspends; or keep one sequence and change "
                + "what each tick does.")
    }

    /// Suspends until every resumed consumer has waited again or ended, or until `grace` of real time
    /// passes (returns `false` then: a consumer waits on something other than virtual time). Consumers
    /// still running then are given up on: no later call waits for them until they wait again or end, so
    /// that one stuck consumer costs an advance one grace period, not one per deadline.
    func waitForConsumers(grace: Duration) async -> Bool {
        let settled = await OnceContinuation.wait(grace: grace) { waiter in
            state.withLock { state in
                guard state.awaitsConsumers else { return true }
                state.settleWaiters.append(waiter)
                return false
            }
        }
        if !settled { state.withLock { $0.givenUpConsumers = $0.runningConsumers } }
        return settled
    }
}

/// Held by a consumer that a virtual wake-up resumed, until it waits on virtual time again or its
/// iterator goes away (see `VirtualClock.consumerResumed()`).
///
/// A consumer isolated to an actor (a tick sequence iterated in an actor method, or on the main actor)
/// names that actor with ``settles(after:)``. Released other than by a new wait — the loop left with
/// `break`, a `return` or a throw, or the sequence ended — the token then counts the consumer as running
/// until that actor has run it to its next suspension: it waits again on virtual time (a new sequence,
/// whose wait is registered before that suspension), awaits something else, or returns. So an async
/// advance lets a poller that leaves one sequence and starts another run into the new wait before time
/// moves on.
///
/// A consumer that is not isolated to an actor names its sequence's site with
/// ``settlesLeaving(fileID:line:)``: released other than by a new wait, the token settles at once and the clock
/// remembers that the task left a sequence, to warn if the task waits again only after time moved on.
final class RunningConsumer: Sendable {
    private enum Release {
        /// Settle at once (the consumer's new wait is registered).
        case atOnce
        /// Settle once this actor has run the consumer to its next suspension.
        case after(any Actor)
        /// Settle at once and remember that the task left the sequence made at this site.
        case leaving(fileID: String, line: Int)
    }

    private let clock: VirtualClock
    private let id: Int
    private let release = Locked<Release>.make(.atOnce)

    fileprivate init(clock: VirtualClock, id: Int) {
        self.clock = clock
        self.id = id
    }

    /// Settles, when released, at once (a new wait is registered: the consumer is suspended).
    func settlesAtOnce() {
        release.withLock { $0 = .atOnce }
    }

    /// Settles, when released, only once `actor` has run the consumer to its next suspension.
    func settles(after actor: any Actor) {
        release.withLock { $0 = .after(actor) }
    }

    /// Settles, when released, at once, and records that the current task left the sequence made at
    /// `fileID`:`line`.
    func settlesLeaving(fileID: String, line: Int) {
        release.withLock { $0 = .leaving(fileID: fileID, line: line) }
    }

    deinit {
        let (clock, id) = (clock, id)
        switch release.withLock({ $0 }) {
        case .atOnce:
            clock.consumerSettled(id)
        case .leaving(let fileID, let line):
            // The site is formatted only here, once per sequence left, not at every tick.
            clock.consumerLeftSequence(site: "\(fileID):\(line)")
            clock.consumerSettled(id)
        case .after(let actor):
            // Runs on the actor after the job that released this token, which is the consumer's.
            Task.detached {
                await Self.join(actor)
                clock.consumerSettled(id)
            }
        }
    }

    private static func join(_ actor: isolated any Actor) {}
}

/// A continuation resumed once: by an event, or by a real-time grace period that guards a test against
/// hanging for ever on a consumer that never comes back.
final class OnceContinuation: Sendable {
    private enum Phase {
        case idle
        case waiting(CheckedContinuation<Bool, Never>)
        case done(Bool)
    }

    private let phase = Locked<Phase>.make(.idle)

    /// Resumes with `true` (the event happened). Later calls do nothing.
    func resume() { finish(true) }

    private func finish(_ value: Bool) {
        let waiting = phase.withLock { phase -> CheckedContinuation<Bool, Never>? in
            switch phase {
            case .idle:
                phase = .done(value)
                return nil
            case .waiting(let continuation):
                phase = .done(value)
                return continuation
            case .done:
                return nil
            }
        }
        waiting?.resume(returning: value)
    }

    /// Runs `register` (which returns `true` if the event already happened, else keeps the waiter to
    /// resume later), then waits for the event or the grace period.
    static func wait(grace: Duration, register: (OnceContinuation) -> Bool) async -> Bool {
        let waiter = OnceContinuation()
        if register(waiter) { return true }
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let early = waiter.phase.withLock { phase -> Bool? in
                if case .done(let value) = phase { return value }
                phase = .waiting(continuation)
                return nil
            }
            if let early { return continuation.resume(returning: early) }
            // Holds the waiter weakly: an event that comes first frees it at once, and the grace period's
            // end then finds nothing to do.
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(grace.saturatingNanoseconds))) {
                [weak waiter] in waiter?.finish(false)
            }
        }
    }
}

/// Watches one advance's deliveries to queues: if one has waited for its queue for `notice` of real time
/// (10 s unless a test of TimerKit itself says otherwise), the queue is most likely blocked waiting for
/// this very advance, so it logs what it waits for and the fix. One timer per advance that delivers on a
/// queue (not per delivery), checking every `notice`.
final class DeliveryWatch: Sendable {
    private struct Waiting {
        let name: String
        let fix: @Sendable () -> String
        let since: UInt64
        var reported = false
    }

    private struct State {
        var waiting: Waiting?
        var timerArmed = false
        var finished = false
    }

    private let notice: Duration
    private let noticeNanoseconds: UInt64

    private let state = Locked<State>.make(State())

    init(notice: Duration) {
        self.notice = notice
        noticeNanoseconds = UInt64(max(1, notice.saturatingNanoseconds))
    }

    func begin(name: String, fix: @escaping @Sendable () -> String) {
        let arm = state.withLock { state -> Bool in
            state.waiting = Waiting(name: name, fix: fix, since: DispatchTime.now().uptimeNanoseconds)
            defer { state.timerArmed = true }
            return !state.timerArmed
        }
        if arm { schedule() }
    }

    func end() { state.withLock { $0.waiting = nil } }

    func finish() { state.withLock { $0.finished = true } }

    private func schedule() {
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: noticeNanoseconds))) {
            [self] in
            let report = state.withLock { state -> Waiting? in
                guard !state.finished else { return nil }
                guard var waiting = state.waiting, !waiting.reported,
                    DispatchTime.now().uptimeNanoseconds - waiting.since >= noticeNanoseconds
                else { return nil }
                waiting.reported = true
                state.waiting = waiting
                return waiting
            }
            if let report {
                Diagnostics.log(
                    "TimerKit virtual time: advancing waits for \(report.name) to run a handler that is due, and it "
                        + "has not run it in \(notice) of real time. If \(report.name) is waiting for this advance, it "
                        + "never will: \(report.fix()).")
            }
            if !state.withLock({ $0.finished }) { schedule() }
        }
    }
}

/// The queue a virtual alarm delivers on (`nil` for the main queue), stored as the queue's specific value.
private final class QueueMark: @unchecked Sendable {
    // Invariant: `queue` is assigned once in init and only compared by identity, never used to run anything.
    weak var queue: DispatchQueue?
    let isMain: Bool

    init(_ queue: DispatchQueue?) {
        self.queue = queue
        isMain = queue == nil
    }
}
