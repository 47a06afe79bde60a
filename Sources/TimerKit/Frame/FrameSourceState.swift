/// A frame handler as the source stores it: called on the source's context, never under a lock, with the
/// frame and the owner (for owner-bound subscriptions: loaded under the lock and kept alive for the call).
typealias FrameHandler = @Sendable (FrameTick, AnyObject?) -> Void

/// Identifies one subscriber inside its source: its slot, and the serial number it got when it took the
/// slot (so that a handle whose subscriber is gone, and whose slot was reused, finds nothing).
struct FrameSubscriberID: Hashable, Sendable {
    let slot: Int32
    let serial: UInt64
}

/// Where a frame subscription was made and by what owner type, for diagnostics.
struct FrameOrigin: Sendable {
    /// `fileID:line`.
    let site: String
    /// The owner's type name (owner-bound subscriptions only).
    let ownerType: String?
}

/// A frame source's subscriber as its ``SlotStore`` keeps it: the subscriber (nil once the slot is free)
/// and the serial it got with the slot. The store's links thread the subscribers in subscription order.
struct FrameRecord: SlotRecord {
    var serial: UInt64
    var subscriber: FrameSourceState.Subscriber?

    /// A subscriber's neighbours in subscription order (-1: none).
    struct Links: BitwiseCopyable, Equatable {
        var previous: Int32
        var next: Int32
    }

    static var unlinked: Links { Links(previous: -1, next: -1) }
    // Pages of 4, 4, 8, then 16 subscribers: a source with a few subscribers holds room for a few. Every
    // page goes with the last subscriber (a source without subscribers holds none).
    static var firstPageSize: Int { 4 }
    static var pageSize: Int { 16 }
    static var keepsFirstPage: Bool { false }

    var isOccupied: Bool { subscriber != nil }
    /// A cancelled subscriber is removed: every subscriber held is running or paused.
    var isLive: Bool { subscriber != nil }
    var binding: Lifetime.Binding { subscriber?.binding ?? .handle }
    var loadedOwner: AnyObject? { subscriber?.owner?.object }

    mutating func vacate() { subscriber = nil }

    var keepsReferences: Bool { subscriber != nil }
}

/// Everything a frame source knows, kept inside its lock: the subscribers and whether its driver runs.
///
/// Subscribers live in slots (a handle names its slot) of the ``SlotStore`` every feature uses, whose pages
/// are given back as subscribers go, threaded in subscription order by the store's links (an intrusive
/// doubly linked list), so that reading a subscriber's state, every lifecycle call and removing a
/// subscriber cost O(1) (amortised, when a page is taken or freed) whatever the number of subscribers.
/// Lifetime rules (which calls apply in which state, what releasing a handle does, loading the owner, the
/// dead-owner sweep, the "never fires" rule) come from ``Lifetime`` and the store, as for tickers. Dead
/// owners are found at each delivery, by a sweep of every subscriber once per refresh, by a sweep of a few
/// slots per lifecycle call, and for the one subscriber whose state is read.
///
/// Each transition records in an `Aftermath` what to do once the lock is released: start or stop the
/// driver, drop handlers and loaded owners, log. Noncopyable, as its store is.
struct FrameSourceState: ~Copyable {
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

