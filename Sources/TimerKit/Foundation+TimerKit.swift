import Foundation

// Foundation-shaped drop-ins: code written the way the seeds wrote `Foundation.Timer` migrates by one
// argument (`owner:` added, or `selector:` replaced by `action:`), and gets a ticker that holds its owner
// weakly and stops when the owner goes away. They return a `Ticker`, not a `Foundation.Timer`, so they do
// not inherit Linux's per-timer leak, and they schedule in common modes (a `Foundation.Timer` scheduled
// this way uses the default mode and pauses while a scroll view tracks).
//
// Intervals follow Foundation: zero or negative becomes 0.1 ms; NaN stops the program with a message.

extension Foundation.Timer {
    /// Schedules a block on the current thread's run loop (common modes), bound to `owner`.
    ///
    /// The Foundation call `scheduledTimer(withTimeInterval:repeats:block:)` with `owner:` added: the block
    /// receives the owner (held weakly, so `[weak self]` is unnecessary) and the ticker, which it may
    /// cancel (`ticker.invalidate()` works too). The ticker stops for good when the owner goes away.
    /// Runs on the current thread's run loop: that loop must run for the block to be called. Like
    /// Foundation's block, this one is nonisolated; `@MainActor` owners can use the main-actor form
    /// ``Ticker/schedule(_:owner:startsImmediately:fileID:line:_:)`` instead.
    @discardableResult
    public static func scheduledTimer<Owner: AnyObject>(
        withTimeInterval interval: TimeInterval,
        repeats: Bool,
        owner: Owner,
        fileID: String = #fileID,
        line: Int = #line,
        block: @escaping @Sendable (Owner, Ticker) -> Void
    ) -> Ticker {
        Ticker.makeBoundPassingHandle(
            foundationSchedule(interval, repeats: repeats), on: .current, owner: owner,
            binding: .owner, startsImmediately: true, fileID: fileID, line: line, block)
    }

    /// Schedules target–action on the current thread's run loop (common modes), the target held weakly.
    ///
    /// The Foundation call `scheduledTimer(timeInterval:target:selector:userInfo:repeats:)` with the
    /// selector replaced by an unbound method reference (`Screen.timeStart`) and no `userInfo`. The ticker
    /// stops for good when the target goes away, so `deinit` runs and nothing needs invalidating there.
    @discardableResult
    public static func scheduledTimer<Target: AnyObject>(
        timeInterval interval: TimeInterval,
        target: Target,
        action: @escaping @Sendable (Target) -> () -> Void,
        repeats: Bool,
        fileID: String = #fileID,
        line: Int = #line
    ) -> Ticker {
        Ticker.makeBound(
            foundationSchedule(interval, repeats: repeats), on: .current, owner: target,
            binding: .target, startsImmediately: true, fileID: fileID, line: line
        ) { target, _ in action(target)() }
    }

    /// Schedules target–action whose method receives the ticker (the `timerFired(_ timer:)` shape) on the
    /// current thread's run loop (common modes), the target held weakly.
    @discardableResult
    public static func scheduledTimer<Target: AnyObject>(
        timeInterval interval: TimeInterval,
        target: Target,
        action: @escaping @Sendable (Target) -> (Ticker) -> Void,
        repeats: Bool,
        fileID: String = #fileID,
        line: Int = #line
    ) -> Ticker {
        Ticker.makeBoundPassingHandle(
            foundationSchedule(interval, repeats: repeats), on: .current, owner: target,
            binding: .target, startsImmediately: true, fileID: fileID, line: line
        ) { target, ticker in
            action(target)(ticker)
        }
    }

    static func foundationSchedule(_ interval: TimeInterval, repeats: Bool) -> TickSchedule {
        Diagnostics.require(!interval.isNaN, "TimerKit: timer interval is NaN; pass a finite number of seconds")
        let seconds = max(interval, 0.0001)
        return repeats ? .every(seconds: seconds) : .after(seconds: seconds)
    }
}

extension Ticker {
    /// Like `makeBound`, for handlers that also receive a handle to their ticker.
    static func makeBoundPassingHandle<Owner: AnyObject>(
        _ schedule: TickSchedule,
        on context: TickerContext,
        owner: Owner,
        binding: TickerBinding,
        startsImmediately: Bool,
        fileID: String,
        line: Int,
        _ deliver: @escaping @Sendable (Owner, Ticker) -> Void
    ) -> Ticker {
        makeBound(
            schedule, on: context, owner: owner, binding: binding, startsImmediately: startsImmediately,
            fileID: fileID, line: line
        ) { owner, _, engine, id in
            deliver(owner, Ticker(engine: engine, id: id, role: .view))
        }
    }
}
