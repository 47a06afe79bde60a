/// The lifetime rules every handle-and-owner feature shares — tickers, frame subscriptions, debouncers and
/// throttlers — as pure functions: no lock, no clock, no logging. Tickers and frame subscriptions keep their
/// items in the one ``SlotStore`` and sweep it with the one ``OwnerSweeping`` sweep; each feature has its
/// own lock, asks these functions what to do under it, and does it (after unlocking, where user code may
/// run).
///
/// The rules, once:
/// - Which lifecycle call applies in which state (``transition(_:from:)``): a call that does not apply does
///   nothing.
/// - A handle is **bound** (owner-bound or target–action: a weakly held object defines the lifetime and the
///   handle is optional), **handle-owned** (releasing the handle cancels, like `AnyCancellable`), or a
///   **view** (a handle passed into a Foundation-style block: releasing it does nothing).
/// - Releasing the handle of a bound item that is paused or idle cancels it (nothing could resume or start
///   it any more); a running one keeps going, unless it was replaced: the releasing thread has just made a
///   live item at the same call site for the same owner (``LastBoundCreation``), as
///   `self.countdown = Ticker.schedule(…)` done again does. When the owner is being deinitialised (it held
///   the handle), its weak reference already reads nil: the item stops at once rather than at its next
///   delivery.
/// - A delivery of a bound item loads the owner first and keeps it alive for the call; a failed load
///   stops the item instead of calling it.
/// - Swift has no hook into another object's deinitialisation, so dead owners are also found by an
///   incremental round-robin sweep. Owners found alive are handed out, to be released after unlocking
///   (the last release runs the owner's `deinit`, which is user code).
/// - A handle-owned item released within ``neverFiresWindow`` of its creation, still running and never
///   delivered, is almost always a mistake (the handle lived in a local variable): it draws the "never
///   fires" warning.
enum Lifetime {
    /// How a handle relates to what it controls. One byte; its raw values fit in two bits.
    enum Binding: UInt8, Sendable, CaseIterable {
        /// A closure that receives the owner; the owner is held weakly and defines the lifetime.
        case owner = 0
        /// Target–action with an unbound method reference; the target is held weakly and defines the
        /// lifetime.
        case target = 1
        /// A closure owned by the handle: releasing the handle cancels.
        case handle = 2
        /// A non-owning handle passed into a Foundation-style block: releasing it does nothing.
        case view = 3

        /// Whether a weakly held owner (or target) defines the lifetime.
        @inline(__always)
        var isBound: Bool { self == .owner || self == .target }

        /// The name diagnostics show (`TickerSnapshot.binding`).
        var name: String {
            switch self {
            case .owner: "owner"
            case .target: "target"
            case .handle: "handle"
            case .view: "view"
            }
        }
    }

    // MARK: Lifecycle calls

    /// A lifecycle call on a handle. Tickers take every one; frame subscriptions pause, resume and cancel.
    enum Control: Sendable {
        case start, pause, resume, restart, cancel, fire
    }

    /// The state an item in `state` moves to on `control`, or nil when the call does not apply (it then does
    /// nothing): start an idle item; pause a running one; resume a paused one; restart a live one (from now);
    /// cancel a live one; fire a live one (it stays in its state). A final item takes no call. Each feature
    /// then updates what its own state carries (a ticker's schedule origin, a subscriber's next frame).
    @inline(__always)
    static func transition(_ control: Control, from state: TickerState) -> TickerState? {
        switch (control, state) {
        case (.start, .idle), (.resume, .paused): .running
        case (.restart, .idle), (.restart, .running), (.restart, .paused): .running
        case (.pause, .running): .paused
        case (.cancel, .idle), (.cancel, .running), (.cancel, .paused): .cancelled
        case (.fire, .idle), (.fire, .running), (.fire, .paused): state
        default: nil
        }
    }

    // MARK: Releasing a handle

    /// What a released handle asks for: decided from the binding and, for a bound handle, whether the
    /// owner's weak reference reads nil now; then applied to the item's state with ``effect(of:in:)``.
    /// Tickers decide both under their engine's lock (the owner it loads is released after unlocking);
    /// frame subscriptions load the owner before locking.
    enum Release: UInt8, Sendable {
        /// A view handle: nothing.
        case nothing
        /// A handle-owned item: cancel it.
        case cancel
        /// A bound item whose owner is being deinitialised (its weak reference already reads nil): cancel
        /// it, and log the owner's departure when asked.
        case ownerGone
        /// A bound item whose owner lives: keep it if it is running, cancel it if it is idle or paused.
        case keepIfRunning
    }

    /// What releasing a handle with `binding` asks for; `ownerReadsNil` is whether the owner's weak
    /// reference reads nil now (only looked at for bound handles).
    @inline(__always)
    static func release(of binding: Binding, ownerReadsNil: @autoclosure () -> Bool) -> Release {
        switch binding {
        case .view: .nothing
        case .handle: .cancel
        case .owner, .target: ownerReadsNil() ? .ownerGone : .keepIfRunning
        }
    }

    /// What a release does to an item in `state`.
    enum ReleaseEffect: Equatable, Sendable {
        /// Nothing: the item is already final, keeps running, or the handle was a view.
        case none
        /// Cancel the item.
        case cancel
        /// Cancel the item because its owner went away (log it when asked).
        case cancelOwnerGone
    }

    /// Applies `release` to an item in `state`, under the item's lock.
    @inline(__always)
    static func effect(of release: Release, in state: TickerState) -> ReleaseEffect {
        if state.isTerminal { return .none }
        switch release {
        case .nothing: return .none
        case .cancel: return .cancel
        case .ownerGone: return .cancelOwnerGone
        case .keepIfRunning: return state == .running ? .none : .cancel
        }
    }

