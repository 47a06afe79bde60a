import Foundation

/// Delivers the latest of a burst of values once the values stop coming for `interval`: search as you
/// type, autosave, re-layout after a resize.
///
/// Values are sent from any thread with ``send(_:)``; the handler receives them on a ``TickerContext``.
/// The debouncer waits with ordinary TimerKit tickers (one at a time, re-armed as needed), so it shares its
/// context's single alarm with every other ticker there, and virtual time drives it in tests.
///
/// ```swift
/// @MainActor
/// final class SearchModel {
///     private(set) var results: [String] = []
///     // The owner is held weakly and handed to the handler: nothing to capture, no cycle.
///     lazy var queries = Debouncer<String>(interval: .milliseconds(300), owner: self) { model, query in
///         model.search(query)
///     }
///
///     func textChanged(_ text: String) { queries.send(text) }
///     func search(_ query: String) { results = [query] }
/// }
/// ```
///
/// **Bursts and edges.** A *burst* starts with a value sent while the debouncer is quiet, and lasts until
/// `interval` passes without a send. ``edges`` chooses what it delivers:
/// - ``RateLimitEdges/trailing`` (the default): when the burst goes quiet, its latest value. The deadline
///   is `t + interval`, where `t` is the instant of the burst's last ``send(_:)`` call, so every send
///   moves it.
/// - ``RateLimitEdges/leading``: the value that starts the burst, at once; the rest of the burst is
///   dropped. The next value sent after the burst has gone quiet starts a new burst.
/// - ``RateLimitEdges/leadingAndTrailing``: both. The trailing delivery happens only if another value was
///   sent after the leading one, so a lone value is delivered once.
///
/// "At once" means as soon as the context runs it: never on the sending thread, never inside
/// ``send(_:)``.
///
/// **maxWait.** With a `maxWait`, a burst that goes on and on still delivers: the latest pending value is
/// delivered no later than `maxWait` after the previous delivery, or after the burst's first value if
/// nothing was delivered yet (lodash's `maxWait`). The burst goes on afterwards (it makes no new leading
/// delivery). This applies whatever the edges.
///
/// **Timing.** Every instant is read from the time base (the monotonic clock, or virtual time) when the
/// call is made; deliveries are never early. A delivery runs when its context runs it: at its deadline,
/// or later if the context is busy. A late wake-up never loses, merges or reorders values: it delivers
/// what an on-time one would have, in the same order (a `maxWait` then counts from the late delivery).
///
/// **Threads.** Every method is safe from any thread and from inside the handler. The handler runs on the
/// context — the dispatch queue or the run loop's thread, under virtual time too (the advance waits for
/// it) — one delivery at a time, in the order the deliveries were decided, and never while a TimerKit
/// lock is held.
///
/// **Lifetime.** Like ``Ticker``, a debouncer has exactly one owner:
/// - *owner-bound* (`owner:`): the owner is held weakly and handed to the handler. Nothing is delivered
///   once the owner has gone away: it is loaded right before each delivery, and a failed load stops the
///   debouncer instead. The debouncer then cancels itself, releasing its pending value and its ticker:
///   at once when the owner held the debouncer (the usual case, as above); otherwise as soon as TimerKit
///   notices — at the pending deadline, in the engine's sweep for dead owners, or at the next call.
///   Values sent afterwards are dropped. Releasing an owner-bound debouncer while its owner lives does
///   not drop a pending value: it is still delivered (as a running owner-bound ticker keeps running
///   without its handle).
/// - *handle-owned* (no `owner:`): releasing the debouncer cancels it, like `AnyCancellable`. If the
///   handler captures the object that keeps the debouncer, capture it weakly, or use `owner:`.
///
/// **Cancel.** ``cancel()`` stops the debouncer for good and drops its pending value; values sent
/// afterwards are dropped at once and never delivered. It gives ``Ticker/cancel()``'s guarantee: once
/// it returns, no further delivery is decided; called from inside the handler it is exact, while from
/// another thread a delivery already decided may still run once. To drop the pending value and keep
/// debouncing, use ``discardPending()``.
///
/// **Input.** A negative `interval` becomes zero; with a zero interval every value is its own burst, so
/// every value is delivered, in order. A `maxWait` shorter than `interval` is raised to `interval`. Durations beyond
/// about 292 years saturate: deadlines that wait for them never come (only ``flush()`` delivers). Each
/// clamp is logged in debug builds.
public final class Debouncer<Value: Sendable>: Sendable, CustomStringConvertible {
    typealias Core = RateLimiterCore<DebounceMachine<Value>>

