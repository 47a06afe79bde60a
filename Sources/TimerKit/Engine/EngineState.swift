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

/// How a ticker's handler is bound; decides what releasing the handle does.
enum TickerBinding: UInt8, Sendable {
    /// A closure that receives the owner; the owner is held weakly and defines the lifetime.
    case owner
    /// Target–action with an unbound method reference; the target is held weakly.
    case target
    /// A closure owned by the handle: releasing the handle cancels.
    case handle

    var name: String {
        switch self {
        case .owner: "owner"
        case .target: "target"
        case .handle: "handle"
        }
    }
}

/// Where and how a ticker is being created, as the factories pass it to the engine.
struct TickerOrigin: Sendable, Hashable {
    let fileID: String
    let line: Int
    let ownerType: Any.Type?
    let binding: TickerBinding
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

/// Where and how a ticker was created, for diagnostics: shared by every ticker an engine holds from the
/// same call site (see `EngineState.site(for:)`), so a record keeps one reference instead of the origin.
final class TickerSite: Sendable {
    let origin: TickerOrigin

    init(_ origin: TickerOrigin) {
        self.origin = origin
    }

    var fileID: String { origin.fileID }
    var line: Int { origin.line }
    var binding: TickerBinding { origin.binding }
    var isBatched: Bool { origin.isBatched }
    var ownerTypeName: String? { origin.ownerType.map { String(describing: $0) } }
}

/// One ticker's state, inside its engine's lock: 120 bytes, most of a pending ticker's memory. Only
/// ever accessed in place (copying one retains its handler and site and copies its weak owner). The
/// small fields follow the handler to fill the word its enum tag starts.
struct TickerRecord {
    var handler: TickHandler?
    var state: TickerState
    var handleAlive = true
    /// Whether the slot holds a ticker (a free slot's record holds no handler and no owner).
    var isOccupied = true
    var serial: UInt32 = 0
    /// `fire()` requests not yet delivered.
    var manualPending: UInt32 = 0
    /// Deadlines skipped because deliveries came late; saturates at `UInt32.max`.
    var skippedTotal: UInt32 = 0
    /// The owner or target of a bound ticker, held weakly: the engine loads it under the lock right before
    /// each delivery and between deadlines in `TickerEngine.sweepDeadOwners`.
    weak var owner: AnyObject?
    var site: TickerSite
    var times: ScheduleTimes
    /// While running or idle: the instant of deadline 0 (deadline k is start + offset(k)), shifted forward
    /// by time spent paused. While paused: the time from the pause to the next deadline.
    var start: Int64
    /// The next deadline still to be served (1-based); the last one delivered is `nextIndex - 1`.
    var nextIndex = 1
    var fireCount = 0
    /// When the first pending `fire()` request was made.
    var manualRequestedAt: Int64 = 0
    /// When the ticker was created.
    var createdAt: Int64

    init(
        state: TickerState, times: ScheduleTimes, site: TickerSite, owner: AnyObject?, handler: TickHandler?,
        now: Int64
    ) {
        self.handler = handler
        self.state = state
        self.owner = owner
        self.site = site
        self.times = times
        self.start = now
        self.createdAt = now
    }

    /// The scheduled deadline to wait for, if the ticker is running.
    var scheduledDeadline: Int64? {
        guard state == .running else { return nil }
        return start.addingSaturating(times.offset(ofDeadline: nextIndex))
    }

    /// (deadline, latest) under which the record waits in the heap, or nil when it waits for nothing.
    var heapKey: (deadline: Int64, latest: Int64)? {
        Self.heapKey(
            state: state, start: start, times: times, nextIndex: nextIndex, manualPending: manualPending,
            manualRequestedAt: manualRequestedAt)
    }

