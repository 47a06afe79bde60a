/// One shared source of frame ticks, aligned to a refresh grid and fanned out to its subscribers: the
/// TimerKit form of `CADisplayLink`, without its retain cycle.
///
/// Get a source with ``software(refreshRate:on:file:line:)`` (a monotonic software clock, on every platform) or
/// ``display(refreshRate:file:line:)`` (the display link on UIKit platforms, the software clock elsewhere). Both
/// return the one shared source for their arguments: every subscriber at the same refresh rate on the
/// same context shares one underlying ticker or display link.
///
/// ```swift
/// import TimerKit
///
/// final class Spinner {
///     var angle = 0.0
///
///     func appear() {
///         FrameSource.display().subscribe(FrameRateRange(preferred: 30), owner: self) { spinner, frame in
///             spinner.angle += 3 * Double(1 + frame.droppedFrames)  // 3° a frame, dropped ones included
///         }
///     }
///     // No deinit needed: when the spinner goes away, so does its subscription.
/// }
/// ```
///
/// **Frames.** Each subscription gets a rate its source can deliver — the refresh rate divided by a whole
/// number — snapped from its ``FrameRateRange`` (see there for the rule). Its frames fall on the refreshes
/// whose number is a multiple of that divisor: every ``FrameTick/deadline`` is on the refresh grid, and
/// subscribers at one rate share refreshes. ``FrameTick/timestamp`` is when the handler was called, as on
/// a ``Tick``. When the context runs so late that whole frames pass, the
/// handler is called once, for the latest frame that passed, with the missed ones in
/// ``FrameTick/droppedFrames``: never a burst of catch-up calls. Time spent paused is not dropped frames.
///
/// **Threads.** Every handler runs on the source's ``context``: the context passed to
/// ``software(refreshRate:on:file:line:)`` (default `.main`), the main thread for a display link. Subscribers are
/// called one after another, in subscription order, never concurrently and never while a TimerKit lock is
/// held. Subscribing, and every ``FrameSubscription`` call, is safe from any thread and from inside a
/// frame handler; a subscription made inside a handler gets its first frame at a later refresh.
///
/// **Lifetime.** A source runs only while it has a running subscriber: when the last one is cancelled,
/// paused, or loses its owner, the underlying ticker is cancelled (or the display link invalidated), and a
/// new running subscriber starts it again, on the same grid. A running source keeps itself alive; a
/// stopped one lives while a ``FrameSubscription`` or another reference holds it. Owners are never
/// retained.
public final class FrameSource: Sendable, CustomStringConvertible {
    /// Refreshes per second, after clamping (see ``software(refreshRate:on:file:line:)``).
    public let refreshRate: Double
    /// The nominal time between refreshes: one second divided by ``refreshRate``, rounded to the
    /// nanosecond. Refresh instants are not multiples of it: refresh k falls k × 10⁹ / ``refreshRate`` ns
    /// after the grid's start, rounded on its own, so rounding never adds up (see ``FrameTick/duration``).
    public let refreshInterval: Duration
    /// Where frame handlers run.
    public var context: TickerContext { driver.context }

    /// The refresh instants, computed from the start of the grid.
    let grid: RefreshGrid
    let driver: any RefreshDriver
    /// "software" or "display link", for descriptions.
    let kind: String
    private let state = Locked<FrameSourceState>.make(FrameSourceState())

    init(refreshRate: Double, grid: RefreshGrid, kind: String, driver: any RefreshDriver) {
        self.refreshRate = refreshRate
        self.grid = grid
        self.refreshInterval = .nanoseconds(grid.nominalIntervalNanoseconds)
        self.kind = kind
        self.driver = driver
    }

    // MARK: Reading

    /// Whether the source is running: it has a running subscriber, and its ticker or display link is on.
    public var isRunning: Bool { state.withLock { $0.isRunning } }

    /// The subscriptions that are running or paused.
    public var subscriberCount: Int { state.withLock { $0.count } }

