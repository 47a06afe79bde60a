import Foundation

/// Delivers at most one value per `interval` from a stream of values: scroll and drag handlers, progress
/// reports, analytics pings.
///
/// Values are sent from any thread with ``send(_:)``; the handler receives them on a ``TickerContext``.
/// The throttler waits with ordinary TimerKit tickers, so it shares its context's single alarm with every
/// other ticker there, and virtual time drives it in tests.
///
/// ```swift
/// final class UploadMonitor {
///     private(set) var shown = 0.0
///     // At most ten progress updates a second, on the queue; the owner is held weakly.
///     lazy var progress = Throttler<Double>(
///         interval: .milliseconds(100), on: .dispatch(queue), owner: self
///     ) { monitor, fraction in
///         monitor.shown = fraction
///     }
///     let queue = DispatchQueue(label: "upload.monitor")
/// }
/// ```
///
/// **Windows and edges.** A *window* of `interval` opens when a value is sent while no window is open,
/// and again at every trailing delivery. ``edges`` chooses what is delivered:
/// - ``RateLimitEdges/leadingAndTrailing`` (the default): the value that opens a window at once; then, if
///   values came during the window, the latest of them when it ends, which opens the next window. So the
///   first value of a quiet spell is never delayed, the last value of a stream is never lost, and
///   deliveries are decided at least `interval` apart.
/// - ``RateLimitEdges/leading``: the value that opens a window at once; values sent while it is open are
///   dropped.
/// - ``RateLimitEdges/trailing``: nothing at once; when the window ends, the latest value sent since it
///   opened (the value that opened it included). Each value is delivered at most `interval` after it
///   was sent, or replaced by a later one.
///
/// "At once" means as soon as the context runs it: never on the sending thread, never inside
/// ``send(_:)``. A window that ends with nothing pending closes, and the next value opens a new one.
///
/// **Timing.** Every instant is read from the time base (the monotonic clock, or virtual time) when the
/// call is made. A window that opens with a send runs from that ``send(_:)`` call; one that opens with a
/// trailing delivery runs from the instant that delivery was decided (its window's end, or later if the
/// context was busy). Deliveries are never early. A delivery runs when its context runs it, and a late
/// wake-up never loses or reorders values: it delivers what an on-time one would have, in the same order.
///
/// **Threads.** Every method is safe from any thread and from inside the handler. The handler runs on the
/// context — the dispatch queue or the run loop's thread, under virtual time too (the advance waits for
/// it) — one delivery at a time, in the order the deliveries were decided, and never while a TimerKit
/// lock is held.
///
/// **Lifetime.** As for ``Debouncer``: an owner-bound throttler (`owner:`) holds its owner weakly and
/// hands it to the handler. Nothing is delivered once the owner has gone away; the throttler then
/// cancels itself, releasing its pending value and its ticker — at once when the owner held the
/// throttler, otherwise as soon as TimerKit notices (the pending deadline, a dead-owner sweep, the next
/// call) — and drops values sent afterwards. Released while its owner lives, an owner-bound throttler
/// still delivers a pending value. A handle-owned throttler is cancelled when it is released.
///
/// **Cancel.** ``cancel()`` stops the throttler for good and drops its pending value; values sent
/// afterwards are dropped at once and never delivered. It gives ``Ticker/cancel()``'s guarantee: once it
/// returns, no further delivery is decided; called from inside the handler it is exact, while from
/// another thread a delivery already decided may still run once. To drop the pending value and keep
/// throttling, use ``discardPending()``.
///
/// **Input.** A negative `interval` becomes zero (every value is then delivered, those sent before the
/// context runs one after the other). An interval beyond about 292 years saturates: the first window
/// never ends. Each clamp is logged in debug builds.
public final class Throttler<Value: Sendable>: Sendable, CustomStringConvertible {
    typealias Core = RateLimiterCore<ThrottleMachine<Value>>

    let core: Core

    /// The window length: the least time between two deliveries' decisions (after clamping).
    public let interval: Duration
    /// Which edges of a window deliver.
    public let edges: RateLimitEdges
    /// For the actor form: the inbox its deliveries go through, cleared by `cancel()` and
    /// `discardPending()` as well.
    private let actorInput: ActorInbox<Value>.Input?

    private init(
        interval: Duration,
        edges: RateLimitEdges,
        context: TickerContext,
        owner: WeakReference?,
        site: String,
        actorInput: ActorInbox<Value>.Input? = nil,
        arm: @escaping Core.Arm
    ) {
        self.actorInput = actorInput
        let window = RateLimitInput.nanoseconds(interval, "interval", site: site)
        self.interval = .nanoseconds(window)
        self.edges = edges
        core = RateLimiterCore(
            machine: ThrottleMachine(interval: window, edges: edges),
            context: context,
            owner: owner,
            arm: arm
        )
    }