    /// The heap key from the fields it depends on (so that the engine can read them one by one from a
    /// page, without copying a whole record).
    @inline(__always)
    static func heapKey(
        state: TickerState, start: Int64, times: ScheduleTimes, nextIndex: Int, manualPending: UInt32,
        manualRequestedAt: Int64
    ) -> (deadline: Int64, latest: Int64)? {
        let scheduled: Int64? = state == .running ? start.addingSaturating(times.offset(ofDeadline: nextIndex)) : nil
        let manual: Int64? = manualPending > 0 ? manualRequestedAt : nil
        switch (scheduled, manual) {
        case (nil, nil): return nil
        case let (s?, nil): return (s, s.addingSaturating(times.toleranceNanoseconds))
        case let (nil, m?): return (m, m)
        case let (s?, m?): return (min(s, m), min(s.addingSaturating(times.toleranceNanoseconds), m))
        }
    }
}

/// Whether an engine's alarm exists yet.
enum AlarmSlot {
    case none
    /// An arming was told to make it; it is published when made.
    case beingMade
    case made(any Alarm)
}

/// An arming decided under the engine's lock, applied after unlocking: the wake-up instant, the arming's
/// sequence number (to detect armings applied out of order), and how to reach the alarm.
struct Arming {
    enum AlarmAccess {
        case made(any Alarm)
        /// The alarm does not exist yet and this arming makes it.
        case make
        /// Another arming is making the alarm; it applies the newest arming once the alarm exists.
        case beingMade
    }

    var deadline: Int64
    var sequence: UInt64
    var alarm: AlarmAccess
}

/// Everything an engine knows, kept inside its lock: the ticker records (a ``SlotTable``), a 4-ary
/// min-heap of pending deadlines (ordered by deadline, then arrival order), and what the alarm is armed
/// for.
///
/// The table gives pages back as tickers go, and the heap's storage shrinks when it is mostly empty: after
/// a burst, an engine's memory returns to what its remaining tickers need.
struct EngineState {
    private(set) var table = SlotTable()
    private var nextSerial: UInt32 = 0
    private var deadlines = DeadlineHeap()
    /// Arrival counter for tie order (internal so that tests can start it near the wrap).
    var sequence: UInt32 = 0
    /// What the alarm is armed for (nil: not armed, or it already fired).
    var armedAt: Int64?
    /// The end of the batch window the armed wake-up was chosen in: no pending window ended before it when
    /// it was chosen (see `wakePlan`). A new deadline at or before it joins the batch.
    private var armedWindowEnd: Int64 = .min
    /// Set when a new deadline in the armed batch moved the wake-up later: the alarm must be re-armed.
    private var armedLater = false
    /// Bumped on every arming, so that an arming applied out of order is detected and redone.
    var armSequence: UInt64 = 0
    /// The context's alarm: made by the first arming, not with the engine.
    var alarm = AlarmSlot.none
    /// Tickers not yet finished or cancelled.
    var liveCount = 0
    /// Live tickers bound to an owner or target: the only ones a dead-owner sweep looks for.
    var boundLiveCount = 0
    /// Keeps the engine alive while it has live tickers whose handles may all be gone.
    var retainedEngine: TickerEngine?
    /// Where the incremental dead-owner sweep continues.
    var sweepCursor = 0
    /// Creation sites of the tickers held, interned (at most `maximumSites`; beyond that each ticker gets
    /// its own), and the one used last.
    private var sites: [TickerOrigin: TickerSite] = [:]
    private var lastSite: TickerSite?
    static let maximumSites = 4_096

    /// The shared site for `origin`.
    mutating func site(for origin: TickerOrigin) -> TickerSite {
        if let lastSite, lastSite.origin == origin { return lastSite }
        let site: TickerSite
        if let known = sites[origin] {
            site = known
        } else {
            site = TickerSite(origin)
            if sites.count < Self.maximumSites { sites[origin] = site }
        }
        lastSite = site
        return site
    }

    // MARK: Records

    /// One past the highest slot that may hold a ticker (the range a scan covers).
    var slotCount: Int { table.slotEnd }

    /// Slots that hold a ticker.
    var occupiedCount: Int { table.occupiedCount }

    /// The record in `slot`, read or modified in place.
    subscript(slot: UInt32) -> TickerRecord {
        _read { yield table[slot] }
        _modify { yield &table[slot] }
    }

    /// Whether `slot` holds a ticker (false for a slot of a page given back).
    func isOccupied(_ slot: UInt32) -> Bool { table.isOccupied(slot) }

