/// Throttle timing as pure value math: no clock, no lock, no side effects.
///
/// A window of `interval` opens when a value arrives while none is open (the leading edge delivers that
/// value) and again at each trailing delivery, so deliveries are decided at least `interval` apart. A
/// window whose end passes with nothing pending closes. As with ``DebounceMachine``, every event first
/// settles the machine up to its instant, and values it lets go are handed to `dropping`.
struct ThrottleMachine<Value: Sendable>: RateLimitMachine {
    /// The window length, in nanoseconds (≥ 0).
    let interval: Int64
    let leading: Bool
    let trailing: Bool

    /// The latest value sent inside the open window, waiting for its end (trailing edge only).
    private(set) var pending: Value?
    /// Values decided for delivery, oldest first, waiting for the context.
    private(set) var ready: [Value] = []
    /// The end of the open window; `nil` when no window is open.
    private(set) var windowEnd: Int64?

    init(interval: Int64, edges: RateLimitEdges) {
        self.interval = interval
        self.leading = edges.includesLeading
        self.trailing = edges.includesTrailing
    }

    mutating func settle(at now: Int64, dropping dropped: inout Dropped<Value>) {
        // At most two turns: a trailing delivery opens a window from `now`; only a zero interval ends it at
        // once, and then nothing is pending.
        while let end = windowEnd, end <= now {
            if let value = pending.take() {
                ready.append(value)
                windowEnd = now.addingSaturating(interval)
            } else {
                windowEnd = nil
            }
        }
    }

    mutating func receive(_ value: Value, at now: Int64, dropping dropped: inout Dropped<Value>) {
        settle(at: now, dropping: &dropped)
        if windowEnd == nil {
            windowEnd = now.addingSaturating(interval)
            if leading { ready.append(value) } else { pending = value }
        } else if trailing {
            if let old = pending.take() { dropped.add(old) }
            pending = value
        } else {
            dropped.add(value)
        }
    }

    mutating func takeReady() -> Value? {
        ready.isEmpty ? nil : ready.removeFirst()
    }

    /// Drops every value; the open window stays open, so the next delivery still comes no earlier than
    /// its end.
    mutating func discardAll(dropping dropped: inout Dropped<Value>) {
        if let value = pending.take() { dropped.add(value) }
        dropped.add(contentsOf: ready)
        ready = []
    }

    var nextWake: Int64? {
        if !ready.isEmpty { return .min }
        // An open window with nothing pending closes by itself: the next send settles it.
        guard pending != nil else { return nil }
        return windowEnd
    }

    var hasPendingValue: Bool { pending != nil || !ready.isEmpty }
}