    deinit { core.handleReleased() }

    // MARK: Owner-bound

    /// Creates a throttler bound to `owner`: the owner is held weakly and handed to the handler, so the
    /// handler has no reason to capture it.
    ///
    /// Nothing is delivered once the owner has gone away (see the type's summary). The handler runs on
    /// `context`'s thread or queue, so the owner must be `Sendable`; for `@MainActor` owners use the
    /// main-actor form (no `on:`), whose handler is isolated to the main actor.
    ///
    /// - Parameters:
    ///   - interval: the window length; negative values become zero.
    ///   - edges: which edges of a window deliver; ``RateLimitEdges/leadingAndTrailing`` by default.
    ///   - context: where the handler runs.
    ///   - owner: the object whose lifetime bounds the throttler; never retained.
    ///   - fileID: the creation site shown by diagnostics for the throttler's tickers (filled in by the
    ///     compiler).
    ///   - line: the creation site's line (filled in by the compiler).
    ///   - handler: called on `context` with the owner and a value; never while a TimerKit lock is held.
    public convenience init<Owner: AnyObject & Sendable>(
        interval: Duration,
        edges: RateLimitEdges = .leadingAndTrailing,
        on context: TickerContext,
        owner: Owner,
        fileID: String = #fileID,
        line: Int = #line,
        _ handler: @escaping @Sendable (Owner, Value) -> Void
    ) {
        let reference = WeakReference(owner)
        self.init(
            interval: interval, edges: edges, context: context, owner: reference,
            site: "Throttler at \(fileID):\(line)",
            arm: Core.ownerBoundArm(owner: reference, as: Owner.self, on: context, fileID: fileID, line: line, handler)
        )
    }

    // MARK: Handle-owned

    /// Creates a throttler owned by the returned object: releasing it cancels the throttler and drops its
    /// pending value. Keep it, for example in a property.
    ///
    /// If the handler captures the object that keeps the throttler, capture it weakly, or use `owner:`.
    ///
    /// - Parameters:
    ///   - interval: the window length; negative values become zero.
    ///   - edges: which edges of a window deliver; ``RateLimitEdges/leadingAndTrailing`` by default.
    ///   - context: where the handler runs.
    ///   - fileID: the creation site shown by diagnostics (filled in by the compiler).
    ///   - line: the creation site's line (filled in by the compiler).
    ///   - handler: called on `context` with each delivered value; never while a TimerKit lock is held.
    public convenience init(
        interval: Duration,
        edges: RateLimitEdges = .leadingAndTrailing,
        on context: TickerContext,
        fileID: String = #fileID,
        line: Int = #line,
        _ handler: @escaping @Sendable (Value) -> Void
    ) {
        self.init(
            interval: interval, edges: edges, context: context, owner: nil,
            site: "Throttler at \(fileID):\(line)",
            arm: Core.handleOwnedArm(on: context, fileID: fileID, line: line, handler)
        )
    }

    // MARK: Main actor

    /// Creates a throttler bound to a main-actor `owner` (leave out `on:` and you are on the main actor),
    /// delivering on the main run loop in `modes`, isolated to the main actor. The owner is held weakly; otherwise as the form with `on:`.
    ///
    /// On Linux the main thread must run `RunLoop.main` for deliveries to happen; under virtual time,
    /// advance it from the main thread.
    ///
    /// - Parameters:
    ///   - interval: the window length; negative values become zero.
    ///   - edges: which edges of a window deliver; ``RateLimitEdges/leadingAndTrailing`` by default.
    ///   - modes: the main run loop's modes deliveries wait for; default `[.common]`.
    ///   - owner: the object whose lifetime bounds the throttler; never retained.
    ///   - fileID: the creation site shown by diagnostics (filled in by the compiler).
    ///   - line: the creation site's line (filled in by the compiler).
    ///   - handler: called on the main actor with the owner and a value.
    @MainActor
    public convenience init<Owner: AnyObject>(
        interval: Duration,
        edges: RateLimitEdges = .leadingAndTrailing,
        modes: [RunLoop.Mode] = [.common],
        owner: Owner,
        fileID: String = #fileID,
        line: Int = #line,
        _ handler: @escaping @MainActor (Owner, Value) -> Void
    ) {
        let reference = WeakReference(owner)
        self.init(
            interval: interval, edges: edges, context: .runLoop(.main, modes: modes), owner: reference,
            site: "Throttler at \(fileID):\(line)",
            arm: Core.mainActorOwnerBoundArm(
                owner: reference, as: Owner.self, on: .runLoop(.main, modes: modes), fileID: fileID, line: line, handler
            )
        )
    }