    let core: Core

    /// The quiet period that ends a burst (after clamping).
    public let interval: Duration
    /// The longest a pending value waits while a burst goes on (after clamping); `nil` for no limit.
    public let maxWait: Duration?
    /// Which edges of a burst deliver.
    public let edges: RateLimitEdges
    /// For the actor form: the inbox its deliveries go through, cleared by `cancel()` and
    /// `discardPending()` as well.
    private let actorInput: ActorInbox<Value>.Input?

    private init(
        interval: Duration,
        maxWait: Duration?,
        edges: RateLimitEdges,
        context: TickerContext,
        owner: WeakReference?,
        site: String,
        actorInput: ActorInbox<Value>.Input? = nil,
        arm: @escaping Core.Arm
    ) {
        self.actorInput = actorInput
        let quiet = RateLimitInput.nanoseconds(interval, "interval", site: site)
        let limit = RateLimitInput.maxWait(maxWait, interval: quiet, site: site)
        self.interval = .nanoseconds(quiet)
        self.maxWait = limit.map { .nanoseconds($0) }
        self.edges = edges
        core = RateLimiterCore(
            machine: DebounceMachine(interval: quiet, maxWait: limit, edges: edges),
            context: context,
            owner: owner,
            arm: arm
        )
    }

    deinit { core.handleReleased() }

    // MARK: Owner-bound

    /// Creates a debouncer bound to `owner`: the owner is held weakly and handed to the handler, so the
    /// handler has no reason to capture it.
    ///
    /// Nothing is delivered once the owner has gone away (see the type's summary). The handler runs on
    /// `context`'s thread or queue, so the owner must be `Sendable`; for `@MainActor` owners use the
    /// main-actor form (no `on:`), whose handler is isolated to the main actor.
    ///
    /// - Parameters:
    ///   - interval: the quiet period that ends a burst; negative values become zero.
    ///   - edges: which edges of a burst deliver; ``RateLimitEdges/trailing`` by default.
    ///   - maxWait: the longest a pending value waits while a burst goes on; `nil` (the default) for no
    ///     limit. Raised to `interval` when shorter.
    ///   - context: where the handler runs.
    ///   - owner: the object whose lifetime bounds the debouncer; never retained.
    ///   - fileID: the creation site shown by diagnostics for the debouncer's tickers (filled in by the
    ///     compiler).
    ///   - line: the creation site's line (filled in by the compiler).
    ///   - handler: called on `context` with the owner and a value; never while a TimerKit lock is held.
    public convenience init<Owner: AnyObject & Sendable>(
        interval: Duration,
        edges: RateLimitEdges = .trailing,
        maxWait: Duration? = nil,
        on context: TickerContext,
        owner: Owner,
        fileID: String = #fileID,
        line: Int = #line,
        _ handler: @escaping @Sendable (Owner, Value) -> Void
    ) {
        let reference = WeakReference(owner)
        self.init(
            interval: interval, maxWait: maxWait, edges: edges, context: context, owner: reference,
            site: "Debouncer at \(fileID):\(line)",
            arm: Core.ownerBoundArm(owner: reference, as: Owner.self, on: context, fileID: fileID, line: line, handler)
        )
    }

    // MARK: Handle-owned

    /// Creates a debouncer owned by the returned object: releasing it cancels the debouncer and drops its
    /// pending value. Keep it, for example in a property.
    ///
    /// If the handler captures the object that keeps the debouncer, capture it weakly, or use `owner:`.
    ///
    /// - Parameters:
    ///   - interval: the quiet period that ends a burst; negative values become zero.
    ///   - edges: which edges of a burst deliver; ``RateLimitEdges/trailing`` by default.
    ///   - maxWait: the longest a pending value waits while a burst goes on; `nil` (the default) for no
    ///     limit. Raised to `interval` when shorter.
    ///   - context: where the handler runs.
    ///   - fileID: the creation site shown by diagnostics (filled in by the compiler).
    ///   - line: the creation site's line (filled in by the compiler).
    ///   - handler: called on `context` with each delivered value; never while a TimerKit lock is held.
    public convenience init(
        interval: Duration,
        edges: RateLimitEdges = .trailing,
        maxWait: Duration? = nil,
        on context: TickerContext,
        fileID: String = #fileID,
        line: Int = #line,
        _ handler: @escaping @Sendable (Value) -> Void
    ) {
        self.init(
            interval: interval, maxWait: maxWait, edges: edges, context: context, owner: nil,
            site: "Debouncer at \(fileID):\(line)",
            arm: Core.handleOwnedArm(on: context, fileID: fileID, line: line, handler)
        )
    }

