import Foundation

/// A point-in-time description of one ticker, for diagnostics.
public struct TickerSnapshot: Sendable, CustomStringConvertible {
    /// The ticker's state when the snapshot was taken.
    public let state: TickerState
    /// The `#fileID` of the call that created the ticker.
    public let fileID: String
    /// The line of the call that created the ticker.
    public let line: Int
    /// The owner's or target's type name; `nil` for a handle-owned ticker.
    public let ownerType: String?
    /// How the handler is bound: `owner`, `target` or `handle`.
    public let binding: String
    /// The context the ticker runs on.
    public let context: String
    /// The ticker's schedule (its ``TickSchedule/adjustments`` are empty here: clamps are reported when
    /// the ticker is created). The repeating ticker behind a `Ticker.ticks(…)` sequence is listed with its
    /// first delay as one interval, counted from a moved origin: its next deadline is its real one.
    public let schedule: TickSchedule
    /// How many times the handler has been called.
    public let fireCount: Int
    /// How many deadlines were skipped because deliveries came late (exact: past `UInt32.max` too).
    public let skippedCount: Int
    /// The next instant the ticker waits for, if it waits for any.
    public let nextDeadline: TickInstant?
    /// When the ticker was created.
    public let createdAt: TickInstant

    /// A short human-readable description, for logs and test output.
    public var description: String {
        let owner = ownerType.map { "\(binding): \($0)" } ?? binding
        return "\(fileID):\(line) [\(owner)] \(schedule) on \(context) — \(state), fired \(fireCount)"
            + (skippedCount > 0 ? ", skipped \(skippedCount)" : "")
    }
}

/// Switches and reports for finding timer problems: what is alive, who created it, and why a ticker
/// stopped or never fired.
///
/// Messages go to the log handler (standard error by default). Warnings about likely mistakes — a
/// handle-owned ticker (or frame subscription) released right after creation, before it ever fired;
/// input that had to be clamped; a ticker on a run loop that is still not running a second after the
/// ticker's deadline — are on in debug builds of TimerKit and off in release builds, unless set
/// explicitly. Virtual time never draws the run-loop warning.
public enum TickerDiagnostics {
    struct Configuration {
        var logsOwnerRelease = false
        #if DEBUG
            var warnsAboutMistakes = true
        #else
            var warnsAboutMistakes = false
        #endif
        var logHandler: @Sendable (String) -> Void = { message in
            FileHandle.standardError.write(Data((message + "\n").utf8))
        }
    }

    static let configuration = Locked<Configuration>.make(Configuration())

    /// Whether to log a line when a ticker stops because its owner or target went away. Off by default.
    public static var logsOwnerRelease: Bool {
        get { configuration.withLock { $0.logsOwnerRelease } }
        set { configuration.withLock { $0.logsOwnerRelease = newValue } }
    }

    /// Whether to warn about likely mistakes (see the type's summary). On in debug builds.
    public static var warnsAboutMistakes: Bool {
        get { configuration.withLock { $0.warnsAboutMistakes } }
        set { configuration.withLock { $0.warnsAboutMistakes = newValue } }
    }

    /// Replaces where diagnostics go (standard error by default). The handler may be called from any
    /// thread, never under a TimerKit lock.
    public static func setLogHandler(_ handler: @escaping @Sendable (String) -> Void) {
        // The old handler (and what it captured) is released after unlocking.
        let previous = configuration.withLock { configuration in
            defer { configuration.logHandler = handler }
            return configuration.logHandler
        }
        _ = previous
    }

    /// Every ticker that has not finished or been cancelled, in the process (or, under virtual time, in
    /// the current virtual time), ordered by creation site. Tickers whose owner has gone away are stopped
    /// first, and not listed.
    ///
    /// Each context is read a slice of 1,024 tickers at a time, so its handlers and lifecycle calls wait
    /// for one slice at most, never for the whole list: the list is therefore not one atomic picture (a
    /// ticker created or stopped while it is taken may or may not appear). It costs time and memory in
    /// proportion to the number of tickers; to watch a count, use ``liveTickerCount``.
    public static func liveTickers() -> [TickerSnapshot] {
        TimeBase.current.engines()
            .flatMap { $0.liveSnapshots() }
            .sorted { ($0.fileID, $0.line) < ($1.fileID, $1.line) }
    }

