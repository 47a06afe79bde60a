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
    /// A tick sequence's waiter, called directly (no closure around it), so that a batch being served can
    /// ask for the next waiters' memory ahead of their turn (see `TickerStateMachine.DueBatch`).
    case waiter(TickWaiterToken)
    /// A wall-clock ticker's occurrences, around the handler it was made with (see `WallTicker`): the
    /// engine parks such a ticker after each scheduled delivery, and the wall ticker retargets it.
    case wall(WallTicker)

    /// The wall-clock ticker, for a ticker that follows the wall clock.
    var wallTicker: WallTicker? {
        if case .wall(let ticker) = self { return ticker }
        return nil
    }

    func callAsFunction(_ tick: Tick, owner: AnyObject?, engine: TickerEngine, id: TickerID) {
        switch self {
        case .tick(let handler): handler(tick)
        case .owner(let handler): handler(owner!, tick)
        case .full(let handler): handler(tick, owner, engine, id)
        case .waiter(let token): token.fired(tick, engine: engine, id: id)
        case .wall(let ticker): ticker.fired(tick, owner: owner, engine: engine, id: id)
        }
    }
}

// Invariant: every field of a record is Sendable but `owner`, a weak `AnyObject`. The engine only loads
// that reference, under its lock, to test it for nil and to hand it to the ticker's handler, which the
// binding's API runs where the owner may be used (the main actor's forms on the main run loop, every other
// form with an owner the API requires to be `Sendable`); it never reaches the owner's members.
extension TickerRecord: @unchecked Sendable {}

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

/// Where and how a ticker was created, and its schedule numbers. Shared by every ticker an engine holds
/// from the same call site whose numbers are those of the first ticker made there (the usual case: one line
/// of code, one schedule; see `TickerStateMachine.site(for:times:)`), so a record keeps one reference
/// instead of the origin and the numbers. A ticker with other numbers gets a site of its own: serving it
/// reads its schedule through the record's reference, as for any other, not from a table keyed by slot.
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

    /// What a freed slot's record refers to instead of a site of its own (see `SlotTable.free`).
    static let vacant = TickerSite(
        TickerOrigin(fileID: "", line: 0, ownerType: nil, binding: .handle),
        times: ScheduleTimes(firstDelayNanoseconds: 0, intervalNanoseconds: 0, toleranceNanoseconds: 0, bound: 0))
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

/// A ticker's delivery counters: the next deadline still to be served (1-based; the last one delivered is
/// `nextIndex - 1`), the handler calls so far, and the deadlines skipped because deliveries came late.
struct TickerCounts: Equatable {
    var nextIndex = 1
    var fireCount = 0
    var skippedTotal = 0
}

/// One ticker's state, inside its engine's lock: 64 bytes, most of a pending ticker's memory. Only ever
/// accessed in place (copying one retains its handler and site and copies its weak owner).
///
/// Layout, in declaration order (Swift keeps it; `StorageLayoutTests` checks the size and offsets):
///
///     offset  field          bytes
///      0      handler         17  (a closure and its case)
///     17      bits             1  (the phase's case in 3 bits, and five flags)
///     18      skipped          2
///     20      serial           4
///     24      phase value      8
///     32      owner (weak)     8
///     40      site             8
///     48      createdAt        8
///     56      next index       4
///     60      fire count       4
///
/// The counters (see ``TickerCounts``) are inline while they fit: next index and fire count up to
/// 2^32 - 1, skipped up to 2^16 - 1. A ticker that outgrows one moves all three, exact, to the machine's
/// side table (`hasWideCounts`) until its slot is freed; reaching that takes four billion deadlines or
/// calls, or more than 65,535 skipped deadlines, so the table is almost always empty.
///
/// The phase is stored as its case (in `bits`) and its one number (`phaseValue`: the origin while
/// running, the time left while paused), and read and written as a ``TickerPhase``. The schedule numbers
/// are the site's (a ticker whose numbers differ from its call site's shared ones has a site of its own).
struct TickerRecord {
    /// Set while the ticker is live; taken out (and released after unlocking) when it stops.
    var handler: TickHandler?
    /// The phase's case (bits 0–2, `Bits.phaseMask`) and the flags below.
    private var bits: UInt8
    private var skippedInline: UInt16 = 0
    var serial: UInt32 = 0
    /// The number the phase carries (origin while running, time left while paused), 0 otherwise.
    private var phaseValue: Int64
    /// The owner or target of a bound ticker, held weakly: the engine loads it under the lock right before
    /// each delivery and between deadlines in the dead-owner sweep.
    weak var owner: AnyObject?
    var site: TickerSite
    /// When the ticker was created.
    var createdAt: Int64
    private var nextIndexInline: UInt32 = 1
    private var fireCountInline: UInt32 = 0