    // MARK: Main actor

    /// Creates a debouncer bound to a main-actor `owner` (leave out `on:` and you are on the main actor),
    /// delivering on the main run loop in `modes`, isolated to the main actor. The owner is held weakly; otherwise as the form with `on:`.
    ///
    /// On Linux the main thread must run `RunLoop.main` for deliveries to happen; under virtual time,
    /// advance it from the main thread.
    ///
    /// - Parameters:
    ///   - interval: the quiet period that ends a burst; negative values become zero.
    ///   - edges: which edges of a burst deliver; ``RateLimitEdges/trailing`` by default.
    ///   - maxWait: the longest a pending value waits while a burst goes on; `nil` (the default) for no
    ///     limit. Raised to `interval` when shorter.
    ///   - modes: the main run loop's modes deliveries wait for; default `[.common]`.
    ///   - owner: the object whose lifetime bounds the debouncer; never retained.
    ///   - fileID: the creation site shown by diagnostics (filled in by the compiler).
    ///   - line: the creation site's line (filled in by the compiler).
    ///   - handler: called on the main actor with the owner and a value.
    @MainActor
    public convenience init<Owner: AnyObject>(
        interval: Duration,
        edges: RateLimitEdges = .trailing,
        maxWait: Duration? = nil,
        modes: [RunLoop.Mode] = [.common],
        owner: Owner,
        fileID: String = #fileID,
        line: Int = #line,
        _ handler: @escaping @MainActor (Owner, Value) -> Void
    ) {
        let reference = WeakReference(owner)
        self.init(
            interval: interval, maxWait: maxWait, edges: edges, context: .runLoop(.main, modes: modes),
            owner: reference,
            site: "Debouncer at \(fileID):\(line)",
            arm: Core.mainActorOwnerBoundArm(
                owner: reference, as: Owner.self, on: .runLoop(.main, modes: modes), fileID: fileID, line: line, handler
            )
        )
    }

    /// Creates a handle-owned debouncer delivering on the main run loop in `modes`, isolated to the main
    /// actor. Releasing it cancels; otherwise as the form with `on:`.
    ///
    /// - Parameters:
    ///   - interval: the quiet period that ends a burst; negative values become zero.
    ///   - edges: which edges of a burst deliver; ``RateLimitEdges/trailing`` by default.
    ///   - maxWait: the longest a pending value waits while a burst goes on; `nil` (the default) for no
    ///     limit. Raised to `interval` when shorter.
    ///   - modes: the main run loop's modes deliveries wait for; default `[.common]`.
    ///   - fileID: the creation site shown by diagnostics (filled in by the compiler).
    ///   - line: the creation site's line (filled in by the compiler).
    ///   - handler: called on the main actor with each delivered value.
    @MainActor
    public convenience init(
        interval: Duration,
        edges: RateLimitEdges = .trailing,
        maxWait: Duration? = nil,
        modes: [RunLoop.Mode] = [.common],
        fileID: String = #fileID,
        line: Int = #line,
        _ handler: @escaping @MainActor (Value) -> Void
    ) {
        self.init(
            interval: interval, maxWait: maxWait, edges: edges, context: .runLoop(.main, modes: modes), owner: nil,
            site: "Debouncer at \(fileID):\(line)",
            arm: Core.mainActorHandleOwnedArm(on: .runLoop(.main, modes: modes), fileID: fileID, line: line, handler)
        )
    }

    // MARK: Actor