    /// Creates a handle-owned throttler delivering on the main run loop in `modes`, isolated to the main
    /// actor. Releasing it cancels; otherwise as the form with `on:`.
    ///
    /// - Parameters:
    ///   - interval: the window length; negative values become zero.
    ///   - edges: which edges of a window deliver; ``RateLimitEdges/leadingAndTrailing`` by default.
    ///   - modes: the main run loop's modes deliveries wait for; default `[.common]`.
    ///   - fileID: the creation site shown by diagnostics (filled in by the compiler).
    ///   - line: the creation site's line (filled in by the compiler).
    ///   - handler: called on the main actor with each delivered value.
    @MainActor
    public convenience init(
        interval: Duration,
        edges: RateLimitEdges = .leadingAndTrailing,
        modes: [RunLoop.Mode] = [.common],
        fileID: String = #fileID,
        line: Int = #line,
        _ handler: @escaping @MainActor (Value) -> Void
    ) {
        self.init(
            interval: interval, edges: edges, context: .runLoop(.main, modes: modes), owner: nil,
            site: "Throttler at \(fileID):\(line)",
            arm: Core.mainActorHandleOwnedArm(on: .runLoop(.main, modes: modes), fileID: fileID, line: line, handler)
        )
    }

    // MARK: Actor

    /// Creates a throttler bound to the actor `owner`, whose handler is isolated to it: the actor is held
    /// weakly and passed to the handler as its `isolated` parameter, so the handler changes the actor's
    /// state directly, without `await`.
    ///
    /// The throttler's wake-ups run on TimerKit's shared precise context, which only hands each value to
    /// the actor; one task per throttler calls the handler on the actor's executor, in order, one call at a
    /// time. A value decided while the actor is still busy with the previous one replaces a value still
    /// waiting for the actor (the latest wins, as in a burst). ``cancel()`` and ``discardPending()``
    /// called on the actor are exact: nothing decided before them is delivered afterwards. Nothing is
    /// delivered once the actor has gone away. Under `TimerKitTesting`'s virtual time, the async
    /// `advance` waits until the actor has run the handler.
    ///
    /// - Parameters:
    ///   - interval: the window length; negative values become zero.
    ///   - edges: which edges of a window deliver; ``RateLimitEdges/leadingAndTrailing`` by default.
    ///   - owner: the actor whose lifetime bounds the throttler and to which the handler is isolated; never
    ///     retained.
    ///   - fileID: the creation site shown by diagnostics (filled in by the compiler).
    ///   - line: the creation site's line (filled in by the compiler).
    ///   - handler: called isolated to `owner` with the owner and a value.
    public convenience init<Owner: Actor>(
        interval: Duration,
        edges: RateLimitEdges = .leadingAndTrailing,
        owner: Owner,
        fileID: String = #fileID,
        line: Int = #line,
        _ handler: @escaping @Sendable (isolated Owner, Value) -> Void
    ) {
        let (arm, input) = Core.actorBoundArm(owner: owner, fileID: fileID, line: line, handler)
        self.init(
            interval: interval, edges: edges, context: EngineWait.context, owner: WeakReference(owner),
            site: "Throttler at \(fileID):\(line)", actorInput: input, arm: arm)
    }

    // MARK: Sending

    /// Sends a value.
    ///
    /// With no window open, it opens one: with a leading edge the value is delivered as soon as the
    /// context runs, otherwise it waits for the window's end. Inside an open window it becomes the
    /// pending value, replacing (and releasing) the previous one, or is dropped when the trailing edge is
    /// off. Never calls the handler on the calling thread. After ``cancel()``, or once the owner has gone
    /// away, the value is dropped at once.
    public func send(_ value: Value) {
        core.update { machine, now, dropped in machine.receive(value, at: now, dropping: &dropped) }
    }

    /// Drops the pending value (and any value decided but not yet delivered), without stopping the
    /// throttler. An open window stays open, so the next delivery still comes no earlier than its end.
    public func discardPending() {
        core.update { machine, _, dropped in machine.discardAll(dropping: &dropped) }
        actorInput?.discardPending()
    }

    /// Stops the throttler for good and drops its pending value; see the type's summary for the exact
    /// guarantee. Values sent afterwards are dropped. Releases the armed ticker at once. Safe to call
    /// twice, from any thread, and from inside the handler.
    public func cancel() {
        core.cancel()
        actorInput?.close()
    }

    // MARK: State

    /// Whether the throttler has stopped for good: ``cancel()`` was called, or its owner has gone away.
    public var isCancelled: Bool { core.isCancelled || core.ownerIsGone }

    /// Whether a value waits for delivery: pending for a window's end, or decided and waiting for the
    /// context.
    public var hasPendingValue: Bool { core.hasPendingValue }

    /// The context the handler runs on.
    public var context: TickerContext { core.context }

    /// A short human-readable description, for logs and test output.
    public var description: String {
        "Throttler(interval: \(interval), edges: \(edges), on: \(context)" + (isCancelled ? ", cancelled)" : ")")
    }
}