    /// The frame rate a subscription with `range` gets from this source: ``refreshRate`` divided by
    /// `range.frameInterval(forRefreshRate: refreshRate)`.
    public func frameRate(for range: FrameRateRange) -> Double {
        refreshRate / Double(range.frameInterval(forRefreshRate: refreshRate))
    }

    /// A short human-readable description, for logs and test output.
    public var description: String {
        let (count, running) = state.withLock { ($0.count, $0.isRunning) }
        return "FrameSource(\(kind), \(refreshRate) Hz on \(context): \(count) subscriber(s), "
            + (running ? "running)" : "stopped)")
    }

    // MARK: Subscribing

    /// Subscribes a handler bound to `owner`: the owner is held weakly and passed to the handler, so the
    /// handler has no reason to capture it.
    ///
    /// The handler runs on the source's ``context``, so the owner crosses into it and must be `Sendable`.
    /// For a `@MainActor` view or view model, use the main-actor form
    /// ``subscribe(_:refreshRate:owner:fileID:line:_:)`` (a static method: no source named), whose handler
    /// is isolated to the main actor.
    ///
    /// The subscription ends for good, and releases the handler, when the owner goes away: at once if the
    /// owner held the returned handle, otherwise at the source's next refresh (without calling the
    /// handler) or earlier, when another call on the same source (subscribing, cancelling, releasing a
    /// handle) notices the dead owner first. Keeping the returned handle is optional; keep it to pause or
    /// cancel. Releasing it while the subscription is paused cancels it, since nothing could resume it any
    /// more, and assigning a new subscription from the same line where it is kept
    /// (`displayLink = source.subscribe(owner: self) { … }` again) stops the old one, as for tickers.
    ///
    /// - Parameters:
    ///   - range: the acceptable frame rates; snapped to a rate the source can deliver (see
    ///     ``FrameRateRange``). The default is every refresh.
    ///   - owner: the object whose lifetime bounds the subscription; never retained.
    ///   - fileID: the creation site shown by diagnostics (filled in by the compiler).
    ///   - line: the creation site's line (filled in by the compiler).
    ///   - handler: called on the source's ``context`` with the owner and the ``FrameTick``, starting at
    ///     the first refresh of the subscription's grid after this call.
    ///
    /// An actor passed as `owner` gets the actor form of this method instead, whose handler is isolated to
    /// the actor (this form is disfavoured so that the two do not clash).
    @_disfavoredOverload
    @discardableResult
    public func subscribe<Owner: AnyObject & Sendable>(
        _ range: FrameRateRange = .native,
        owner: Owner,
        fileID: String = #fileID,
        line: Int = #line,
        _ handler: @escaping @Sendable (Owner, FrameTick) -> Void
    ) -> FrameSubscription {
        bind(range, owner: owner, fileID: fileID, line: line, handler)
    }

    /// Subscribes a handler isolated to the actor `owner`: the actor is held weakly and passed to the
    /// handler as its `isolated` parameter, so the handler changes the actor's state directly, without
    /// `await`.
    ///
    /// The source hands each frame to the actor on its ``context``; one task per subscription calls the
    /// handler on the actor's executor, in order, one call at a time. A frame that comes while the actor
    /// is still busy with the previous one waits, and a further one replaces it: the handler gets the
    /// latest frame, with the ones it missed counted in ``FrameTick/droppedFrames``, never a backlog.
    /// ``FrameTick/timestamp`` is when the source handed the frame over. ``FrameSubscription/cancel()``
    /// and ``FrameSubscription/pause()`` called on the actor are exact: no frame is delivered afterwards
    /// (until `resume()`). Otherwise as ``subscribe(_:owner:fileID:line:_:)-356qd``: the subscription ends with
    /// the actor, and keeping the returned handle is optional. Under `TimerKitTesting`'s virtual time, the
    /// async `advance` waits until the actor has run the handler.
    ///
    /// - Parameters:
    ///   - range: the acceptable frame rates; snapped to a rate the source can deliver (see
    ///     ``FrameRateRange``). The default is every refresh.
    ///   - owner: the actor whose lifetime bounds the subscription and to which the handler is isolated;
    ///     never retained.
    ///   - fileID: the creation site shown by diagnostics (filled in by the compiler).
    ///   - line: the creation site's line (filled in by the compiler).
    ///   - handler: called isolated to `owner` with the owner and the ``FrameTick``.
    @discardableResult
    public func subscribe<Owner: Actor>(
        _ range: FrameRateRange = .native,
        owner: Owner,
        fileID: String = #fileID,
        line: Int = #line,
        _ handler: @escaping @Sendable (isolated Owner, FrameTick) -> Void
    ) -> FrameSubscription {
        let input = ActorInbox<FrameTick>.start(owner: owner, as: Owner.self, merge: FrameTick.merged) {
            owner, frame, _ in handler(owner, frame)
        }
        let subscription = bind(range, owner: owner, fileID: fileID, line: line) { _, frame in input.post(frame) }
        let id = subscription.id
        input.bind { [weak self] _ in self?.subscriberState(id) == .running }
        return subscription
    }

