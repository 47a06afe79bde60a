/// A frame handler as the source stores it: called on the source's context, never under a lock, with the
/// frame and the owner (for owner-bound subscriptions: loaded under the lock and kept alive for the call).
typealias FrameHandler = @Sendable (FrameTick, AnyObject?) -> Void

/// Identifies one subscriber inside its source: its slot, and the serial number it got when it took the
/// slot (so that a handle whose subscriber is gone, and whose slot was reused, finds nothing).
struct FrameSubscriberID: Hashable, Sendable {
    let slot: Int32
    let serial: UInt32
}

/// Where a frame subscription was made and by what owner type, for diagnostics.
struct FrameOrigin: Sendable {
    /// `fileID:line`.
    let site: String
    /// The owner's type name (owner-bound subscriptions only).
    let ownerType: String?
}

/// Everything a frame source knows, kept inside its lock: the subscribers and whether its driver runs.
///
/// Subscribers live in slots (a handle names its slot), threaded in subscription order by an intrusive
/// doubly linked list, so that reading a subscriber's state, every lifecycle call and removing a subscriber
/// cost O(1) whatever the number of subscribers. Lifetime rules (what releasing a handle does, loading
/// the owner, sweeping dead owners, the "never fires" rule) come from ``Lifetime``. Dead owners are found
/// at each delivery, by a sweep of every subscriber once per refresh, by a sweep of a few slots per
/// lifecycle call, and for the one subscriber whose state is read.
///
/// Each transition records in an `Aftermath` what to do once the lock is released: start or stop the
/// driver, drop handlers and loaded owners, log.
struct FrameSourceState {
    struct Subscriber {
        /// `running` or `paused`; a cancelled subscriber is removed.
        var state: TickerState
        /// Refreshes per frame (n ≥ 1): frames fall on refreshes whose number is a multiple of n.
        let divisor: Int64
        /// `.owner` (owner-bound) or `.handle` (handle-owned).
        let binding: Lifetime.Binding
        /// The owner, held weakly (owner-bound subscriptions only).
        let owner: WeakReference?
        let handler: FrameHandler
        let origin: FrameOrigin
        /// When the subscription was made, on the source's timeline (for the "never fires" rule).
        let createdAt: Int64
        /// The refresh of the next frame; `nil` until the first refresh after subscribing or resuming.
        var nextFrame: Int64?
        /// The last frame index delivered (0: none yet).
        var index = 0
    }

    /// One slot: a subscriber (or none), and its neighbours in subscription order (-1: none).
    private struct Slot {
        var serial: UInt32
        var subscriber: Subscriber?
        var previous: Int32 = -1
        var next: Int32 = -1
    }

    enum Driver {
        case stopped
        /// A start was decided; the thread that decided it is starting the driver outside the lock.
        case starting(epoch: UInt64)
        case running(epoch: UInt64, stop: @Sendable () -> Void)
    }

    /// What to do after unlocking.
    struct Aftermath {
        /// Start the driver and install it if the start is still wanted (the epoch still current).
        var start: UInt64?
        /// Stop the driver.
        var stop: (@Sendable () -> Void)?
        /// Handlers of removed subscribers and owners loaded under the lock: dropped after unlocking, since
        /// releasing them may run user deinitialisers.
        var released: [FrameHandler] = []
        var owners: [AnyObject] = []
        /// The owner loaded to read one subscriber's state (kept apart: a state read allocates nothing).
        var owner: AnyObject?
        /// Subscriptions stopped because their owner went away (for the owner-release log).
        var ownersGone: [FrameOrigin] = []
        /// Set when a released handle draws the "never fires" warning.
        var neverFires: FrameOrigin?
    }

    /// One subscriber's part of a refresh.
    enum Delivery {
        case skip
        case deliver(FrameHandler, FrameTick, owner: AnyObject?)
        /// The due subscriber's owner was gone: it was removed instead of delivered.
        case stopped(Aftermath)
    }

