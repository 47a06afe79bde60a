/// Identifies one ticker inside its engine: a slot in the record table and the serial number the engine
/// gave the ticker when it took that slot (so a handle to a ticker whose slot was reused finds nothing).
struct TickerID: Hashable, Sendable {
    let slot: UInt32
    let serial: UInt32
}

/// The handler as the engine stores it. Every form is called on the context, never under a lock.
enum TickHandler: Sendable {
    /// A handle-owned closure: receives the tick only (stored as the user wrote it, without a wrapper).
    case tick(@Sendable (Tick) -> Void)
    /// A bound closure: receives the owner, which the engine loaded and keeps alive for the call.
    case owner(@Sendable (AnyObject, Tick) -> Void)
    /// An internal closure that also receives the engine and id (to hand out a view handle); the owner is
    /// `nil` for tickers without one.
    case full(@Sendable (Tick, AnyObject?, TickerEngine, TickerID) -> Void)

    func callAsFunction(_ tick: Tick, owner: AnyObject?, engine: TickerEngine, id: TickerID) {
        switch self {
        case .tick(let handler): handler(tick)
        case .owner(let handler): handler(owner!, tick)
        case .full(let handler): handler(tick, owner, engine, id)
        }
    }
}

/// Where and how a ticker is being created, as the factories pass it to the engine.
struct TickerOrigin: Sendable, Hashable {
    let fileID: String
    let line: Int
    let ownerType: Any.Type?
    /// How the handler is bound (never `.view`: a view is a second handle to an existing ticker).
    let binding: Lifetime.Binding
    /// Internal tickers whose handlers only hand a value over (and never stop other tickers) may be
    /// delivered in batches: several decided under one lock, then called back to back.
    var isBatched = false

    static func == (lhs: TickerOrigin, rhs: TickerOrigin) -> Bool {
        lhs.line == rhs.line && lhs.binding == rhs.binding && lhs.isBatched == rhs.isBatched
            && lhs.ownerTypeID == rhs.ownerTypeID && lhs.fileID == rhs.fileID
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(fileID)
        hasher.combine(line)
        hasher.combine(ownerTypeID)
        hasher.combine(binding)
        hasher.combine(isBatched)
    }

    private var ownerTypeID: ObjectIdentifier? { ownerType.map(ObjectIdentifier.init) }
}

/// Where and how a ticker was created, and the schedule numbers of the first ticker made there: shared by
/// every ticker an engine holds from the same call site (see `TickerStateMachine.site(for:times:)`), so a
/// record keeps one reference instead of the origin and, when its schedule is the site's (the usual case:
/// one line of code, one schedule), instead of its numbers too.
final class TickerSite: Sendable {
    let origin: TickerOrigin
    let times: ScheduleTimes

    init(_ origin: TickerOrigin, times: ScheduleTimes) {
        self.origin = origin
        self.times = times
    }

    var fileID: String { origin.fileID }
    var line: Int { origin.line }
    var binding: Lifetime.Binding { origin.binding }
    var isBatched: Bool { origin.isBatched }
    var ownerTypeName: String? { origin.ownerType.map { String(describing: $0) } }
}

/// Where a ticker is in its lifecycle, with the data each phase needs (and only that phase).
///
///     idle ──start/restart──▶ running(origin) ──pause──▶ paused(remaining) ──resume──▶ running
///       │                       │  ▲ restart                │ restart ─────────────────▶ running
///       └──────────cancel───────┴──┴──cancel / owner gone───┴──▶ cancelled
///                               └──last deadline delivered──▶ finished
enum TickerPhase: Equatable {
    /// Created with `startsImmediately: false`; deadline 1 is one first delay after `start()`.
    case idle
    /// Deadline k is `origin + offset(k)`: the instant of deadline 0, moved forward by time spent paused.
    case running(origin: Int64)
    /// The time from the pause to the next deadline, which `resume()` waits again.
    case paused(remaining: Int64)
    case finished
    case cancelled

    /// The phase as the public API names it.
    var state: TickerState {
        switch self {
        case .idle: .idle
        case .running: .running
        case .paused: .paused
        case .finished: .finished
        case .cancelled: .cancelled
        }
    }

    /// Whether the ticker may still deliver (not finished or cancelled).
    var isLive: Bool {
        switch self {
        case .idle, .running, .paused: true
        case .finished, .cancelled: false
        }
    }
}

/// Pending `fire()` requests of one ticker: rare, so they live in a side table of the machine (by slot)
/// rather than in every record.
struct ManualFires {
    /// Requests not yet delivered (at least 1 while in the table).
    var pending: UInt32
    /// When the first of them was made.
    var requestedAt: Int64
}

/// One ticker's state, inside its engine's lock: 80 bytes, most of a pending ticker's memory. Only
/// ever accessed in place (copying one retains its handler and site and copies its weak owner). The
/// small fields follow the handler and the phase, to fill the words their enum tags start. The schedule
/// numbers are the site's, or (`hasOwnTimes`) in the machine's side table.
struct TickerRecord {
    /// Set while the ticker is live; taken out (and released after unlocking) when it stops.
    var handler: TickHandler?
    var handleAlive = true
    /// Whether the slot holds a ticker (a free slot's record holds no handler and no owner).
    var isOccupied = true
    /// Whether the machine's side table holds pending `fire()` requests for this slot.
    var hasManualFires = false
    var serial: UInt32 = 0
    var phase: TickerPhase
    /// Whether the schedule numbers differ from the site's: then they are in the machine's side table.
    var hasOwnTimes = false
    /// Deadlines skipped because deliveries came late; saturates at `UInt32.max`.
    var skippedTotal: UInt32 = 0
    /// The owner or target of a bound ticker, held weakly: the engine loads it under the lock right before
    /// each delivery and between deadlines in the dead-owner sweep.
    weak var owner: AnyObject?
    var site: TickerSite
    /// The next deadline still to be served (1-based); the last one delivered is `nextIndex - 1`.
    var nextIndex = 1
    var fireCount = 0
    /// When the ticker was created.
    var createdAt: Int64

    init(phase: TickerPhase, site: TickerSite, owner: AnyObject?, handler: TickHandler?, now: Int64) {
        self.handler = handler
        self.phase = phase
        self.owner = owner
        self.site = site
        self.createdAt = now
    }

    /// The heap key from the fields it depends on (so that the machine can read them one by one from a
    /// page, without copying a whole record): (deadline, latest) under which the record waits in the heap,
    /// or nil when it waits for nothing.
    ///
    /// A saturated deadline (`Int64.max`: beyond about 292 years) is never due: it does not wait in the
    /// heap, so it never arms the alarm and never fires, and advancing virtual time to the end of the
    /// timeline returns. A pending `fire()` is still delivered.
    @inline(__always)
    static func heapKey(
        phase: TickerPhase, times: ScheduleTimes, nextIndex: Int, manualRequestedAt manual: Int64?
    ) -> (deadline: Int64, latest: Int64)? {
        var scheduled: Int64?
        if case .running(let origin) = phase {
            let deadline = origin.addingSaturating(times.offset(ofDeadline: nextIndex))
            if deadline < .max { scheduled = deadline }
        }
        switch (scheduled, manual) {
        case (nil, nil): return nil
        case let (s?, nil): return (s, s.addingSaturating(times.toleranceNanoseconds))
        case let (nil, m?): return (m, m)
        case let (s?, m?): return (min(s, m), min(s.addingSaturating(times.toleranceNanoseconds), m))
        }
    }
}