    // MARK: Loading the owner for a delivery

    /// How a delivery goes, once the owner was loaded.
    enum OwnerLoad {
        /// Deliver, passing the loaded owner; release it only after the call, outside every lock.
        case deliver(AnyObject)
        /// Deliver without an owner (the item is not bound).
        case deliverWithoutOwner
        /// Do not deliver: the owner is gone. Stop the item (and log it when asked).
        case ownerGone
    }

    /// Loads the owner of an item with `binding` for a delivery (`owner` is only evaluated for bound
    /// items, so a handle-owned item pays no weak load).
    @inline(__always)
    static func load(_ binding: Binding, owner: @autoclosure () -> AnyObject?) -> OwnerLoad {
        guard binding.isBound else { return .deliverWithoutOwner }
        guard let owner = owner() else { return .ownerGone }
        return .deliver(owner)
    }

    // MARK: Sweeping dead owners

    /// What a sweep does with one slot.
    enum SweepVerdict {
        /// Not a live bound item: nothing to check.
        case skip
        /// The owner lives: hand it out, to be released after unlocking.
        case alive(AnyObject)
        /// The owner is gone: stop the item (and log it when asked).
        case ownerGone
    }

    /// The verdict on one slot: `isLiveBound` says whether it holds a live (not final) bound item, and
    /// `owner` loads its owner (only evaluated when it does).
    @inline(__always)
    static func sweepVerdict(isLiveBound: Bool, owner: @autoclosure () -> AnyObject?) -> SweepVerdict {
        guard isLiveBound else { return .skip }
        guard let owner = owner() else { return .ownerGone }
        return .alive(owner)
    }

    /// Where an incremental round-robin sweep continues, over slot indices `0..<end` (the end may change
    /// between calls, and even between steps: stopping an item may free storage).
    struct SweepCursor: Sendable {
        /// The slot the next step looks at (taken modulo the end).
        private(set) var position = 0

        init() {}

        /// The next slot to look at, below `end`, and advances past it; `nil` when `end` is zero.
        @inline(__always)
        mutating func next<Slot: BinaryInteger>(below end: Slot) -> Slot? {
            guard end > 0 else { return nil }
            let slot = Slot(position % Int(end))
            position = Int(slot) + 1
            return slot
        }

        /// The number of steps a sweep of at most `limit` slots (all when nil) takes over `0..<end`: each
        /// slot is looked at once at most.
        @inline(__always)
        static func steps(limit: Int?, end: Int) -> Int {
            max(0, min(limit ?? end, end))
        }

        /// Starts over at slot 0 (when the storage emptied).
        mutating func reset() { position = 0 }
    }

    /// What a sweep leaves to do after unlocking: the items it stopped (whatever the feature needs to
    /// finish them), and the owners it found alive, to be released outside the lock.
    struct Sweep<Stopped> {
        var stopped: [Stopped] = []
        var alive: [AnyObject] = []

        init() {}

        var isEmpty: Bool { stopped.isEmpty && alive.isEmpty }

        /// Records `verdict`; returns true when the item must be stopped (the caller stops it and appends
        /// what it needs to `stopped`).
        @inline(__always)
        mutating func note(_ verdict: SweepVerdict) -> Bool {
            switch verdict {
            case .skip: return false
            case .alive(let owner):
                alive.append(owner)
                return false
            case .ownerGone: return true
            }
        }
    }

    // MARK: Diagnostics

    /// The line logged (when ``TickerDiagnostics/logsOwnerRelease`` is on) when an item stops because its
    /// owner went away. `subject` names the kind of item ("ticker", "frame subscription"); `site` is
    /// `fileID:line`.
    static func ownerGoneLine(
        _ subject: String, site: String, binding: Binding, ownerType: String?, context: String
    ) -> String {
        let role = binding == .target ? "target" : "owner"
        let who = ownerType.map { " " + $0 } ?? ""
        return "TimerKit: \(subject) created at \(site) stopped because its \(role)\(who) went away (\(context))"
    }

    /// How soon after creation the release of a handle-owned item that never delivered draws the "never
    /// fires" warning: dropping the handle at once is almost always a mistake, while releasing it later is
    /// the normal way to cancel something pending. One window for tickers and frame subscriptions.
    static let neverFiresWindow: Duration = .milliseconds(100)

    /// ``neverFiresWindow`` in nanoseconds.
    static let neverFiresWindowNanoseconds: Int64 = 100_000_000

    /// Whether releasing a handle draws the "never fires" warning: the item is handle-owned, still
    /// running, has never delivered, and was created less than ``neverFiresWindow`` before the release.
    /// `age` is the time from creation to the release, in nanoseconds.
    @inline(__always)
    static func neverFires(binding: Binding, state: TickerState, deliveries: Int, age: Int64) -> Bool {
        binding == .handle && state == .running && deliveries == 0 && age < neverFiresWindowNanoseconds
    }

    /// The "never fires" warning. `subject` describes the item ("ticker (every 1.0 seconds)", "frame
    /// subscription (30.0 Hz)"), `site` is `fileID:line`, `handleType` the type to keep ("Ticker").
    static func neverFiresWarning(_ subject: String, site: String, handleType: String) -> String {
        "a handle-owned \(subject) created at \(site) was released right after creation, before it ever fired, "
            + "so it is cancelled and will never fire. Keep the returned \(handleType) (for example in a property), "
            + "or pass `owner:` to bind it to an object."
    }
}