    init(phase: TickerPhase, site: TickerSite, owner: AnyObject?, handler: TickHandler?, now: Int64) {
        self.handler = handler
        let (kind, value) = Self.encode(phase)
        self.bits = kind | Bits.handleAlive | Bits.isOccupied
        self.phaseValue = value
        self.owner = owner
        self.site = site
        self.createdAt = now
    }

    // MARK: Phase

    /// Where the ticker is in its lifecycle (stored as a case number and a value).
    var phase: TickerPhase {
        @inline(__always) get { Self.decode(kind: bits & Bits.phaseMask, value: phaseValue) }
        @inline(__always) set {
            let (kind, value) = Self.encode(newValue)
            bits = bits & ~Bits.phaseMask | kind
            phaseValue = value
        }
    }

    @inline(__always)
    private static func encode(_ phase: TickerPhase) -> (kind: UInt8, value: Int64) {
        switch phase {
        case .idle: (0, 0)
        case .running(let origin): (1, origin)
        case .paused(let remaining): (2, remaining)
        case .finished: (3, 0)
        case .cancelled: (4, 0)
        }
    }

    @inline(__always)
    private static func decode(kind: UInt8, value: Int64) -> TickerPhase {
        switch kind {
        case 0: .idle
        case 1: .running(origin: value)
        case 2: .paused(remaining: value)
        case 3: .finished
        default: .cancelled
        }
    }

    // MARK: Flags

    private enum Bits {
        static let phaseMask: UInt8 = 0b111
        static let handleAlive: UInt8 = 1 << 3
        static let isOccupied: UInt8 = 1 << 4
        static let hasManualFires: UInt8 = 1 << 5
        static let hasOwnSite: UInt8 = 1 << 6
        static let hasWideCounts: UInt8 = 1 << 7
    }

    @inline(__always)
    private mutating func set(_ flag: UInt8, _ on: Bool) {
        bits = on ? bits | flag : bits & ~flag
    }

    /// Whether a handle (other than a view) still refers to the ticker: until it goes, the slot is kept.
    var handleAlive: Bool {
        @inline(__always) get { bits & Bits.handleAlive != 0 }
        set { set(Bits.handleAlive, newValue) }
    }

    /// Whether the slot holds a ticker (a free slot's record holds no handler and no owner).
    var isOccupied: Bool {
        @inline(__always) get { bits & Bits.isOccupied != 0 }
        set { set(Bits.isOccupied, newValue) }
    }

    /// Whether the machine's side table holds pending `fire()` requests for this slot.
    var hasManualFires: Bool {
        @inline(__always) get { bits & Bits.hasManualFires != 0 }
        set { set(Bits.hasManualFires, newValue) }
    }

    /// Whether the site is the ticker's own (its schedule numbers differ from its call site's shared ones):
    /// a freed slot then lets it go instead of keeping it until the slot is taken again.
    var hasOwnSite: Bool {
        @inline(__always) get { bits & Bits.hasOwnSite != 0 }
        set { set(Bits.hasOwnSite, newValue) }
    }

    /// Whether the counters outgrew the record: then they are in the machine's side table (see the type's
    /// summary), and the inline ones are stale.
    var hasWideCounts: Bool {
        @inline(__always) get { bits & Bits.hasWideCounts != 0 }
        set { set(Bits.hasWideCounts, newValue) }
    }

    // MARK: Counters

    /// The counters as stored inline (meaningless once `hasWideCounts` is set).
    var inlineCounts: TickerCounts {
        TickerCounts(
            nextIndex: Int(nextIndexInline), fireCount: Int(fireCountInline), skippedTotal: Int(skippedInline))
    }

    /// The next index as stored inline (meaningless once `hasWideCounts` is set).
    var inlineNextIndex: Int { Int(nextIndexInline) }

    /// Stores `counts` inline if each fits its field; returns false (storing nothing) if one does not.
    @inline(__always)
    mutating func storeInline(_ counts: TickerCounts) -> Bool {
        guard let next = UInt32(exactly: counts.nextIndex), let fired = UInt32(exactly: counts.fireCount),
            let skipped = UInt16(exactly: counts.skippedTotal)
        else { return false }
        nextIndexInline = next
        fireCountInline = fired
        skippedInline = skipped
        return true
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
