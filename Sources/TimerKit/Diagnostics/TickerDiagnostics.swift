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
    /// the ticker is created).
    public let schedule: TickSchedule
    /// How many times the handler has been called.
    public let fireCount: Int
    /// How many deadlines were skipped because deliveries came late (saturates at `UInt32.max`).
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
/// handle-owned ticker released right after creation, before it ever fired; input that had to be
/// clamped; scheduling on the current thread's run loop while it is not running — are on in debug builds
/// of TimerKit and off in release builds, unless set explicitly.
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

    static func ownerWentAway(origin: TickerSite, context: TickerContext) {
        guard TickerDiagnostics.logsOwnerRelease else { return }
        let who = origin.ownerTypeName ?? "owner"
        log(
            "TimerKit: ticker created at \(origin.fileID):\(origin.line) stopped because its \(origin.binding.name) \(who) went away (\(context))"
        )
    }
}
