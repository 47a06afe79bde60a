import Foundation

/// Notices that the system's wall clock was set or its time zone changed, and has every running
/// wall-clock ticker compute its deadline again. Uptime and continuous tickers are never moved.
///
/// **How a clock set is noticed.** The offset between the wall clock and the continuous clock only
/// changes when the wall clock is set (or slewed by time synchronisation). It is read at every wake-up of
/// an engine on the continuous clock — wall-clock tickers count on it, and such an engine never waits
/// longer than a second on a system context (see `ContinuousAlarm`) — and a change of more than
/// ``threshold`` recomputes. This costs two clock readings per wake-up that already happens, and notices a
/// set within a second. (The alternative on Linux, a `timerfd` armed with `TFD_TIMER_CANCEL_ON_SET`,
/// notices at once but needs a thread blocked on it for the process's life; `timerkit-bench --only
/// calendar` measures both.) On Apple platforms `NSSystemClockDidChangeNotification` also recomputes at
/// once.
///
/// **How a zone change is noticed.** `NSSystemTimeZoneDidChangeNotification` (Apple platforms); and, at a
/// wake-up at most every ``zoneCheckInterval``, the `TZ` variable and the `/etc/localtime` link (where
/// Linux keeps the zone): a change resets Foundation's cached zone and recomputes.
///
/// Under virtual time, setting the virtual wall clock or zone recomputes that time base's tickers at
/// once (`VirtualTime.setWallClock(to:)`).
enum WallClockWatch {
    /// The smallest change of the wall clock's offset that recomputes: larger than the slewing of time
    /// synchronisation between two wake-ups, smaller than any clock set worth following.
    static let threshold: Int64 = 10_000_000

    /// How often, at most, a wake-up looks at the zone's settings (in continuous nanoseconds).
    static let zoneCheckInterval: Int64 = 5_000_000_000

    private struct State {
        var isWatching = false
        /// Wall minus continuous clock, in nanoseconds, when last looked at.
        var offset: Int64 = 0
        var zoneSignature = ""
        var zoneCheckedAt: Int64 = 0
        var recomputations = 0
    }

    private static let state = Locked<State>.make(State())

    /// Starts watching the system clock, once, when the first wall-clock ticker is made on `timeBase`
    /// (virtual time bases are told of their changes by the test).
    static func watch(_ timeBase: TimeBase) {
        guard case .system = timeBase.source else { return }
        let isNew = state.withLock { state -> Bool in
            guard !state.isWatching else { return false }
            state.isWatching = true
            state.offset = currentOffset()
            state.zoneSignature = zoneSignature()
            return true
        }
        guard isNew else { return }
        // The tokens are not kept: the registrations last for the process's life (the watch never stops, and
        // it costs nothing between wake-ups), and the center holds the blocks until a token removes them.
        let center = NotificationCenter.default
        _ = center.addObserver(
            forName: Notification.Name("NSSystemClockDidChangeNotification"), object: nil, queue: nil
        ) { _ in clockChanged() }
        _ = center.addObserver(
            forName: Notification.Name("NSSystemTimeZoneDidChangeNotification"), object: nil, queue: nil
        ) { _ in zoneChanged() }
    }

    /// Called at each wake-up of a continuous-clock engine on system time: recomputes when the wall clock
    /// moved against the continuous clock, or the zone's settings changed.
    static func check() {
        // Before any wall-clock ticker, one uncontended lock and nothing else.
        guard state.withLock({ $0.isWatching }) else { return }
        let now = Platform.continuousNanoseconds()
        check(continuous: now, wall: TimeBase.Source.system.wallNanoseconds())
    }

    /// `check()` with the two clocks' readings given (tests pass readings of a clock that was set).
    static func check(continuous now: Int64, wall: Int64) {
        let offset = wall.subtractingSaturating(now)
        let (clockMoved, zoneChanged) = state.withLock { state -> (Bool, Bool) in
            guard state.isWatching else { return (false, false) }
            var moved = false
            if abs(offset.subtractingSaturating(state.offset)) > threshold {
                state.offset = offset
                moved = true
            }
            guard now.subtractingSaturating(state.zoneCheckedAt) >= zoneCheckInterval else { return (moved, false) }
            state.zoneCheckedAt = now
            let signature = zoneSignature()
            guard signature != state.zoneSignature else { return (moved, false) }
            state.zoneSignature = signature
            return (moved, true)
        }
        if zoneChanged { NSTimeZone.resetSystemTimeZone() }
        if clockMoved || zoneChanged { recompute(.system) }
    }

    private static func clockChanged() {
        state.withLock { $0.offset = currentOffset() }
        recompute(.system)
    }

    private static func zoneChanged() {
        NSTimeZone.resetSystemTimeZone()
        state.withLock { $0.zoneSignature = zoneSignature() }
        recompute(.system)
    }

    /// How many times the system's wall-clock tickers were recomputed (for tests).
    static var systemRecomputations: Int { state.withLock { $0.recomputations } }

    /// Every running wall-clock ticker of `timeBase` computes its deadline again.
    static func recompute(_ timeBase: TimeBase) {
        if case .system = timeBase.source { state.withLock { $0.recomputations += 1 } }
        for engine in timeBase.engines() where engine.clock.kind == .continuous {
            for (ticker, id) in engine.runningWallTickers() {
                ticker.recompute(.clockChanged, engine: engine, id: id)
            }
        }
    }

    private static func currentOffset() -> Int64 {
        TimeBase.Source.system.wallNanoseconds().subtractingSaturating(Platform.continuousNanoseconds())
    }

    /// What decides the system's zone: the `TZ` variable and the target of `/etc/localtime`.
    static func zoneSignature() -> String {
        let variable = getenv("TZ").map { String(cString: $0) } ?? ""
        var buffer = [CChar](repeating: 0, count: 1_024)
        let length = readlink("/etc/localtime", &buffer, buffer.count - 1)
        let link = length > 0 ? String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        return variable + "|" + link
    }
}