    /// Whether `slot` holds a live bound ticker (one whose owner a sweep should check). Reads the
    /// page directly: going through the subscript's accessor here made the compiler copy the record.
    func isLiveBound(_ slot: UInt32) -> Bool {
        guard table.hasRecord(slot) else { return false }
        let (page, index) = SlotTable.location(of: Int(slot))
        return table.pages[page].records[index].isOccupied
            && table.pages[page].records[index].site.binding != .handle
            && !table.pages[page].records[index].state.isTerminal
    }

    /// The heap key of the record in `slot`, from its fields read one by one (calling a computed property
    /// on the element made the compiler copy the record).
    func heapKey(ofSlot slot: UInt32) -> (deadline: Int64, latest: Int64)? {
        let (page, index) = SlotTable.location(of: Int(slot))
        return TickerRecord.heapKey(
            state: table.pages[page].records[index].state, start: table.pages[page].records[index].start,
            times: table.pages[page].records[index].times, nextIndex: table.pages[page].records[index].nextIndex,
            manualPending: table.pages[page].records[index].manualPending,
            manualRequestedAt: table.pages[page].records[index].manualRequestedAt)
    }

    func isCurrent(_ id: TickerID) -> Bool {
        table.isOccupied(id.slot) && table[id.slot].serial == id.serial
    }

    /// The id of the ticker in an occupied slot.
    func id(of slot: UInt32) -> TickerID {
        TickerID(slot: slot, serial: self[slot].serial)
    }

    mutating func insert(_ record: consuming TickerRecord) -> TickerID {
        nextSerial &+= 1
        record.serial = nextSerial
        let slot = table.insert(record)
        return TickerID(slot: slot, serial: nextSerial)
    }

    /// Frees a slot whose ticker is final and whose handle is gone (the table may give its page back).
    mutating func free(_ slot: UInt32) {
        table.free(slot)
        if table.occupiedCount == 0 {
            // Sites stay: they are few (one per call site, at most `maximumSites`).
            deadlines.removeAll()
            sweepCursor = 0
        }
    }

    /// What the table holds (for tests and diagnostics): slots handed out in allocated pages, occupied
    /// slots, allocated pages, the heap's capacity, interned sites.
    var storage: (slots: Int, occupied: Int, pages: Int, heapCapacity: Int, sites: Int) {
        let usage = table.usage
        return (usage.slots, usage.occupied, usage.allocatedPages, deadlines.capacity, sites.count)
    }

    // MARK: Heap

    func heapPosition(of slot: UInt32) -> Int { Int(table.position(of: slot)) }

    /// The pending deadlines in heap order (the first is the earliest).
    var heap: [HeapNode] { deadlines.nodes }

    /// Puts the record in the heap under its current key, moves it, or takes it out.
    mutating func reschedule(_ slot: UInt32) {
        let position = heapPosition(of: slot)
        guard let key = heapKey(ofSlot: slot) else {
            if position >= 0 { deadlines.remove(at: position, positions: &table) }
            return
        }
        sequence &+= 1
        let node = HeapNode(deadline: key.deadline, sequence: sequence, slot: slot)
        if position >= 0 {
            deadlines.replace(at: position, with: node, positions: &table)
        } else {
            deadlines.insert(node, positions: &table)
        }
        noteKey(key)
    }

    mutating func removeFromHeap(at position: Int) {
        deadlines.remove(at: position, positions: &table)
    }

    // MARK: Alarm

    /// Keeps the armed wake-up valid for a deadline that was just queued or moved. A window that ends
    /// before the armed batch's window end needs a new plan (the alarm is disarmed, so that
    /// `armingIfNeeded` makes one); a deadline inside the batch window but after the armed wake-up moves
    /// the wake-up to it, so that one wake-up still serves the whole batch.
    private mutating func noteKey(_ key: (deadline: Int64, latest: Int64)) {
        guard let armed = armedAt else { return }
        if key.latest < armedWindowEnd {
            armedAt = nil
        } else if key.deadline <= armedWindowEnd, key.deadline > armed {
            armedAt = key.deadline
            armedLater = true
        }
    }

    /// Arms for the wake-up `wakePlan` chooses when the alarm is not armed, or re-arms for a wake-up a new
    /// deadline moved later. A deadline that moved later or went away leaves the alarm alone: the early
    /// wake finds nothing due and re-arms.
    mutating func armingIfNeeded() -> Arming? {
        guard !heap.isEmpty else { return nil }
        if armedAt == nil {
            let plan = wakePlan()
            armedAt = plan.wake
            armedWindowEnd = plan.windowEnd
        } else if !armedLater {
            return nil
        }
        armedLater = false
        armSequence &+= 1
        return Arming(deadline: armedAt!, sequence: armSequence, alarm: claimAlarm())
    }

