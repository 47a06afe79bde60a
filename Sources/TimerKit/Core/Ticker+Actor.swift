extension Ticker {
    // Actor forms: pass an actor as `owner:` and leave out `on:`. The handler is isolated to that actor:
    // it uses the actor's state directly, without `await`, in order, one call at a time.

    /// Schedules a handler isolated to the actor `owner`: the actor is held weakly and passed to the
    /// handler as its `isolated` parameter, so the handler reads and changes the actor's state directly,
    /// without `await` and without a task per tick.
    ///
    /// ```swift
    /// actor SessionStore {
    ///     private var sessions: [String: ContinuousClock.Instant] = [:]
    ///     private var sweeper: Ticker?
    ///
    ///     func startSweeping() {
    ///         sweeper = Ticker.schedule(.every(.seconds(30)), owner: self) { store, _ in
    ///             store.removeExpired()   // isolated to the store: no await
    ///         }
    ///     }
    ///
    ///     private func removeExpired() {
    ///         let now = ContinuousClock.now
    ///         sessions = sessions.filter { $0.value > now }
    ///     }
    /// }
    /// ```
    ///
    /// **Where and when the handler runs.** The deadlines are kept by TimerKit's engine on its shared
    /// precise context (the one tick sequences use), which only hands each tick to the actor; one task
    /// per ticker, started here, calls the handler on the actor's executor, in order, never two calls at
    /// once. When the actor is busy (its executor runs other work, or the handler itself is slow) the
    /// handler is late like any late handler: the deadlines that pass meanwhile are not queued but
    /// merged into one delivery, whose ``Tick/skipped`` counts them. ``Tick/timestamp`` is when the
    /// engine handed the tick over; ``Tick/fireCount`` counts the handler's calls.
    ///
    /// **Lifetime.** As for every owner-bound ticker: the actor is never retained; the ticker stops for
    /// good, and releases the handler, at the first deadline after the actor has gone away (without
    /// calling it). Keeping the returned handle is optional; keep it to pause, restart or cancel.
    /// Assigning a new ticker from the same line where it is kept (`poll = Ticker.schedule(…)` again, to
    /// poll at another interval) stops the old one.
    ///
    /// **Cancel and pause.** ``cancel()`` and ``pause()`` called on the actor (inside the handler or in
    /// any of its methods) are exact: the handler is not called again (until ``resume()``), even for a
    /// tick already handed over. Called from elsewhere, a call already started on the actor runs to
    /// completion.
    ///
    /// **Testing.** Under `TimerKitTesting`'s virtual time, the async `advance` waits after each deadline
    /// until the actor has run the handler, so a test asserts right after `await time.advance(by:)`.
    ///
    /// - Parameters:
    ///   - schedule: when to fire.
    ///   - owner: the actor whose lifetime bounds the ticker and to which the handler is isolated; never
    ///     retained.
    ///   - startsImmediately: `false` creates an `idle` ticker that waits for ``start()``.
    ///   - fileID: the creation site shown by diagnostics (filled in by the compiler).
    ///   - line: the creation site's line (filled in by the compiler).
    ///   - handler: called isolated to `owner` with the owner and the ``Tick``.
    @discardableResult
    public static func schedule<Owner: Actor>(
        _ schedule: TickSchedule,
        owner: Owner,
        startsImmediately: Bool = true,
        fileID: String = #fileID,
        line: Int = #line,
        _ handler: @escaping @Sendable (isolated Owner, Tick) -> Void
    ) -> Ticker {
        let input = ActorInbox<Tick>.start(
            owner: owner, as: Owner.self, merge: Tick.merged, outlivesClose: \.isLast
        ) { owner, tick, number in
            handler(owner, tick.numbered(number))
        }
        let ticker = makeBound(
            schedule, on: EngineWait.context, owner: owner, binding: .owner, startsImmediately: startsImmediately,
            fileID: fileID, line: line
        ) { _, tick in input.post(tick) }
        // A tick in flight is not delivered once the ticker was cancelled or paused (on the actor: exact); a
        // manual `fire()` is delivered while paused or idle too, as on every context, but not once cancelled.
        let (engine, id) = (ticker.engine, ticker.id)
        input.bind { tick in
            engine.tickerState(id).map { tick.isManual ? $0 != .cancelled : $0 == .running || $0 == .finished }
                ?? false
        }
        return ticker
    }
}
