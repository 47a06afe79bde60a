/// A frame handler as the source stores it: called on the source's context, never under a lock, with the
/// frame and the owner (for owner-bound subscriptions: loaded under the lock and kept alive for the call).
typealias FrameHandler = @Sendable (FrameTick, AnyObject?) -> Void

/// Everything a frame source knows, kept inside its lock: the subscribers and whether its driver runs.
///
/// Each transition records in an `Aftermath` what to do once the lock is released: start or stop the
/// driver, drop handlers and loaded owners, log.
struct FrameSourceState {
    struct Subscriber {
        /// `running` or `paused`; a cancelled subscriber is removed.
        var state: TickerState
        /// Refreshes per frame (n ≥ 1): frames fall on refreshes whose number is a multiple of n.
        let divisor: Int64
        /// The owner, held weakly (owner-bound subscriptions only).
        let owner: WeakReference?
        let handler: FrameHandler
        /// Where the subscription was made and by what owner type, for the owner-release log.
        let origin: String
        /// The refresh of the next frame; `nil` until the first refresh after subscribing or resuming.
        var nextFrame: Int64?
        /// The last frame index delivered.
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
        /// Subscriptions stopped because their owner went away (for the owner-release log).
        var ownersGone: [String] = []
    }

    /// One subscriber's part of a refresh.
    enum Delivery {
        case skip
        case deliver(FrameHandler, FrameTick, owner: AnyObject?)
        /// The due subscriber's owner was gone: it was removed instead of delivered.
        case stopped(Aftermath)
    }

    private(set) var subscribers: [UInt64: Subscriber] = [:]
    /// Subscriber ids in subscription order: the order frames are delivered in.
    private var order: [UInt64] = []
    private var nextID: UInt64 = 0
    private var runningCount = 0
    private var driver = Driver.stopped
    private var epoch: UInt64 = 0
    /// The last refresh served; a refresh that is not newer is ignored (a stopped run's late delivery).
    private var lastRefresh = Int64.min

    var isRunning: Bool {
        if case .stopped = driver { return false }
        return true
    }

    // MARK: Subscribers

    mutating func insert(_ subscriber: Subscriber, into after: inout Aftermath) -> UInt64 {
        nextID += 1
        subscribers[nextID] = subscriber
        order.append(nextID)
        runningCount += 1
        reconcileDriver(into: &after)
        return nextID
    }

    enum Command {
        case pause, resume, cancel
        /// The handle of an owner-bound subscription was released: a paused one could never be resumed.
        case cancelIfPaused
    }

    /// Applies a lifecycle call; calls that do not apply to the subscriber's state do nothing. Returns the
    /// subscriber as it was before the call (`nil` once cancelled).
    @discardableResult
    mutating func perform(_ command: Command, on id: UInt64, into after: inout Aftermath) -> Subscriber? {
        guard let before = subscribers[id] else { return nil }
        switch (command, before.state) {
        case (.pause, .running):
            subscribers[id]!.state = .paused
            runningCount -= 1
        case (.resume, .paused):
            subscribers[id]!.state = .running
            subscribers[id]!.nextFrame = nil
            runningCount += 1
        case (.cancel, _), (.cancelIfPaused, .paused):
            remove(id, into: &after)
        default:
            return before
        }
        reconcileDriver(into: &after)
        return before
    }

    private mutating func remove(_ id: UInt64, into after: inout Aftermath) {
        guard let removed = subscribers.removeValue(forKey: id) else { return }
        order.removeAll { $0 == id }
        if removed.state == .running { runningCount -= 1 }
        after.released.append(removed.handler)
    }

    /// Removes every subscriber whose owner has gone away. Owners found alive are handed out in the
    /// aftermath, to be released after unlocking (the last release would run the owner's `deinit`).
    mutating func sweepDeadOwners(into after: inout Aftermath) {
        for id in order {
            guard let reference = subscribers[id]?.owner else { continue }
            if let alive = reference.object {
                after.owners.append(alive)
            } else {
                after.ownersGone.append(subscribers[id]!.origin)
                remove(id, into: &after)
            }
        }
        reconcileDriver(into: &after)
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

    /// Begins serving refresh `index`: sweeps dead owners and lists the running subscribers, in order.
    /// Returns `nil` for a refresh that is not newer than the last one served.
    mutating func beginRefresh(_ index: Int64, into after: inout Aftermath) -> [UInt64]? {
        guard index > lastRefresh else { return nil }
        lastRefresh = index
        sweepDeadOwners(into: &after)
        return order.filter { subscribers[$0]?.state == .running }
    }

    /// Decides, right before the call, whether subscriber `id` gets a frame at refresh `index` (whose
    /// instant is `instant` on `grid`; the handler is called at `now`), and advances its frame grid if so.
    mutating func delivery(
        for id: UInt64, refresh index: Int64, at instant: Int64, grid: RefreshGrid, now: Int64
    ) -> Delivery {
        guard var subscriber = subscribers[id], subscriber.state == .running else { return .skip }
        let divisor = subscriber.divisor
        let next = subscriber.nextFrame ?? Self.roundedUp(index, toMultipleOf: divisor)
        guard index >= next else {
            subscribers[id]!.nextFrame = next
            return .skip
        }
        // An owner-bound subscriber is delivered only with its owner loaded (and kept alive for the call);
        // the loaded reference travels out in the delivery, never released here.
        var owner: AnyObject?
        if let reference = subscriber.owner {
            owner = reference.object
            if owner == nil {
                var after = Aftermath()
                after.ownersGone.append(subscriber.origin)
                remove(id, into: &after)
                reconcileDriver(into: &after)
                return .stopped(after)
            }
        }
        // The latest frame of the subscriber's grid that has passed; the ones before it since `next` were
        // missed.
        let frame = Self.roundedDown(index, toMultipleOf: divisor)
        let dropped = Int((frame - next) / divisor)
        subscriber.index += 1 + dropped
        subscriber.nextFrame = frame + divisor
        subscribers[id] = subscriber
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
}