    private var slots: ContiguousArray<Slot> = []
    /// Slots that hold no subscriber.
    private var freeSlots: [Int32] = []
    /// The first and last subscriber in subscription order (-1: none).
    private var head: Int32 = -1
    private var tail: Int32 = -1
    private var nextSerial: UInt32 = 0
    /// Subscribers that are running or paused.
    private(set) var count = 0
    private var runningCount = 0
    /// Where the per-call sweep for dead owners continues.
    private var sweepCursor = Lifetime.SweepCursor()
    private var driver = Driver.stopped
    private var epoch: UInt64 = 0
    /// The last refresh served; a refresh that is not newer is ignored (a stopped run's late delivery).
    private var lastRefresh = Int64.min

    /// Slots each lifecycle call and each subscription examines for a dead owner.
    static let sweptPerCall = 2

    var isRunning: Bool {
        if case .stopped = driver { return false }
        return true
    }

    // MARK: Subscribers

    /// The subscriber `id` names, if it is still there.
    subscript(id: FrameSubscriberID) -> Subscriber? {
        guard id.slot >= 0, Int(id.slot) < slots.count, slots[Int(id.slot)].serial == id.serial else { return nil }
        return slots[Int(id.slot)].subscriber
    }

    /// Adds a subscriber at the end of the subscription order (after sweeping a few slots).
    mutating func insert(_ subscriber: Subscriber, into after: inout Aftermath) -> FrameSubscriberID {
        sweep(limit: Self.sweptPerCall, into: &after)
        nextSerial &+= 1
        let slot: Int32
        if let reused = freeSlots.popLast() {
            slot = reused
            slots[Int(slot)] = Slot(serial: nextSerial, subscriber: subscriber)
        } else {
            slot = Int32(slots.count)
            slots.append(Slot(serial: nextSerial, subscriber: subscriber))
        }
        slots[Int(slot)].previous = tail
        if tail >= 0 { slots[Int(tail)].next = slot } else { head = slot }
        tail = slot
        count += 1
        if subscriber.state == .running { runningCount += 1 }
        reconcileDriver(into: &after)
        return FrameSubscriberID(slot: slot, serial: nextSerial)
    }

    enum Command {
        case pause, resume, cancel
    }

    /// Applies a lifecycle call (after sweeping a few slots); calls that do not apply to the subscriber's
    /// state do nothing.
    mutating func perform(_ command: Command, on id: FrameSubscriberID, into after: inout Aftermath) {
        sweep(limit: Self.sweptPerCall, into: &after)
        guard let before = self[id] else { return }
        let slot = Int(id.slot)
        switch (command, before.state) {
        case (.pause, .running):
            slots[slot].subscriber!.state = .paused
            runningCount -= 1
        case (.resume, .paused):
            slots[slot].subscriber!.state = .running
            slots[slot].subscriber!.nextFrame = nil
            runningCount += 1
        case (.cancel, _):
            remove(slot, into: &after)
        default:
            return
        }
        reconcileDriver(into: &after)
    }

    /// The handle of subscriber `id` went away (`release` says what it asks for, see
    /// ``Lifetime/release(of:ownerReadsNil:)``); `now` is the release's instant, for the "never fires"
    /// rule.
    mutating func release(
        _ release: Lifetime.Release, of id: FrameSubscriberID, now: Int64, into after: inout Aftermath
    ) {
        sweep(limit: Self.sweptPerCall, into: &after)
        guard let subscriber = self[id] else { return }
        if Lifetime.neverFires(
            binding: subscriber.binding, state: subscriber.state, deliveries: subscriber.index,
            age: now.subtractingSaturating(subscriber.createdAt))
        {
            after.neverFires = subscriber.origin
        }
        switch Lifetime.effect(of: release, in: subscriber.state) {
        case .none: return
        case .cancel: remove(Int(id.slot), into: &after)
        case .cancelOwnerGone:
            after.ownersGone.append(subscriber.origin)
            remove(Int(id.slot), into: &after)
        }
        reconcileDriver(into: &after)
    }

