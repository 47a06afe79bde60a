import Foundation

extension Ticker {
    // MARK: Owner-bound

    /// Schedules a handler bound to `owner` on `context`: the owner is held weakly and passed to the
    /// handler, so the handler has no reason to capture it.
    ///
    /// The ticker stops for good, and releases the handler, when the owner goes away: at once if the
    /// owner held the returned handle; otherwise at the latest at the next deadline (without calling the
    /// handler), and earlier when the context's engine sweeps for dead owners (it checks a few tickers
    /// each time one is created, and all of them when diagnostics list live tickers). Keeping the
    /// returned handle is optional; assigning a new ticker from the same line where it is kept stops the
    /// old one (see ``Ticker``'s "Replacing").
    ///
    /// The handler runs on `context`'s thread or queue, so the owner crosses into it: it must be
    /// `Sendable` (an actor, a class whose state is behind a lock, or a global-actor class whose isolated
    /// state the nonisolated handler then cannot touch). For `@MainActor` owners such as views, view
    /// controllers and view models, leave out `on:` and use
    /// ``schedule(_:modes:owner:startsImmediately:fileID:line:_:)``: its handler is isolated to the main
    /// actor.
    ///
    /// - Parameters:
    ///   - schedule: when to fire (``TickSchedule/every(_:after:tolerance:count:clock:file:line:)``, `after`, `countdown`).
    ///   - context: where the handler runs.
    ///   - owner: the object whose lifetime bounds the ticker; never retained.
    ///   - startsImmediately: `false` creates an `idle` ticker that waits for ``start()``.
    ///   - fileID: the creation site shown by diagnostics (filled in by the compiler).
    ///   - line: the creation site's line (filled in by the compiler).
    ///   - handler: called on `context` with the owner and the ``Tick``; never while a TimerKit lock is held.
    @discardableResult
    public static func schedule<Owner: AnyObject & Sendable>(
        _ schedule: TickSchedule,
        on context: TickerContext,
        owner: Owner,
        startsImmediately: Bool = true,
        fileID: String = #fileID,
        line: Int = #line,
        _ handler: @escaping @Sendable (Owner, Tick) -> Void
    ) -> Ticker {
        makeBound(
            schedule, on: context, owner: owner, binding: .owner, startsImmediately: startsImmediately,
            fileID: fileID, line: line, handler)
    }

    // MARK: Handle-owned

    /// Schedules a handler on `context`, owned by the returned handle: releasing the handle cancels the
    /// ticker, like `AnyCancellable`. Keep the handle, for example in a property. In debug builds,
    /// releasing it right after creation (within 100 ms, before it ever fired and without `cancel()`)
    /// logs a warning — the usual reason a timer "never fires".
    ///
    /// The handler runs on `context`, so everything it captures must be `Sendable`. If it would capture
    /// the object that keeps the handle, pass that object as `owner:` instead.
    public static func schedule(
        _ schedule: TickSchedule,
        on context: TickerContext,
        startsImmediately: Bool = true,
        fileID: String = #fileID,
        line: Int = #line,
        _ handler: @escaping @Sendable (Tick) -> Void
    ) -> Ticker {
        make(
            schedule, on: context, binding: .handle, owner: nil, ownerType: nil, startsImmediately: startsImmediately,
            fileID: fileID, line: line, handler: .tick(handler))
    }

    // MARK: Shared

    /// The one place where an owner is captured: weakly. The engine loads it on the context right before
    /// each call (a failed load stops the ticker instead of calling) and never touches it otherwise.
    static func makeBound<Owner: AnyObject>(
        _ schedule: TickSchedule,
        on context: TickerContext,
        owner: Owner,
        binding: Lifetime.Binding,
        startsImmediately: Bool,
        fileID: String,
        line: Int,
        batched: Bool = false,
        _ deliver: @escaping @Sendable (Owner, Tick) -> Void
    ) -> Ticker {
        make(
            schedule, on: context, binding: binding, owner: owner, ownerType: Owner.self,
            startsImmediately: startsImmediately, fileID: fileID, line: line, batched: batched,
            // The engine loaded the owner from its weak reference and keeps it alive for this call.
            handler: .owner { owner, tick in deliver(unsafeDowncast(owner, to: Owner.self), tick) })
    }