    /// Creates a debouncer bound to the actor `owner`, whose handler is isolated to it: the actor is held
    /// weakly and passed to the handler as its `isolated` parameter, so the handler changes the actor's
    /// state directly, without `await`.
    ///
    /// The debouncer's wake-ups run on TimerKit's shared precise context, which only hands each value to
    /// the actor; one task per debouncer calls the handler on the actor's executor, in order, one call at a
    /// time. A value decided while the actor is still busy with the previous one replaces a value still
    /// waiting for the actor (the latest wins, as in a burst). ``cancel()`` and ``discardPending()``
    /// called on the actor are exact: nothing decided before them is delivered afterwards. Nothing is
    /// delivered once the actor has gone away. Under `TimerKitTesting`'s virtual time, the async
    /// `advance` waits until the actor has run the handler.
    ///
    /// - Parameters:
    ///   - interval: the quiet period that ends a burst; negative values become zero.
    ///   - edges: which edges of a burst deliver; ``RateLimitEdges/trailing`` by default.
    ///   - maxWait: the longest a pending value waits while a burst goes on; `nil` (the default) for no
    ///     limit. Raised to `interval` when shorter.
    ///   - owner: the actor whose lifetime bounds the debouncer and to which the handler is isolated; never
    ///     retained.
    ///   - fileID: the creation site shown by diagnostics (filled in by the compiler).
    ///   - line: the creation site's line (filled in by the compiler).
    ///   - handler: called isolated to `owner` with the owner and a value.
    public convenience init<Owner: Actor>(
        interval: Duration,
        edges: RateLimitEdges = .trailing,
        maxWait: Duration? = nil,
        owner: Owner,
        fileID: String = #fileID,
        line: Int = #line,
        _ handler: @escaping @Sendable (isolated Owner, Value) -> Void
    ) {
        let (arm, input) = Core.actorBoundArm(owner: owner, fileID: fileID, line: line, handler)
        self.init(
            interval: interval, maxWait: maxWait, edges: edges, context: EngineWait.context,
            owner: WeakReference(owner), site: "Debouncer at \(fileID):\(line)", actorInput: input, arm: arm)
    }

    // MARK: Sending

    /// Sends a value: it becomes the burst's latest value, replacing (and releasing) the one pending.
    ///
    /// Starts a burst if the debouncer is quiet (with a leading edge, this value is then delivered as
    /// soon as the context runs); otherwise moves the trailing deadline to `interval` after this call.
    /// Never calls the handler on the calling thread. After ``cancel()``, or once the owner has gone
    /// away, the value is dropped at once.
    public func send(_ value: Value) {
        core.update { machine, now, dropped in machine.receive(value, at: now, dropping: &dropped) }
    }

    /// Delivers the pending value now, on the context, whatever the edges.
    ///
    /// The value pending when `flush()` is called is delivered as soon as the context runs (never on the
    /// calling thread, even when called on the context); values sent after the call wait for their own
    /// deadline. The burst goes on: its quiet deadline does not move, it makes no new leading delivery,
    /// and `maxWait` counts from this call. Does nothing when no value is pending, after ``cancel()``, or
    /// once the owner has gone away.
    public func flush() {
        core.update { machine, now, dropped in machine.flush(at: now, dropping: &dropped) }
    }

    /// Drops the pending value (and any value decided but not yet delivered) and ends the burst, without
    /// stopping the debouncer: the next value sent starts a new burst (with a leading edge, it is
    /// delivered at once). lodash calls this `cancel`.
    public func discardPending() {
        core.update { machine, _, dropped in machine.discardAll(dropping: &dropped) }
        actorInput?.discardPending()
    }

    /// Stops the debouncer for good and drops its pending value; see the type's summary for the exact
    /// guarantee. Values sent afterwards are dropped, and ``flush()`` does nothing. Releases the armed
    /// ticker at once. Safe to call twice, from any thread, and from inside the handler.
    public func cancel() {
        core.cancel()
        actorInput?.close()
    }

    // MARK: State

    /// Whether the debouncer has stopped for good: ``cancel()`` was called, or its owner has gone away.
    public var isCancelled: Bool { core.isCancelled || core.ownerIsGone }

    /// Whether a value waits for delivery: pending in the burst, or decided and waiting for the context.
    /// (A value that falls on a trailing edge that is off still counts until its burst goes quiet.)
    public var hasPendingValue: Bool { core.hasPendingValue }

    /// The context the handler runs on.
    public var context: TickerContext { core.context }

    /// A short human-readable description, for logs and test output.
    public var description: String {
        var text = "Debouncer(interval: \(interval), edges: \(edges)"
        if let maxWait { text += ", maxWait: \(maxWait)" }
        text += ", on: \(context)"
        if isCancelled { text += ", cancelled" }
        return text + ")"
    }
}