    /// The state of subscriber `id` (`cancelled` once it is gone). Looks at this subscriber's owner only:
    /// if it is gone, the subscriber is removed now and reads `cancelled`.
    mutating func state(of id: FrameSubscriberID, into after: inout Aftermath) -> TickerState {
        guard let subscriber = self[id] else { return .cancelled }
        switch Lifetime.sweepVerdict(isLiveBound: subscriber.binding.isBound, owner: subscriber.owner?.object) {
        case .skip: return subscriber.state
        case .alive(let owner):
            after.owner = owner
            return subscriber.state
        case .ownerGone:
            after.ownersGone.append(subscriber.origin)
            remove(Int(id.slot), into: &after)
            reconcileDriver(into: &after)
            return .cancelled
        }
    }

    /// Takes the subscriber out of its slot and of the subscription order; its handler leaves in the
    /// aftermath.
    private mutating func remove(_ slot: Int, into after: inout Aftermath) {
        guard let removed = slots[slot].subscriber.take() else { return }
        let (previous, next) = (slots[slot].previous, slots[slot].next)
        if previous >= 0 { slots[Int(previous)].next = next } else { head = next }
        if next >= 0 { slots[Int(next)].previous = previous } else { tail = previous }
        slots[slot].previous = -1
        slots[slot].next = -1
        count -= 1
        if removed.state == .running { runningCount -= 1 }
        after.released.append(removed.handler)
        if count == 0 {
            // Nothing left: give the slots back.
            slots = []
            freeSlots = []
            sweepCursor.reset()
        } else {
            freeSlots.append(Int32(slot))
        }
    }

    /// Looks at up to `limit` slots (every slot when nil), round-robin from where the last sweep stopped,
    /// and removes the subscribers whose owner has gone away. Owners found alive are handed out in the
    /// aftermath, to be released after unlocking (the last release would run the owner's `deinit`).
    private mutating func sweep(limit: Int?, into after: inout Aftermath) {
        var sweep = Lifetime.Sweep<FrameOrigin>()
        for _ in 0..<Lifetime.SweepCursor.steps(limit: limit, end: slots.count) {
            // Removing the last subscriber gives the slots back: re-read the end.
            guard let slot = sweepCursor.next(below: slots.count) else { break }
            guard let subscriber = slots[slot].subscriber else { continue }
            let verdict = Lifetime.sweepVerdict(
                isLiveBound: subscriber.binding.isBound, owner: subscriber.owner?.object)
            if sweep.note(verdict) {
                sweep.stopped.append(subscriber.origin)
                remove(slot, into: &after)
            }
        }
        after.owners += sweep.alive
        if !sweep.stopped.isEmpty {
            after.ownersGone += sweep.stopped
            reconcileDriver(into: &after)
        }
    }

    // MARK: Driver

    /// Starts the driver when a subscriber runs and none did; stops it when the last running subscriber
    /// paused or went.
    private mutating func reconcileDriver(into after: inout Aftermath) {
        switch (runningCount > 0, driver) {
        case (true, .stopped):
            epoch &+= 1
            driver = .starting(epoch: epoch)
            after.start = epoch
        case (false, .running(_, let stop)):
            driver = .stopped
            after.stop = stop
        case (false, .starting):
            // The starting thread finds its epoch stale and stops what it started.
            driver = .stopped
        default:
            break
        }
    }

    /// Installs a started driver; returns false when the start is no longer wanted (the caller stops it).
    mutating func install(_ stop: @escaping @Sendable () -> Void, epoch started: UInt64) -> Bool {
        guard case .starting(let current) = driver, current == started else { return false }
        driver = .running(epoch: started, stop: stop)
        return true
    }

    // MARK: Refreshes

    /// Begins serving refresh `index`: sweeps every slot for dead owners (once per refresh) and lists the
    /// running subscribers, in subscription order. Returns `nil` for a refresh that is not newer than the
    /// last one served.
    mutating func beginRefresh(_ index: Int64, into after: inout Aftermath) -> [FrameSubscriberID]? {
        guard index > lastRefresh else { return nil }
        lastRefresh = index
        sweep(limit: nil, into: &after)
        var due: [FrameSubscriberID] = []
        due.reserveCapacity(runningCount)
        var slot = head
        while slot >= 0 {
            if slots[Int(slot)].subscriber?.state == .running {
                due.append(FrameSubscriberID(slot: slot, serial: slots[Int(slot)].serial))
            }
            slot = slots[Int(slot)].next
        }
        return due
    }

