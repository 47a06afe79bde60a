import Foundation
import TimerKit

// Foundation-shaped look-alikes, opt in with `import TimerKitMigration`: code written the way the seeds of
// every timer leak wrote `Foundation.Timer` migrates by one argument (`owner:` added, or `selector:`
// replaced by `action:`) and gets a `Ticker` that holds its owner weakly and stops when the owner goes
// away. Without this import, `Timer.scheduledTimer` means Foundation's alone.
//
// They are main-actor functions, for the code they replace: view controllers and views scheduling on the
// main thread's run loop. Their blocks and actions run on the main actor, on the main run loop in common
// modes (a `Foundation.Timer` scheduled this way uses the default mode and pauses while a scroll view
// tracks). Code on other threads uses `Ticker.schedule(_:on:owner:…)` with the context it needs.
//
// Intervals follow Foundation: zero or negative becomes 0.1 ms; NaN stops the program with a message,
// in release builds too.

extension Foundation.Timer {
    /// Schedules a block on the main run loop (common modes), bound to `owner`.
    ///
    /// The Foundation call `scheduledTimer(withTimeInterval:repeats:block:)` with `owner:` added: the block
    /// receives the owner (held weakly, so `[weak self]` is unnecessary) and the ticker, which it may
    /// cancel (`ticker.invalidate()` works too). The ticker stops for good when the owner goes away, so
    /// the owner's `deinit` runs. Returns a ``TimerKit/Ticker``, not a `Foundation.Timer`.
    @MainActor
    @discardableResult
    public static func scheduledTimer<Owner: AnyObject>(
        withTimeInterval interval: TimeInterval,
        repeats: Bool,
        owner: Owner,
        fileID: String = #fileID,
        line: Int = #line,
        block: @escaping @MainActor (Owner, Ticker) -> Void
    ) -> Ticker {
        Ticker.scheduleForMigration(
            migrationSchedule(interval, repeats: repeats, fileID: fileID, line: line), owner: owner, isTarget: false,
            fileID: fileID,
            line: line, block)
    }

    /// Schedules target–action on the main run loop (common modes); the target is held weakly.
    ///
    /// The Foundation call `scheduledTimer(timeInterval:target:selector:userInfo:repeats:)` with the
    /// selector replaced by an unbound method reference (`Screen.timeStart`) and no `userInfo`. The ticker
    /// stops for good when the target goes away, so `deinit` runs and nothing needs invalidating there.
    @MainActor
    @discardableResult
    public static func scheduledTimer<Target: AnyObject>(
        timeInterval interval: TimeInterval,
        target: Target,
        action: @escaping @MainActor (Target) -> () -> Void,
        repeats: Bool,
        fileID: String = #fileID,
        line: Int = #line
    ) -> Ticker {
        Ticker.scheduleForMigration(
            migrationSchedule(interval, repeats: repeats, fileID: fileID, line: line), owner: target, isTarget: true,
            fileID: fileID,
            line: line
        ) { target, _ in action(target)() }
    }

    /// As ``scheduledTimer(timeInterval:target:action:repeats:fileID:line:)-(_,_,()->()->Void,_,_,_)``,
    /// for an action that takes the ticker (the Swift form of a selector taking the `NSTimer`).
    @MainActor
    @discardableResult
    public static func scheduledTimer<Target: AnyObject>(
        timeInterval interval: TimeInterval,
        target: Target,
        action: @escaping @MainActor (Target) -> (Ticker) -> Void,
        repeats: Bool,
        fileID: String = #fileID,
        line: Int = #line
    ) -> Ticker {
        Ticker.scheduleForMigration(
            migrationSchedule(interval, repeats: repeats, fileID: fileID, line: line), owner: target, isTarget: true,
            fileID: fileID,
            line: line
        ) { target, ticker in action(target)(ticker) }
    }

    /// Foundation's rule: an interval of zero or less becomes 0.1 ms. A NaN interval stops the program with
    /// a message naming the caller's site.
    static func migrationSchedule(_ interval: TimeInterval, repeats: Bool, fileID: String, line: Int) -> TickSchedule {
        guard !interval.isNaN else {
            // fatalError keeps its message in optimised builds, where precondition's is dropped.
            fatalError("TimerKit: timer interval is NaN at \(fileID):\(line); pass a finite number of seconds")
        }
        let seconds = max(interval, 0.0001)
        return repeats ? .every(seconds: seconds) : .after(seconds: seconds)
    }
}

extension Ticker {
    /// Stops the ticker for good: the Foundation spelling of ``TimerKit/Ticker/cancel()``.
    public func invalidate() { cancel() }

    /// Whether the ticker can still fire (`idle`, `running` or `paused`): the Foundation spelling of
    /// `!state.isTerminal`.
    public var isValid: Bool { !state.isTerminal }
}
