/// Carries an item's deliveries into an actor: the actor-bound forms of tickers, debouncers, throttlers and
/// frame subscriptions schedule their wake-ups on a context as every owner-bound item does, and their
/// context-side handler only posts the value here. One task per item (not one per delivery) takes the
/// values out in order and calls the user's handler isolated to the actor, one call at a time.
///
/// A value posted while the previous one is still being delivered (the actor's executor is busy, or the
/// handler is slow) waits; a further one merges with it (`merge`: a tick then stands for the latest
/// deadline and counts the others as skipped), so a busy actor gets one late delivery, never a backlog.
///
/// Lifetime: the item's context-side handler holds the only ``ActorInbox/Input``; when the item ends
/// (cancelled, finished, its owner gone) the engine releases that handler, the input closes the inbox, and
/// the task ends. The actor is held weakly: loaded for each delivery and released after it.
///
/// Under virtual time, a post that wakes the task (or leaves it a value) marks it a running consumer, until
/// it has delivered everything and waits again, so that an async advance lets the actor run the handler
/// before time moves on.
final class ActorInbox<Value: Sendable>: Sendable {
    /// A value and the epoch it was posted in: ``discardPending()`` starts a new epoch, and a value of an
    /// earlier one is not delivered.
    private struct Posted: Sendable {
        let value: Value
        let epoch: UInt64
    }

    private struct State {
        /// The task, waiting for a value.
        var waiting: UnsafeContinuation<Posted?, Never>?
        /// A value posted while the task was delivering the previous one.
        var pending: Posted?
        var isClosed = false
        var epoch: UInt64 = 0
        /// Whether the item still delivers this value, asked of its engine or source on the actor right
        /// before each call (set once the item exists): an item cancelled or paused there is not delivered
        /// to again (a ticker's manual `fire()` is, while paused or idle, as on every other context).
        var isLive: (@Sendable (Value) -> Bool)?
        /// Under virtual time: held while the task has values to deliver.
        var consumer: RunningConsumer?
    }

    // Invariant of the continuation: resumed exactly once, by whichever of `post` and `close` takes it out
    // of the state under the lock; the task parks it under the same lock only when nothing is pending.
    private let state = Locked<State>.make(State())
    private let merge: @Sendable (Value, Value) -> Value
    /// Whether a value is still delivered after the inbox closed: a schedule's last tick, handed over
    /// just before the ticker finished (which releases the handler), is; anything else is dropped.
    private let outlivesClose: @Sendable (Value) -> Bool
    /// The virtual clock the item's engine runs on, if any (see the type's summary).
    private let virtualClock: VirtualClock?

    private init(
        merge: @escaping @Sendable (Value, Value) -> Value, outlivesClose: @escaping @Sendable (Value) -> Bool,
        timeBase: TimeBase
    ) {
        self.merge = merge
        self.outlivesClose = outlivesClose
        if case .virtual(let clock) = timeBase.source {
            virtualClock = clock
        } else {
            virtualClock = nil
        }
    }

    /// Whether `posted` may still be delivered: read on the actor right before each call, so that an item
    /// cancelled (or whose pending value was discarded) on the actor is never delivered to again.
    private func isDeliverable(_ posted: Posted) -> Bool {
        let (current, isLive) = state.withLock { state in
            (!state.isClosed && state.epoch == posted.epoch, state.isLive)
        }
        // The item's own check runs outside this lock: it takes its engine's or source's.
        return current && isLive?(posted.value) != false || outlivesClose(posted.value)
    }

    /// Starts the delivering task and returns the input for the item's context-side handler.
    ///
    /// - Parameters:
    ///   - owner: the actor, held weakly; a delivery that finds it gone ends the task.
    ///   - merge: what a busy actor gets for two values posted while it was busy (older, newer).
    ///   - outlivesClose: whether a value posted before the inbox closed is still delivered.
    ///   - deliver: runs isolated to the actor with each value and the number of that delivery (1 for the
    ///     first), after checking that the inbox is still open.
    static func start<Owner: Actor>(
        owner: Owner,
        as _: Owner.Type,
        merge: @escaping @Sendable (Value, Value) -> Value,
        outlivesClose: @escaping @Sendable (Value) -> Bool = { _ in false },
        timeBase: TimeBase = .current,
        deliver: @escaping @Sendable (isolated Owner, Value, Int) -> Void
    ) -> Input {
        let inbox = ActorInbox(merge: merge, outlivesClose: outlivesClose, timeBase: timeBase)
        let reference = WeakReference(owner)
        Task.detached(priority: Task.currentPriority) {
            var deliveries = 0
            while let posted = await inbox.next() {
                guard let object = reference.object else { break }
                deliveries += 1
                await inbox.call(unsafeDowncast(object, to: Owner.self), posted, deliveries, deliver)
            }
            inbox.close(byTask: true)
        }
        return Input(inbox)
    }