    /// The number of tickers that have not finished or been cancelled, in the process (or, under virtual
    /// time, in the current virtual time): cheap enough for a monitor to poll (one short lock per
    /// context, no allocation per ticker).
    ///
    /// Unlike ``liveTickers()`` it stops nothing, so it also counts a bound ticker whose owner has gone
    /// away but which has not noticed yet (it does at its next deadline, or when tickers are listed).
    public static var liveTickerCount: Int {
        TimeBase.current.engines().reduce(0) { $0 + $1.liveCount() }
    }

    /// A human-readable list of ``liveTickers()``, one line each.
    public static func report() -> String {
        let tickers = liveTickers()
        guard !tickers.isEmpty else { return "TimerKit: no live tickers" }
        return (["TimerKit: \(tickers.count) live ticker(s)"] + tickers.map { "  \($0)" }).joined(separator: "\n")
    }
}

/// Internal entry points that format and emit diagnostics.
enum Diagnostics {
    static func log(_ message: String) {
        let handler = TickerDiagnostics.configuration.withLock { $0.logHandler }
        handler(message)
    }

    static func warn(_ message: @autoclosure () -> String) {
        guard TickerDiagnostics.warnsAboutMistakes else { return }
        log("TimerKit warning: " + message())
    }

    /// Stops the program with `message` unless `condition` holds, in every build configuration: bad input
    /// that TimerKit documents as "stops the program with a message" (a NaN number of seconds or hertz,
    /// a main-actor subscription on another context). `precondition` would drop the message under `-O`,
    /// leaving a release build with a bare "precondition failure"; `fatalError` keeps it.
    @inline(__always)
    static func require(
        _ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line
    ) {
        if !condition { stop(message(), file: file, line: line) }
    }

    /// Stops the program with `message` (see ``require(_:_:file:line:)``).
    @inline(never)
    static func stop(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
        fatalError(message, file: file, line: line)
    }

    static func ownerWentAway(origin: TickerSite, context: TickerContext) {
        guard TickerDiagnostics.logsOwnerRelease else { return }
        log(
            Lifetime.ownerGoneLine(
                "ticker", site: "\(origin.fileID):\(origin.line)", binding: origin.binding,
                ownerType: origin.ownerTypeName, context: context.description))
    }
}

// MARK: - Run loops that do not run

extension Diagnostics {
    /// How far past its deadline a ticker on a run loop that is not running must be before the warning:
    /// scheduling on a loop and running it afterwards is the normal pattern, so the warning waits.
    static let runLoopGraceNanoseconds: Int64 = 1_000_000_000

    /// Engines with a run-loop check scheduled (at most one each).
    private static let runLoopChecks = Locked<RunLoopCheckTable>.make(RunLoopCheckTable())

    /// Called after a ticker is added on `engine`. When that is a run loop on the system clock (never
    /// under virtual time) and the loop is not running right now, schedules a check, off the loop, for
    /// when the ticker's deadline is ``runLoopGraceNanoseconds`` overdue: if the loop still has not
    /// served it then and is not running, the check warns. Costs nothing when warnings are off, and a
    /// read of the loop's current mode otherwise.
    static func watchRunLoop(of engine: TickerEngine, ticker id: TickerID, timeBase: TimeBase) {
        guard case .system = timeBase.source, case .runLoop(let loop, _) = engine.context.storage,
            TickerDiagnostics.warnsAboutMistakes, loop.runLoop.currentMode == nil,
            let deadline = engine.snapshot(id)?.nextDeadline, deadline != .distantFuture,
            runLoopChecks.withLock({ $0.claim(engine, at: ObjectIdentifier(engine)) })
        else { return }
        scheduleRunLoopCheck(engine, at: deadline.nanoseconds)
    }

    /// Whether a run-loop check is scheduled for `engine` (for tests).
    static func isWatchingRunLoop(of engine: TickerEngine) -> Bool {
        runLoopChecks.withLock { $0.isWatching(engine, at: ObjectIdentifier(engine)) }
    }