    /// `makeBound` whose delivery also receives the engine and ticker id (to hand out a view handle).
    static func makeBound<Owner: AnyObject>(
        _ schedule: TickSchedule,
        on context: TickerContext,
        owner: Owner,
        binding: Lifetime.Binding,
        startsImmediately: Bool,
        fileID: String,
        line: Int,
        _ deliver: @escaping @Sendable (Owner, Tick, TickerEngine, TickerID) -> Void
    ) -> Ticker {
        make(
            schedule, on: context, binding: binding, owner: owner, ownerType: Owner.self,
            startsImmediately: startsImmediately, fileID: fileID, line: line,
            handler: .full { tick, owner, engine, id in
                deliver(unsafeDowncast(owner!, to: Owner.self), tick, engine, id)
            })
    }

    /// Creates the ticker on the current time base's engine for `context`. A bound ticker (`owner` set,
    /// `binding` `.owner` or `.target`) gets a handle that does not own it; a handle-owned one (`.handle`)
    /// gets the owning handle. Its schedule counts from now plus `originOffset` nanoseconds (internal
    /// callers that fold part of the first delay into the start; ignored unless it starts immediately).
    static func make(
        _ schedule: TickSchedule,
        on context: TickerContext,
        binding: Lifetime.Binding,
        owner: AnyObject?,
        ownerType: Any.Type?,
        startsImmediately: Bool,
        fileID: String,
        line: Int,
        batched: Bool = false,
        timeBase explicitBase: TimeBase? = nil,
        originOffset: Int64 = 0,
        handler: TickHandler
    ) -> Ticker {
        let (engine, id) = add(
            schedule, on: context, binding: binding, owner: owner, ownerType: ownerType,
            startsImmediately: startsImmediately, fileID: fileID, line: line, batched: batched,
            timeBase: explicitBase, originOffset: originOffset, handler: handler)
        if binding.isBound {
            // For the replacement rule: a bound handle this thread releases next may be this one's elder.
            Lifetime.LastBoundCreation.record(in: engine, slot: Int64(id.slot), serial: UInt64(id.serial))
        }
        return Ticker(engine: engine, id: id, binding: binding)
    }

    /// `make` without the handle: creates the ticker, on `explicitEngine` when given (the engine of
    /// `context` on the time base, which the caller keeps alive), and returns its engine and id. A
    /// handle-owned ticker made this way has no ``Ticker`` to stop it when released: its caller stops it
    /// and frees its record with `TickerEngine.cancelAndRelease(_:)`, exactly once, and keeps the engine
    /// alive until then (no handle retains it).
    static func add(
        _ schedule: TickSchedule,
        on context: TickerContext,
        binding: Lifetime.Binding,
        owner: AnyObject?,
        ownerType: Any.Type?,
        startsImmediately: Bool,
        fileID: String,
        line: Int,
        batched: Bool = false,
        timeBase explicitBase: TimeBase? = nil,
        engine explicitEngine: TickerEngine? = nil,
        originOffset: Int64 = 0,
        handler: TickHandler
    ) -> (engine: TickerEngine, id: TickerID) {
        // The schedule counts from here: read the clock before any other work, so that the first deadline
        // is as close as possible to `firstDelay` after the caller's call.
        let timeBase = explicitBase ?? TimeBase.current
        let now = timeBase.now(schedule.clock)
        if VirtualTimeActivity.isAnyActive, timeBase === TimeBase.system {
            VirtualTimeActivity.realTimeTickerCreated(fileID: fileID, line: line, context: context)
        }
        if !schedule.adjustments.isEmpty {
            Diagnostics.warn("ticker at \(fileID):\(line): " + schedule.adjustments.joined(separator: "; "))
        }
        let origin = TickerOrigin(
            fileID: fileID, line: line, ownerType: ownerType, binding: binding, isBatched: batched)
        var handler = handler
        var originOffset = originOffset
        if let wall = schedule.wall {
            // A wall-clock ticker: its `WallTicker` decides each occurrence; the engine waits for the first.
            let wallNow = timeBase.source.wallNanoseconds()
            let ticker = WallTicker(schedule: wall, inner: handler, createdAt: wallNow)
            originOffset = ticker.firstDelay(from: wallNow, on: timeBase.source)
            handler = .wall(ticker)
            WallClockWatch.watch(timeBase)
        }
        let engine = explicitEngine ?? timeBase.engine(for: context, clock: schedule.clock)
        let id = engine.add(
            schedule: schedule, origin: origin, owner: owner, startsImmediately: startsImmediately, handler: handler,
            now: now, originOffset: originOffset)
        Diagnostics.watchRunLoop(of: engine, ticker: id, timeBase: timeBase)
        return (engine, id)
    }
}