    /// The one place where a frame subscriber's owner is captured: weakly.
    func bind<Owner: AnyObject>(
        _ range: FrameRateRange,
        owner: Owner,
        fileID: String,
        line: Int,
        _ handler: @escaping @Sendable (Owner, FrameTick) -> Void
    ) -> FrameSubscription {
        let origin = FrameOrigin(site: "\(fileID):\(line)", ownerType: String(describing: Owner.self))
        return add(range, owner: WeakReference(owner), origin: origin) { tick, owner in
            // The source loaded the owner from the weak reference and keeps it alive for this call.
            handler(unsafeDowncast(owner!, to: Owner.self), tick)
        }
    }

    /// Subscribes a handler owned by the returned handle: releasing the handle cancels the subscription,
    /// like `AnyCancellable`. Keep the handle, for example in a property.
    ///
    /// If the handler captures the object that keeps the handle, capture it weakly, or use `owner:`.
    /// Otherwise as ``subscribe(_:owner:fileID:line:_:)-356qd``.
    public func subscribe(
        _ range: FrameRateRange = .native,
        fileID: String = #fileID,
        line: Int = #line,
        _ handler: @escaping @Sendable (FrameTick) -> Void
    ) -> FrameSubscription {
        add(range, owner: nil, origin: FrameOrigin(site: "\(fileID):\(line)", ownerType: nil)) { tick, _ in
            handler(tick)
        }
    }

    private func add(
        _ range: FrameRateRange,
        owner: WeakReference?,
        origin: FrameOrigin,
        handler: @escaping FrameHandler
    ) -> FrameSubscription {
        if !range.adjustments.isEmpty {
            Diagnostics.warn("frame subscription at \(origin.site): " + range.adjustments.joined(separator: "; "))
        }
        let divisor = range.frameInterval(forRefreshRate: refreshRate)
        let binding: Lifetime.Binding = owner == nil ? .handle : .owner
        let subscriber = FrameSourceState.Subscriber(
            state: .running, divisor: Int64(divisor), binding: binding, owner: owner, handler: handler,
            origin: origin, createdAt: driver.now())
        let id = transition { state, after in state.insert(subscriber, into: &after) }
        if owner != nil {
            // For the replacement rule: an owner-bound handle this thread releases next may be its elder.
            Lifetime.LastBoundCreation.record(in: self, slot: Int64(id.slot), serial: id.serial)
        }
        return FrameSubscription(
            source: self, id: id, binding: binding, owner: owner, range: range, frameInterval: divisor)
    }

    // MARK: Lifecycle (any thread, any state)

    /// Applies a lifecycle call.
    func perform(_ command: FrameSourceState.Command, on id: FrameSubscriberID) {
        transition { state, after in state.perform(command, on: id, into: &after) }
    }