    /// Arms for `instant` without a batch (a wake-up that yields the context and comes straight back).
    mutating func arm(at instant: Int64) -> Arming {
        armedAt = instant
        armedWindowEnd = instant
        armedLater = false
        armSequence &+= 1
        return Arming(deadline: instant, sequence: armSequence, alarm: claimAlarm())
    }

    /// How an arming reaches the alarm; the first one to ask is told to make it.
    private mutating func claimAlarm() -> Arming.AlarmAccess {
        switch alarm {
        case .made(let made): return .made(made)
        case .beingMade: return .beingMade
        case .none:
            alarm = .beingMade
            return .make
        }
    }

    /// Nodes a wake plan looks at before settling for an earlier, still correct wake-up.
    static let planVisitLimit = 2_048

    /// When to wake: the deadline of the earliest pending ticker, moved later — up to the earliest end of
    /// any pending tolerance window — to the latest deadline that falls before that end, so that one
    /// wake-up serves the whole batch, each ticker at or after its deadline and none after its window.
    ///
    /// A ticker whose window overlaps no other is therefore woken for at its deadline, not at the end of
    /// its window. The scan visits the deadlines up to the window end (the batch the wake-up serves, so it
    /// costs about as much as serving it), pruning every subtree of the heap that starts after it. Past
    /// `planVisitLimit` nodes it stops with a wake-up no later than every window it has not seen could
    /// end: still never late, only possibly one wake-up more.
    func wakePlan() -> (wake: Int64, windowEnd: Int64) {
        let topDeadline = heap[0].deadline
        var end = latest(at: 0)
        // Every window ends at or after its deadline, so nothing ends before the earliest deadline; and a
        // lone ticker is woken for at its deadline.
        guard end > topDeadline, heap.count > 1 else { return (topDeadline, end) }
        var pending: [Int] = [0]
        var seen: [Int64] = []
        var visited = 0
        while let position = pending.popLast() {
            let deadline = heap[position].deadline
            guard deadline <= end else { continue }
            visited += 1
            if visited > Self.planVisitLimit {
                // Unseen windows end no earlier than the deadlines that start their subtrees.
                end = min(end, pending.reduce(deadline) { min($0, heap[$1].deadline) })
                break
            }
            end = min(end, latest(at: position))
            // Nothing ends before the earliest deadline: the plan cannot change any more.
            if end == topDeadline { break }
            seen.append(deadline)
            let first = DeadlineHeap.arity * position + 1
            if first < heap.count {
                pending.append(contentsOf: first..<min(first + DeadlineHeap.arity, heap.count))
            }
        }
        let wake = seen.reduce(topDeadline) { $1 <= end ? max($0, $1) : $0 }
        return (wake, end)
    }

    /// The end of the tolerance window of the node at `position`.
    private func latest(at position: Int) -> Int64 {
        heapKey(ofSlot: heap[position].slot)?.latest ?? heap[position].deadline
    }

    /// Checks the invariants of the table, of the heap, and of the two together; returns the first one
    /// broken, or nil (for tests).
    func invariantViolation() -> String? {
        if let broken = table.invariantViolation() { return broken }
        if let broken = deadlines.invariantViolation() { return broken }
        var placed = 0
        for slot in 0..<UInt32(table.slotEnd) where table.hasRecord(slot) {
            let position = table.position(of: slot)
            guard position >= 0 else { continue }
            placed += 1
            guard Int(position) < heap.count, heap[Int(position)].slot == slot else {
                return "slot \(slot) records heap position \(position), which holds another slot"
            }
            guard table.isOccupied(slot) else { return "free slot \(slot) is in the heap" }
        }
        if placed != heap.count { return "\(placed) slots are in the heap, which holds \(heap.count) nodes" }
        return nil
    }

    /// The deadline of the ticker at the top of the heap (its earliest acceptable delivery).
    var topDeadline: Int64? { heap.first?.deadline }
}
