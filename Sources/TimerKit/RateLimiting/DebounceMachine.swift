/// Debounce timing as pure value math: no clock, no lock, no side effects.
///
/// Times are nanoseconds on the rate limiter's time base. Every event first ``settle(at:dropping:)``s the
/// machine up to its instant, so a wake-up that comes late (a busy context) decides exactly what an
/// on-time one would have, in order. Values the machine lets go are handed to `dropping`, to be released
/// by the caller after it unlocks.
struct DebounceMachine<Value: Sendable>: RateLimitMachine {
    /// The quiet period, in nanoseconds (≥ 0).
    let interval: Int64
    /// The longest a pending value waits during a continuous burst, in nanoseconds (≥ interval).
    let maxWait: Int64?
    let leading: Bool
    let trailing: Bool

    /// The latest value not yet decided for delivery.
    private(set) var pending: Value?
    /// Values decided for delivery, oldest first, waiting for the context.
    private(set) var ready: [Value] = []
    /// Whether a burst is going on: a send came less than `interval` ago (as of the last settle).
    private(set) var inBurst = false
    /// The instant of the burst's latest send.
    private(set) var lastSend: Int64 = 0
    /// The instant `maxWait` counts from: the burst's first send, or the latest delivery decided since.
    private(set) var maxWaitFrom: Int64 = 0

    init(interval: Int64, maxWait: Int64?, edges: RateLimitEdges) {
        self.interval = interval
        self.maxWait = maxWait
        self.leading = edges.includesLeading
        self.trailing = edges.includesTrailing
    }

    /// The instant the current burst goes quiet.
    private var quietEnd: Int64 { lastSend.addingSaturating(interval) }

    mutating func settle(at now: Int64, dropping dropped: inout Dropped<Value>) {
        guard inBurst else { return }
        // maxWait first when it falls no later than the quiet end: it is the earlier of the two deadlines.
        if pending != nil, let maxWait {
            let due = maxWaitFrom.addingSaturating(maxWait)
            if due <= now, due <= quietEnd {
                ready.append(pending.take()!)
                maxWaitFrom = now
            }
        }
        if quietEnd <= now {
            if let value = pending.take() {
                if trailing { ready.append(value) } else { dropped.add(value) }
            }
            inBurst = false
        }
    }

    mutating func receive(_ value: Value, at now: Int64, dropping dropped: inout Dropped<Value>) {
        settle(at: now, dropping: &dropped)
        if inBurst {
            if let old = pending.take() { dropped.add(old) }
            pending = value
        } else {
            inBurst = true
            maxWaitFrom = now
            if leading { ready.append(value) } else { pending = value }
        }
        lastSend = now
    }

    /// Decides the pending value for delivery now, whatever the edges; the burst goes on.
    mutating func flush(at now: Int64, dropping dropped: inout Dropped<Value>) {
        settle(at: now, dropping: &dropped)
        guard let value = pending.take() else { return }
        ready.append(value)
        maxWaitFrom = now
    }

    mutating func takeReady() -> Value? {
        ready.isEmpty ? nil : ready.removeFirst()
    }

    /// Drops every value and ends the burst: the next send starts a new one.
    mutating func discardAll(dropping dropped: inout Dropped<Value>) {
        if let value = pending.take() { dropped.add(value) }
        dropped.add(contentsOf: ready)
        ready = []
        inBurst = false
    }

    var nextWake: Int64? {
        if !ready.isEmpty { return .min }
        // A burst with nothing pending ends by itself: the next send settles it. A pending value needs a
        // wake at the quiet end (to deliver it, or to let it go when the trailing edge is off) or earlier
        // at its maxWait deadline.
        guard inBurst, pending != nil else { return nil }
        guard let maxWait else { return quietEnd }
        return min(quietEnd, maxWaitFrom.addingSaturating(maxWait))
    }

    var hasPendingValue: Bool { pending != nil || !ready.isEmpty }
}