    /// One delivery, on the actor: nothing once the inbox is closed (the item was cancelled, possibly by
    /// the previous call on this same actor), unless the value outlives the close; nothing for a value
    /// discarded since it was posted.
    private func call<Owner: Actor>(
        _ owner: isolated Owner, _ posted: Posted, _ number: Int,
        _ deliver: @Sendable (isolated Owner, Value, Int) -> Void
    ) {
        guard isDeliverable(posted) else { return }
        deliver(owner, posted.value, number)
    }

    /// The next value to deliver, at once if one is pending; `nil` once closed. Parking gives up the
    /// running-consumer mark.
    private func next() async -> Posted? {
        if let posted = state.withLock({ $0.pending.take() }) { return posted }
        return await withUnsafeContinuation { (continuation: UnsafeContinuation<Posted?, Never>) in
            let (resume, settled) = state.withLock { state -> (Posted??, RunningConsumer?) in
                if let pending = state.pending.take() { return (.some(pending), nil) }
                if state.isClosed { return (.some(nil), state.consumer.take()) }
                state.waiting = continuation
                return (nil, state.consumer.take())
            }
            // Released here, once parked and outside the lock (its release tells the virtual clock, which
            // takes its own lock).
            withExtendedLifetime(settled) {}
            if let resume { continuation.resume(returning: resume) }
        }
    }

    /// Hands `value` to the task: wakes it if it waits, else leaves it pending (merged with one already
    /// pending). Dropped once closed.
    fileprivate func post(_ value: Value) {
        // Made before locking (the virtual clock takes its own lock); unused ones go after unlocking.
        var mark = virtualClock?.consumerResumed()
        let resume = state.withLock { state -> (UnsafeContinuation<Posted?, Never>, Posted)? in
            guard !state.isClosed else { return nil }
            if state.consumer == nil { state.consumer = mark.take() }
            let posted = Posted(value: state.pending.map { merge($0.value, value) } ?? value, epoch: state.epoch)
            if let waiting = state.waiting.take() { return (waiting, posted) }
            state.pending = posted
            return nil
        }
        withExtendedLifetime(mark) {}
        if let (waiting, posted) = resume { waiting.resume(returning: posted) }
    }

    /// Drops the pending value, and the one the task may be about to deliver: neither is delivered.
    fileprivate func discardPending() {
        let dropped = state.withLock { state in
            state.epoch &+= 1
            return state.pending.take()
        }
        withExtendedLifetime(dropped) {}
    }

    /// Ends deliveries: a pending value is dropped (unless it outlives the close: the task then delivers
    /// it and ends), a waiting task ends. The running-consumer mark goes with a waiting task, or when the
    /// task itself closes on its way out: a task that is delivering a value keeps it until then.
    fileprivate func close(byTask: Bool = false) {
        let (waiting, dropped, consumer) = state.withLock { state in
            state.isClosed = true
            let dropped = state.pending.map { outlivesClose($0.value) } == false ? state.pending.take() : nil
            let waiting = state.waiting.take()
            let consumer = byTask || waiting != nil ? state.consumer.take() : nil
            return (waiting, dropped, consumer)
        }
        withExtendedLifetime((dropped, consumer)) {}
        waiting?.resume(returning: nil)
    }

    /// The context side of an inbox, held only by the item's handler: posting, and closing the inbox when
    /// the handler is released.
    final class Input: Sendable {
        private let inbox: ActorInbox

        fileprivate init(_ inbox: ActorInbox) {
            self.inbox = inbox
        }

        func post(_ value: Value) { inbox.post(value) }

        /// Tells the inbox how to ask whether the item still delivers (see `State.isLive`).
        func bind(isLive: @escaping @Sendable (Value) -> Bool) { inbox.state.withLock { $0.isLive = isLive } }

        /// Drops what was posted and not yet delivered (see ``ActorInbox/discardPending()``).
        func discardPending() { inbox.discardPending() }

        /// Ends deliveries before the input goes: what was posted and not yet delivered is dropped.
        func close() { inbox.close() }

        deinit { inbox.close() }
    }
}

extension Tick {
    /// What a busy actor receives for two ticks posted while it was busy: the newer one, standing for its
    /// deadline, with the older one's counted as skipped.
    static func merged(_ older: Tick, _ newer: Tick) -> Tick {
        Tick(
            index: newer.index, deadline: newer.deadline, timestamp: newer.timestamp,
            skipped: newer.skipped + older.skipped + (older.isManual ? 0 : 1), remaining: newer.remaining,
            fireCount: newer.fireCount, isManual: newer.isManual, date: newer.date)
    }

    /// This tick as the `number`th call of an actor-isolated handler (``fireCount`` counts calls).
    func numbered(_ number: Int) -> Tick {
        Tick(
            index: index, deadline: deadline, timestamp: timestamp, skipped: skipped, remaining: remaining,
            fireCount: number, isManual: isManual, date: date)
    }
}