    /// Decides, right before the call, whether subscriber `id` gets a frame at refresh `index` (whose
    /// instant is `instant` on `grid`; the handler is called at `now`), and advances its frame grid if so.
    mutating func delivery(
        for id: FrameSubscriberID, refresh index: Int64, at instant: Int64, grid: RefreshGrid, now: Int64
    ) -> Delivery {
        guard var subscriber = self[id], subscriber.state == .running else { return .skip }
        let slot = Int(id.slot)
        let divisor = subscriber.divisor
        let next = subscriber.nextFrame ?? Self.roundedUp(index, toMultipleOf: divisor)
        guard index >= next else {
            slots[slot].subscriber!.nextFrame = next
            return .skip
        }
        // An owner-bound subscriber is delivered only with its owner loaded (and kept alive for the call);
        // the loaded reference travels out in the delivery, never released here.
        var owner: AnyObject?
        switch Lifetime.load(subscriber.binding, owner: subscriber.owner?.object) {
        case .deliver(let loaded): owner = loaded
        case .deliverWithoutOwner: break
        case .ownerGone:
            var after = Aftermath()
            after.ownersGone.append(subscriber.origin)
            remove(slot, into: &after)
            reconcileDriver(into: &after)
            return .stopped(after)
        }
        // The latest frame of the subscriber's grid that has passed; the ones before it since `next` were
        // missed.
        let frame = Self.roundedDown(index, toMultipleOf: divisor)
        let dropped = Int((frame - next) / divisor)
        subscriber.index += 1 + dropped
        subscriber.nextFrame = frame + divisor
        slots[slot].subscriber = subscriber
        // Instants of other refreshes are taken from the grid, relative to this refresh's instant, so
        // that no per-refresh rounding adds up.
        let offset = grid.offset(ofRefresh: index)
        let deadline = instant - (offset - grid.offset(ofRefresh: frame))
        let tick = FrameTick(
            index: subscriber.index,
            deadline: TickInstant(nanoseconds: deadline),
            timestamp: TickInstant(nanoseconds: now),
            duration: .nanoseconds(grid.offset(ofRefresh: frame + divisor) - grid.offset(ofRefresh: frame)),
            droppedFrames: dropped
        )
        return .deliver(subscriber.handler, tick, owner: owner)
    }

    static func roundedDown(_ value: Int64, toMultipleOf divisor: Int64) -> Int64 {
        let remainder = value % divisor
        return remainder >= 0 ? value - remainder : value - remainder - divisor
    }

    static func roundedUp(_ value: Int64, toMultipleOf divisor: Int64) -> Int64 {
        let down = roundedDown(value, toMultipleOf: divisor)
        return down == value ? value : down + divisor
    }

    // MARK: Invariants

    /// Checks that the subscription order links every subscriber once, both ways, that free slots hold
    /// none, and that the counts match; returns the first broken invariant, or nil (for tests).
    func invariantViolation() -> String? {
        var seen = 0
        var running = 0
        var previous: Int32 = -1
        var slot = head
        while slot >= 0 {
            guard Int(slot) < slots.count, let subscriber = slots[Int(slot)].subscriber else {
                return "slot \(slot) is linked but holds no subscriber"
            }
            guard slots[Int(slot)].previous == previous else { return "slot \(slot) links back to the wrong slot" }
            seen += 1
            if subscriber.state == .running { running += 1 }
            guard seen <= slots.count else { return "the subscription order has a cycle" }
            previous = slot
            slot = slots[Int(slot)].next
        }
        if previous != tail { return "the tail is \(tail), the last linked slot \(previous)" }
        if seen != count { return "\(seen) subscribers are linked, the count says \(count)" }
        if running != runningCount { return "\(running) subscribers run, the count says \(runningCount)" }
        let occupied = slots.lazy.filter { $0.subscriber != nil }.count
        if occupied != count { return "\(occupied) slots are occupied, the count says \(count)" }
        if freeSlots.count + occupied != slots.count { return "free slots and occupied ones do not add up" }
        if freeSlots.contains(where: { slots[Int($0)].subscriber != nil }) { return "a free slot holds a subscriber" }
        return nil
    }
}