    private var slots = SlotStore<FrameRecord>()
    #if TIMERKIT_CHECKED
        /// Which transitions `FrameSource` checks the invariants after.
        var checkedCadence = CheckedCadence()
        /// Slots handed out (for the check's cadence).
        var slotCount: Int { slots.slotEnd }
    #endif
    /// The first and last subscriber in subscription order (-1: none).
    private var head: Int32 = -1
    private var tail: Int32 = -1
    /// The serial of the last subscriber added: each gets a new one, so that an id whose subscriber is gone
    /// never names another (64 bits: never wraps).
    private var nextSerial: UInt64 = 0
    /// Subscribers that are running or paused.
    var count: Int { slots.occupiedCount }
    private var runningCount = 0
    /// Where the per-call sweep for dead owners continues.
    var sweepCursor = Lifetime.SweepCursor()
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
        guard id.slot >= 0, slots.hasRecord(UInt32(id.slot)) else { return nil }
        let record = slots.address(of: UInt32(id.slot))
        return record.pointee.serial == id.serial ? record.pointee.subscriber : nil
    }

    /// The record in `slot` (a store slot: never -1).
    private subscript(slot slot: Int32) -> FrameRecord {
        _read { yield slots[UInt32(slot)] }
        _modify { yield &slots[UInt32(slot)] }
    }

    /// The subscription-order links of `slot`.
    private func links(_ slot: Int32) -> FrameRecord.Links { slots.links(of: UInt32(slot)) }

    private mutating func updateLinks(_ slot: Int32, _ body: (inout FrameRecord.Links) -> Void) {
        var links = slots.links(of: UInt32(slot))
        body(&links)
        slots.setLinks(links, of: UInt32(slot))
    }

    /// What the subscriber storage holds (see ``SlotStore/usage``).
    var storageUsage: SlotStoreUsage { slots.usage }

    /// Adds a subscriber at the end of the subscription order (after sweeping a few slots).
    mutating func insert(_ subscriber: Subscriber, into after: inout Aftermath) -> FrameSubscriberID {
        sweep(limit: Self.sweptPerCall, into: &after)
        nextSerial += 1
        precondition(slots.slotEnd < Int(Int32.max), "TimerKit: more than 2^31 frame subscriptions on a source")
        let slot = Int32(slots.insert(FrameRecord(serial: nextSerial, subscriber: subscriber)))
        let last = tail
        updateLinks(slot) { $0.previous = last }
        if last >= 0 { updateLinks(last) { $0.next = slot } } else { head = slot }
        tail = slot
        if subscriber.state == .running { runningCount += 1 }
        reconcileDriver(into: &after)
        return FrameSubscriberID(slot: slot, serial: nextSerial)
    }

    /// The lifecycle calls a frame subscription takes (``Lifetime/Control``: pause, resume, cancel).
    typealias Command = Lifetime.Control

    /// Applies a lifecycle call (after sweeping a few slots); calls that do not apply to the subscriber's
    /// state (``Lifetime/transition(_:from:)``) do nothing.
    mutating func perform(_ command: Command, on id: FrameSubscriberID, into after: inout Aftermath) {
        sweep(limit: Self.sweptPerCall, into: &after)
        guard let before = self[id], let next = Lifetime.transition(command, from: before.state) else { return }
        let slot = id.slot
        switch next {
        case .cancelled:
            remove(slot, into: &after)
        case .paused, .running:
            guard next != before.state else { return }
            self[slot: slot].subscriber!.state = next
            if next == .running {
                // A resumed subscriber's frames start again at the next refresh.
                self[slot: slot].subscriber!.nextFrame = nil
                runningCount += 1
            } else {
                runningCount -= 1
            }
        case .idle, .finished:
            return
        }
        reconcileDriver(into: &after)
    }

    /// The handle of subscriber `id` went away (`release` says what it asks for, see
    /// ``Lifetime/release(of:ownerReadsNil:)``); `now` is the release's instant, for the "never fires"
    /// rule. `sibling` is the releasing thread's last owner-bound subscription on this source: when it is
    /// live, made at the same site for the same owner and no earlier, a running subscriber was replaced.
    mutating func release(
        _ release: Lifetime.Release, of id: FrameSubscriberID, now: Int64, sibling: FrameSubscriberID? = nil,
        into after: inout Aftermath
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
        case .none:
            guard let sibling, isReplaced(subscriber, id: id, by: sibling, into: &after) else { return }
            remove(id.slot, into: &after)
        case .cancel: remove(id.slot, into: &after)
        case .cancelOwnerGone:
            after.ownersGone.append(subscriber.origin)
            remove(id.slot, into: &after)
        }
        reconcileDriver(into: &after)
    }

    /// Whether `subscriber` (`id`), running and owner-bound, whose handle is being released, was replaced
    /// by `sibling`: a subscriber from the same site, bound to the same live owner, made no earlier. The
    /// owners loaded leave in the aftermath (a last release runs user code).
    private func isReplaced(
        _ subscriber: Subscriber, id: FrameSubscriberID, by sibling: FrameSubscriberID, into after: inout Aftermath
    ) -> Bool {
        guard sibling != id, let candidate = self[sibling], let owner = subscriber.owner?.object else { return false }
        let candidateOwner = candidate.owner?.object
        after.owners.append(owner)
        if let candidateOwner { after.owners.append(candidateOwner) }
        return Lifetime.isReplacement(
            sameSite: candidate.origin.site == subscriber.origin.site, createdAt: candidate.createdAt,
            owner: candidateOwner, releasedCreatedAt: subscriber.createdAt, releasedOwner: owner)
    }

    /// The state of subscriber `id` (`cancelled` once it is gone). Looks at this subscriber's owner only:
    /// if it is gone, the subscriber is removed now and reads `cancelled`.
    mutating func state(of id: FrameSubscriberID, into after: inout Aftermath) -> TickerState {
        guard let subscriber = self[id] else { return .cancelled }
        switch slots.ownerVerdict(at: UInt32(id.slot)) {
        case .skip: return subscriber.state
        case .alive(let owner):
            after.owner = owner
            return subscriber.state
        case .ownerGone:
            after.ownersGone.append(subscriber.origin)
            remove(id.slot, into: &after)
            reconcileDriver(into: &after)
            return .cancelled
        }
    }

    /// Takes the subscriber out of its slot and of the subscription order, and frees the slot (its page
    /// goes once empty); its handler leaves in the aftermath.
    private mutating func remove(_ slot: Int32, into after: inout Aftermath) {
        guard let removed = removeSubscriber(slot) else { return }
        after.released.append(removed.handler)
    }

    /// Takes the subscriber in `slot` out of the subscription order and frees the slot; returns it (its
    /// handler to be released after unlocking).
    private mutating func removeSubscriber(_ slot: Int32) -> Subscriber? {
        guard let removed = self[slot: slot].subscriber else { return nil }
        let links = links(slot)
        if links.previous >= 0 { updateLinks(links.previous) { $0.next = links.next } } else { head = links.next }
        if links.next >= 0 { updateLinks(links.next) { $0.previous = links.previous } } else { tail = links.previous }
        slots.setLinks(FrameRecord.unlinked, of: UInt32(slot))
        // The store drops its reference; the caller's is released after unlocking.
        slots.free(UInt32(slot))
        if removed.state == .running { runningCount -= 1 }
        if count == 0 { sweepCursor.reset() }
        return removed
    }

    /// Looks at up to `limit` slots for dead owners (the one sweep, ``OwnerSweeping``).
    private mutating func sweep(limit: Int, into after: inout Aftermath) {
        var sweep = Sweep()
        sweepDeadOwners(limit: limit, into: &sweep)
        finish(sweep, into: &after)
    }

    /// What a sweep leaves: the removed subscribers (for the log, and their handlers to release).
    typealias Sweep = Lifetime.Sweep<Subscriber>

    /// Hands out what a sweep found: owners found alive, to be released after unlocking (the last release
    /// would run the owner's `deinit`), and the subscribers it stopped (their handlers, and the log).
    private mutating func finish(_ sweep: Sweep, into after: inout Aftermath) {
        after.owners += sweep.alive
        if !sweep.stopped.isEmpty {
            after.released += sweep.stopped.map(\.handler)
            after.ownersGone += sweep.stopped.map(\.origin)
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

    /// Begins serving refresh `index`: in one walk of the subscription order, removes every subscriber
    /// whose owner has gone away (once per refresh) and lists the running ones. Returns `nil` for a
    /// refresh that is not newer than the last one served.
    mutating func beginRefresh(_ index: Int64, into after: inout Aftermath) -> [FrameSubscriberID]? {
        guard index > lastRefresh else { return nil }
        lastRefresh = index
        var sweep = Sweep()
        var due: [FrameSubscriberID] = []
        due.reserveCapacity(runningCount)
        var slot = head
        while slot >= 0 {
            // Read before a removal unlinks the slot (or frees every page with the last subscriber).
            let next = links(slot).next
            sweepSlot(UInt32(slot), into: &sweep)
            if slots.isOccupied(UInt32(slot)), self[slot: slot].subscriber?.state == .running {
                due.append(FrameSubscriberID(slot: slot, serial: self[slot: slot].serial))
            }
            slot = next
        }
        finish(sweep, into: &after)
        return due
    }

    /// Decides, right before the call, whether subscriber `id` gets a frame at refresh `index` (whose
    /// instant is `instant` on `grid`; the handler is called at `now`), and advances its frame grid if so.
    mutating func delivery(
        for id: FrameSubscriberID, refresh index: Int64, at instant: Int64, grid: RefreshGrid, now: Int64
    ) -> Delivery {
        guard var subscriber = self[id], subscriber.state == .running else { return .skip }
        let slot = id.slot
        let divisor = subscriber.divisor
        let next = subscriber.nextFrame ?? Self.roundedUp(index, toMultipleOf: divisor)
        guard index >= next else {
            self[slot: slot].subscriber!.nextFrame = next
            return .skip
        }
        // An owner-bound subscriber is delivered only with its owner loaded (and kept alive for the call);
        // the loaded reference travels out in the delivery, never released here.
        var owner: AnyObject?
        switch Lifetime.load(subscriber.binding, owner: slots[UInt32(slot)].loadedOwner) {
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
        self[slot: slot].subscriber = subscriber
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

    /// Checks that the subscription order links every subscriber once, both ways, that the counts match,
    /// that serials are unique and already handed out, and the store's own invariants (see
    /// ``SlotStore/invariantViolation()``); returns the first broken invariant, or nil (for tests, and after
    /// every transition in a `TIMERKIT_CHECKED` build).
    func invariantViolation() -> String? {
        var seen = 0
        var running = 0
        var serials = Set<UInt64>()
        var previous: Int32 = -1
        var slot = head
        while slot >= 0 {
            guard slots.isOccupied(UInt32(slot)), let subscriber = self[slot: slot].subscriber else {
                return "slot \(slot) is linked but holds no subscriber"
            }
            guard links(slot).previous == previous else { return "slot \(slot) links back to the wrong slot" }
            seen += 1
            if subscriber.state == .running { running += 1 }
            guard seen <= count else { return "the subscription order has a cycle or misses the count" }
            let serial = self[slot: slot].serial
            guard serial <= nextSerial, serials.insert(serial).inserted else {
                return "slot \(slot) has serial \(serial), reused or not handed out yet"
            }
            previous = slot
            slot = links(slot).next
        }
        if previous != tail { return "the tail is \(tail), the last linked slot \(previous)" }
        if seen != count { return "\(seen) subscribers are linked, the count says \(count)" }
        if running != runningCount { return "\(running) subscribers run, the count says \(runningCount)" }
        return slots.invariantViolation()
    }
}

extension FrameSourceState: OwnerSweeping {
    var sweepEnd: Int { slots.slotEnd }

    func ownerVerdict(at slot: UInt32) -> Lifetime.SweepVerdict { slots.ownerVerdict(at: slot) }

    /// Removes the subscriber in `slot`, whose owner has gone away.
    mutating func stopOwnerGone(at slot: UInt32) -> Subscriber {
        // The verdict was on an occupied slot.
        removeSubscriber(Int32(slot))!
    }
}
