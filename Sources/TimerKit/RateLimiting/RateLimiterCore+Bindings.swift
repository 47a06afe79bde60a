// How a rate limiter's core reaches the user's handler: one `Arm` per binding. Each creates a one-shot
// TimerKit ticker on the context; the ticker's handler hands the core a function that delivers a value.
// Owner-bound forms use owner-bound tickers, so the engine loads the owner (weakly held) right before
// each wake-up, keeps it alive for the call, and stops the ticker instead when the owner is gone.

extension RateLimiterCore {
    /// Wake-ups on `context` whose deliveries receive the owner.
    static func ownerBoundArm<Owner: AnyObject>(
        owner reference: WeakReference,
        as _: Owner.Type,
        on context: TickerContext,
        fileID: String,
        line: Int,
        _ handler: @escaping @Sendable (Owner, Value) -> Void
    ) -> Arm {
        { delay, wake in
            // The strong reference loaded here is released when this closure returns, outside every lock.
            guard let object = reference.object else { return nil }
            let owner = unsafeDowncast(object, to: Owner.self)
            return Ticker.makeBound(
                .after(delay), on: context, owner: owner, binding: .owner, startsImmediately: true, fileID: fileID,
                line: line
            ) { owner, _ in
                wake { value in handler(owner, value) }
            }
        }
    }

    /// Owner-bound wake-ups on the shared precise context whose deliveries are posted to `owner`'s inbox
    /// and run isolated to the actor (see `ActorInbox`): a value decided while the actor is still busy with
    /// the previous one replaces one still waiting for it.
    static func actorBoundArm<Owner: Actor>(
        owner: Owner,
        fileID: String,
        line: Int,
        _ handler: @escaping @Sendable (isolated Owner, Value) -> Void
    ) -> (arm: Arm, input: ActorInbox<Value>.Input) {
        let input = ActorInbox<Value>.start(owner: owner, as: Owner.self, merge: { _, newer in newer }) {
            owner, value, _ in handler(owner, value)
        }
        let arm = ownerBoundArm(
            owner: WeakReference(owner), as: Owner.self, on: EngineWait.context, fileID: fileID, line: line
        ) { _, value in input.post(value) }
        return (arm, input)
    }

    /// Wake-ups on `context` owned by the core: the core cancels them when it stops.
    static func handleOwnedArm(
        on context: TickerContext,
        fileID: String,
        line: Int,
        _ handler: @escaping @Sendable (Value) -> Void
    ) -> Arm {
        { delay, wake in
            Ticker.schedule(.after(delay), on: context, fileID: fileID, line: line) { _ in wake(handler) }
        }
    }

    /// Owner-bound wake-ups on the main run loop (`context`) whose deliveries run isolated to the main
    /// actor.
    static func mainActorOwnerBoundArm<Owner: AnyObject>(
        owner reference: WeakReference,
        as _: Owner.Type,
        on context: TickerContext,
        fileID: String,
        line: Int,
        _ handler: @escaping @MainActor (Owner, Value) -> Void
    ) -> Arm {
        let box = MainActorHandler(handler)
        return ownerBoundArm(owner: reference, as: Owner.self, on: context, fileID: fileID, line: line) {
            owner, value in box.call(owner, value)
        }
    }

    /// Handle-owned wake-ups on the main run loop (`context`) whose deliveries run isolated to the main
    /// actor.
    static func mainActorHandleOwnedArm(
        on context: TickerContext,
        fileID: String,
        line: Int,
        _ handler: @escaping @MainActor (Value) -> Void
    ) -> Arm {
        handleOwnedArm(on: context, fileID: fileID, line: line) { value in
            // The main run loop's engine delivers on the main actor (virtual time too: an advance from
            // elsewhere hops there); `assumeIsolated` traps with a message otherwise.
            MainActor.assumeIsolated { handler(value) }
        }
    }
}

/// Checks and converts a rate limiter's durations, warning (in debug builds) about each clamp, as
/// ``TickSchedule`` does for tickers.
enum RateLimitInput {
    /// `duration` in nanoseconds: negative becomes zero; beyond about 292 years saturates.
    static func nanoseconds(_ duration: Duration, _ what: String, site: String) -> Int64 {
        let nanoseconds = duration.saturatingNanoseconds
        if nanoseconds < 0 {
            Diagnostics.warn("\(site): \(what) \(duration) is negative; clamped to zero")
            return 0
        }
        if nanoseconds == .max {
            Diagnostics.warn(
                "\(site): \(what) exceeds about 292 years; saturated: deliveries that wait for it never come")
        }
        return nanoseconds
    }

    /// `maxWait` in nanoseconds, raised to `interval` when shorter.
    static func maxWait(_ maxWait: Duration?, interval: Int64, site: String) -> Int64? {
        guard let maxWait else { return nil }
        let nanoseconds = maxWait.saturatingNanoseconds
        if nanoseconds < interval {
            Diagnostics.warn(
                "\(site): maxWait \(maxWait) is shorter than the interval; raised to \(Duration.nanoseconds(interval))")
            return interval
        }
        if nanoseconds == .max {
            Diagnostics.warn("\(site): maxWait exceeds about 292 years; saturated: it never forces a delivery")
        }
        return nanoseconds
    }
}