    /// The handle of subscriber `id` went away, asking for `release`. Released on the thread that has just
    /// made a sibling (same call site, same owner), a running owner-bound subscription was replaced and
    /// stops (see `Lifetime.LastBoundCreation`).
    func release(_ release: Lifetime.Release, of id: FrameSubscriberID) {
        guard release != .nothing else { return }
        let now = driver.now()
        let sibling = release == .keepIfRunning ? Lifetime.LastBoundCreation.latest(in: self) : nil
        let siblingID = sibling.map { FrameSubscriberID(slot: Int32(truncatingIfNeeded: $0.slot), serial: $0.serial) }
        transition { state, after in state.release(release, of: id, now: now, sibling: siblingID, into: &after) }
    }

    /// The state of subscriber `id`; O(1) (see `FrameSourceState.state(of:into:)`).
    func subscriberState(_ id: FrameSubscriberID) -> TickerState {
        transition { state, after in state.state(of: id, into: &after) }
    }

    /// The first broken invariant of the subscriber storage, or nil (for tests).
    func storageInvariantViolation() -> String? {
        state.withLock { $0.invariantViolation() }
    }

    /// What the subscriber storage holds: pages, allocated pages, slots handed out in them and the slots
    /// their storage has room for (for tests and probes).
    var storageUsage: SlotStoreUsage {
        state.withLock { $0.storageUsage }
    }

    /// Runs `body` under the lock, then does what it decided. The aftermath — removed handlers, owners
    /// loaded under the lock — is released when this returns, outside the lock and before the caller goes
    /// on (an owner loaded here must not live on through a refresh's handler calls).
    private func transition<Result>(
        _ body: (inout FrameSourceState, inout FrameSourceState.Aftermath) -> Result
    ) -> Result {
        var after = FrameSourceState.Aftermath()
        let result = withState { body(&$0, &after) }
        finish(after)
        return result
    }

    /// Runs one locked transition of the state. Built with `TIMERKIT_CHECKED`, the invariants of the
    /// subscribers' store and order are checked before unlocking (at the cadence `CheckedCadence` sets), and
    /// a broken one stops the program.
    @inline(__always)
    private func withState<Result>(_ body: (inout FrameSourceState) -> Result) -> Result {
        state.withLock { state in
            let result = body(&state)
            #if TIMERKIT_CHECKED
                if state.checkedCadence.isDue(slots: state.slotCount), let broken = state.invariantViolation() {
                    preconditionFailure("TimerKit checked build: frame source invariant broken: \(broken)")
                }
            #endif
            return result
        }
    }

    private func finish(_ after: FrameSourceState.Aftermath) {
        after.stop?()
        if let epoch = after.start {
            let stop = driver.start(for: self)
            if !withState({ $0.install(stop, epoch: epoch) }) { stop() }
        }
        if let origin = after.neverFires {
            Diagnostics.warn(
                Lifetime.neverFiresWarning("frame subscription", site: origin.site, handleType: "FrameSubscription"))
        }
        if TickerDiagnostics.logsOwnerRelease {
            for origin in after.ownersGone {
                Diagnostics.log(
                    Lifetime.ownerGoneLine(
                        "frame subscription", site: origin.site, binding: .owner, ownerType: origin.ownerType,
                        context: context.description))
            }
        }
    }

    // MARK: Refreshes (on the context)

    /// Called by the driver on the context for refresh `index` (its instant `timestamp`): delivers every
    /// due subscriber's frame, one at a time, each decided under the lock right before its call (and
    /// stamped with the driver's clock, read just before).
    func refresh(index: Int64, timestamp: Int64) {
        let due = transition { state, after in state.beginRefresh(index, into: &after) }
        for id in due ?? [] {
            // The delivery, and the owner it carries, are released at the end of each iteration: after
            // the call, before the next subscriber's.
            let now = driver.now()
            let delivery = withState {
                $0.delivery(for: id, refresh: index, at: timestamp, grid: grid, now: now)
            }
            switch delivery {
            case .skip:
                continue
            case let .deliver(handler, tick, owner):
                handler(tick, owner)
            case .stopped(let after):
                finish(after)
            }
        }
    }
}