    private static func scheduleRunLoopCheck(_ engine: TickerEngine, at deadline: Int64) {
        let wait = deadline.addingSaturating(runLoopGraceNanoseconds) - engine.now().nanoseconds
        // Held weakly: a pending check must not keep an engine (and its run-loop timer) that lost its last
        // ticker alive until the check's time. An engine that went away has nothing to warn about.
        let key = ObjectIdentifier(engine)
        let weakEngine = WeakReference(engine)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: max(0, wait)))) {
            guard let engine = weakEngine.object as? TickerEngine else {
                // Unless a new engine at the same address has taken the entry over for its own check. That
                // engine, loaded under the lock, is released after unlocking (it may be its last reference).
                let successor = runLoopChecks.withLock { $0.dropStale(at: key) }
                _ = successor
                return
            }
            checkRunLoop(of: engine)
        }
    }

    /// Warns when the engine's run loop is not running and a ticker on it is overdue by the grace;
    /// checks again later while the loop is not running and its tickers are not overdue yet.
    private static func checkRunLoop(of engine: TickerEngine) {
        guard case .runLoop(let loop, _) = engine.context.storage else { return }
        let now = engine.now().nanoseconds
        let waiting = engine.liveSnapshots()
            .filter { $0.state == .running && $0.nextDeadline.map { $0 != .distantFuture } == true }
            .sorted { $0.nextDeadline! < $1.nextDeadline! }
        let isRunning = loop.runLoop.currentMode != nil
        let overdue = waiting.filter { now - $0.nextDeadline!.nanoseconds >= runLoopGraceNanoseconds }
        let recheck = isRunning || !overdue.isEmpty ? nil : waiting.first?.nextDeadline
        if recheck == nil { runLoopChecks.withLock { $0.release(engine, at: ObjectIdentifier(engine)) } }
        if let recheck {
            scheduleRunLoopCheck(engine, at: recheck.nanoseconds)
        }
        guard !isRunning, let first = overdue.first else { return }
        let late = Duration.nanoseconds(now - first.nextDeadline!.nanoseconds)
        let others = overdue.count > 1 ? " (and \(overdue.count - 1) more ticker(s) on it)" : ""
        warn(
            "ticker at \(first.fileID):\(first.line) is \(late) past its deadline on \(engine.context), and that run "
                + "loop is not running\(others); tickers fire only while their run loop runs. Run the loop on its "
                + "thread (for example RunLoop.current.run()), or use TickerContext.dispatch(_:)."
        )
    }
}

/// The run-loop checks scheduled, one entry per engine address, each with a weak reference that tells
/// whether the entry is still that engine's: a check outlives an engine that goes away (it holds it
/// weakly), and a new engine may then be allocated at the same address. The address is a parameter (the
/// engine's `ObjectIdentifier`), so that tests can give two objects one address.
struct RunLoopCheckTable {
    private var entries: [ObjectIdentifier: WeakReference] = [:]

    /// Records a check for `engine`, at `address`; `false` if that engine has one already. An entry left
    /// by a gone engine at this address is stale: this engine takes it over.
    mutating func claim(_ engine: AnyObject, at address: ObjectIdentifier) -> Bool {
        guard entries[address]?.object !== engine else { return false }
        entries[address] = WeakReference(engine)
        return true
    }

    /// Whether a check is recorded for `engine` itself (not for a gone engine at its address).
    func isWatching(_ engine: AnyObject, at address: ObjectIdentifier) -> Bool {
        entries[address]?.object === engine
    }

    /// `engine`'s check ended: removes its entry (an entry at `address` that is another engine's stays).
    mutating func release(_ engine: AnyObject, at address: ObjectIdentifier) {
        if entries[address]?.object === engine { entries[address] = nil }
    }

    /// The check of an engine that went away ended: removes the entry at `address` unless a new engine
    /// there took it over, and returns that engine (to be released after unlocking: it may be its last
    /// reference).
    mutating func dropStale(at address: ObjectIdentifier) -> AnyObject? {
        let object = entries[address]?.object
        if object == nil { entries[address] = nil }
        return object
    }
}
