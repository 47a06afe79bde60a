import Foundation

/// A handle to one ticker: a repeating, counted, countdown or one-shot schedule of handler calls on a
/// context (a run loop, a dispatch queue or a precise thread), bound to an owner that it never retains.
///
/// Create one with the `schedule` factories: bound to an owner (`owner:` and a closure that receives the
/// owner), target–action (`target:` and an unbound method reference such as `Screen.tick`), or owned by
/// this handle (a closure alone). The handler never has a reason to capture `self`, so no retain cycle
/// can be written.
///
/// **Lifetime.** An owner-bound or target–action ticker lives until its owner goes away, it is
/// cancelled, or its schedule ends; keeping the handle is optional (keep it to pause or cancel).
/// Releasing the handle of an owner-bound ticker that is paused or idle cancels it, since nothing could
/// resume or start it any more. A handle-owned ticker is cancelled when the handle is released, like
/// `AnyCancellable`.
///
/// **Replacing.** `countdown = Ticker.schedule(…, owner: self) { … }` done again stops the ticker it
/// replaces: when the handle of a running owner-bound ticker is released on the thread that has just
/// scheduled, at the same call site and for the same owner, a ticker that is still live, the released
/// one is cancelled. A handle discarded at creation is never replaced, and dropping a stored handle
/// without scheduling again (`countdown = nil`) leaves the ticker running until its owner goes.
///
/// **Threads.** Every method is safe from any thread, in any state, and from inside the handler. The
/// handler runs on the ticker's context; handlers on one context never overlap.
///
/// **Cancel.** Every delivery is decided under the engine's lock, and `cancel()` takes the same lock:
/// once `cancel()` returns, the engine decides no further delivery. Called from inside any handler of the
/// same context, or on the run loop's thread for a run-loop context, `cancel()` is therefore exact. Called
/// from another thread, it does not wait: a delivery the engine had already decided on may still start
/// just after `cancel()` returns, and runs to completion (as with any timer cancelled across threads).
/// The handler and everything it captures are released as soon as the ticker stops; no timer or
/// dispatch source is held per ticker.
public final class Ticker: Sendable, CustomStringConvertible {
    /// The engine, retained once by `init` and released once by `deinit`. Held unmanaged so that `deinit`
    /// can call it without the extra retain and release the compiler adds around a call on a stored
    /// reference during deinitialisation: an engine is weakly referenced (by its registry), so each of
    /// those goes through the reference-count side table's slow path.
    private let unmanagedEngine: Unmanaged<TickerEngine>
    var engine: TickerEngine { unmanagedEngine.takeUnretainedValue() }

    /// Calls `body` with the engine, without retaining it (this handle holds it; a retain and release of
    /// the engine take the side table's slow path).
    @inline(__always)
    func withEngine<Result>(_ body: (TickerEngine) -> Result) -> Result {
        unmanagedEngine._withUnsafeGuaranteedRef(body)
    }
    // The id's slot and the binding share one word (slots stay below 2^30): the instance is 32 bytes. A
    // bound handle keeps no weak owner of its own: the engine loads the record's when the handle goes.
    private let slotAndBinding: UInt32
    private let serial: UInt32

    init(engine: TickerEngine, id: TickerID, binding: Lifetime.Binding) {
        precondition(id.slot < 1 << 30, "TimerKit: more than 2^30 tickers on one context")
        self.unmanagedEngine = .passRetained(engine)
        self.slotAndBinding = id.slot | UInt32(binding.rawValue) << 30
        self.serial = id.serial
    }

    var id: TickerID { TickerID(slot: slotAndBinding & (1 << 30 - 1), serial: serial) }
    /// How this handle relates to its ticker: `.handle` owns it, `.owner` and `.target` are optional
    /// handles of a bound ticker, `.view` is a handle passed into a Foundation-style block.
    var binding: Lifetime.Binding { Lifetime.Binding(rawValue: UInt8(truncatingIfNeeded: slotAndBinding >> 30))! }

    deinit {
        let binding = binding
        if binding != .view {
            // A handle-owned ticker stops (released right after creation, it draws the "never fires"
            // warning); a bound one stops at once when its owner is being deinitialised (it held this
            // handle), and when it is idle or paused: the engine tells, under its lock, from the record's
            // weak owner.
            let id = id
            unmanagedEngine._withUnsafeGuaranteedRef { $0.handleReleased(id, binding: binding) }
        }
        unmanagedEngine.release()
    }

    // MARK: State

    /// The ticker's current state. A handle passed into a Foundation-style block reads `cancelled` once
    /// the ticker has stopped and its handle-owned record is gone.
    public var state: TickerState { withEngine { $0.tickerState(id) } ?? .cancelled }

    /// How many times the handler has been called.
    public var fireCount: Int { withEngine { $0.fireCount(id) } ?? 0 }

    /// The next instant the ticker waits for: its next deadline, or a pending ``fire()`` (which may be
    /// pending while idle or paused); `nil` when it waits for nothing.
    public var nextDeadline: TickInstant? { engine.snapshot(id)?.nextDeadline }

    /// The context the handler runs on.
    public var context: TickerContext { engine.context }

    /// A snapshot for diagnostics, or `nil` once a stopped ticker's record is gone.
    public var snapshot: TickerSnapshot? { engine.snapshot(id) }

    // MARK: Lifecycle

    /// Starts an `idle` ticker (created with `startsImmediately: false`): deadlines count from now.
    /// Does nothing in any other state.
    public func start() { withEngine { $0.perform(.start, on: id) } }

    /// Pauses a running ticker, keeping the time left to its next deadline. Does nothing in any other
    /// state (pausing twice is harmless). No system timer is suspended.
    public func pause() { withEngine { $0.perform(.pause, on: id) } }

    /// Resumes a paused ticker: its next deadline is the time left at ``pause()`` from now, and later
    /// deadlines follow at the interval from there. Does nothing in any other state: it does not start an
    /// `idle` ticker (use ``start()``), and resuming twice, or after cancel, is harmless.
    public func resume() { withEngine { $0.perform(.resume, on: id) } }

    /// Stops the ticker for good and releases its handler. Safe to call twice, from any thread, from
    /// inside the handler, and before the first deadline. See the type's summary for the exact guarantee.
    public func cancel() { withEngine { $0.perform(.cancel, on: id) } }

    /// Calls the handler as soon as the context can run it, out of schedule, without moving the
    /// schedule (`Tick.isManual` is true). Works while idle or paused (the ticker stays so) and does
    /// nothing once stopped. On a one-shot that has not fired yet — running, paused or idle — this is its
    /// one tick and the ticker finishes, as `Foundation.Timer.fire()` does. Never calls the handler on the
    /// calling thread.
    public func fire() { withEngine { $0.perform(.fire, on: id) } }

    /// A short human-readable description, for logs and test output.
    public var description: String {
        engine.snapshot(id)?.description ?? "Ticker(stopped, on \(engine.context))"
    }
}

/// A weak reference that may travel between threads, stored inline (no allocation of its own).
struct WeakReference: @unchecked Sendable {
    // Invariant: `object` is assigned once in init and only read afterwards (every holder stores the
    // struct in a `let`); weak loads are atomic in the Swift runtime. TimerKit never calls the object; it
    // only hands it to the user's handler on the context the user chose, and tests it for nil.
    weak var object: AnyObject?

    init(_ object: AnyObject?) {
        self.object = object
    }
}
