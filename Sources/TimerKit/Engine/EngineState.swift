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

/// A pending deadline in the heap: 16 bytes.
struct HeapNode {
    var deadline: Int64
    /// Arrival order among equal deadlines, compared with wrap-around (only ties use it).
    var sequence: UInt32
    var slot: UInt32

    @inline(__always)
    func precedes(_ other: HeapNode) -> Bool {
        deadline != other.deadline ? deadline < other.deadline : Int32(bitPattern: sequence &- other.sequence) < 0
    }
}

/// Everything an engine knows, kept inside its lock: the ticker records, a 4-ary min-heap of pending
/// deadlines (ordered by deadline, then arrival order), and what the alarm is armed for.
///
/// Records live in pages, so growing never copies the records already there and a table of N tickers
/// holds at most one partly used page beyond them. The first pages are small (32, 32, 64, 128, 256
/// records), later ones hold 512. When the last slot is freed, every page but the first, the heap's and
/// the free list's storage are released: an engine without tickers keeps one 32-record page (3.75 KiB)
/// and its interned sites, so that a context used by one ticker at a time allocates nothing per ticker
/// beyond the handle.
struct EngineState {
    /// Records per page from the sixth page on.
    static let pageSize = 512
    /// Records in the first page (and the second); each following small page doubles.
    static let firstPageSize = 32

    private var pages: [ContiguousArray<TickerRecord>] = []
    /// Slots handed out so far (occupied or free).
    private(set) var slotCount = 0
    /// Each slot's position in `heap`, or -1; kept apart from the records so that sifting touches only
    /// this small array.
    private var positions: [Int32] = []
    private var freeSlots: [UInt32] = []
    /// Slots that hold a ticker.
    private(set) var occupiedCount = 0
    private var nextSerial: UInt32 = 0
    private(set) var heap: [HeapNode] = []
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

    /// The page holding `slot`, and the slot's index in it.
    @inline(__always)
    private static func location(of slot: Int) -> (page: Int, index: Int) {
        if slot < firstPageSize { return (0, slot) }
        if slot < pageSize {
            // Slots 32..<64 are page 1, 64..<128 page 2, …, 256..<512 page 4.
            let page = Int.bitWidth - slot.leadingZeroBitCount - 5
            return (page, slot - (1 << (page + 4)))
        }
        let rest = slot - pageSize
        return (5 + rest / pageSize, rest % pageSize)
    }

    /// The number of records page `page` holds.
    private static func capacity(ofPage page: Int) -> Int {
        page == 0 ? firstPageSize : page < 5 ? 1 << (page + 4) : pageSize
    }

    /// The record in `slot`, read or modified in place.
    subscript(slot: UInt32) -> TickerRecord {
        _read {
            let (page, index) = Self.location(of: Int(slot))
            yield pages[page][index]
        }
        _modify {
            let (page, index) = Self.location(of: Int(slot))
            yield &pages[page][index]
        }
    }

    /// Whether `slot` holds a live bound ticker (one whose owner a sweep should check). Reads the
    /// page directly: going through the subscript's accessor here made the compiler copy the record.
    func isLiveBound(_ slot: UInt32) -> Bool {
        let (page, index) = Self.location(of: Int(slot))
        return pages[page][index].isOccupied && pages[page][index].site.binding != .handle
            && !pages[page][index].state.isTerminal
    }

    /// The heap key of the record in `slot`, from its fields read one by one (calling a computed property
    /// on the element made the compiler copy the record).
    func heapKey(ofSlot slot: UInt32) -> (deadline: Int64, latest: Int64)? {
        let (page, index) = Self.location(of: Int(slot))
        return TickerRecord.heapKey(
            state: pages[page][index].state, start: pages[page][index].start, times: pages[page][index].times,
            nextIndex: pages[page][index].nextIndex, manualPending: pages[page][index].manualPending,
            manualRequestedAt: pages[page][index].manualRequestedAt)
    }

    func isCurrent(_ id: TickerID) -> Bool {
        Int(id.slot) < slotCount && self[id.slot].isOccupied && self[id.slot].serial == id.serial
    }

    /// The id of the ticker in an occupied slot.
    func id(of slot: UInt32) -> TickerID {
        TickerID(slot: slot, serial: self[slot].serial)
    }

    mutating func insert(_ record: consuming TickerRecord) -> TickerID {
        nextSerial &+= 1
        record.serial = nextSerial
        occupiedCount += 1
        if let slot = freeSlots.popLast() {
            self[slot] = consume record
            return TickerID(slot: slot, serial: nextSerial)
        }
        precondition(slotCount < 1 << 30, "TimerKit: more than 2^30 tickers on one context")
        let (page, index) = Self.location(of: slotCount)
        if index == 0, page == pages.count {
            var storage = ContiguousArray<TickerRecord>()
            storage.reserveCapacity(Self.capacity(ofPage: page))
            pages.append(storage)
        }
        pages[page].append(consume record)
        positions.append(-1)
        slotCount += 1
        return TickerID(slot: UInt32(slotCount - 1), serial: nextSerial)
    }

    /// Frees a slot whose ticker is final and whose handle is gone. Freeing the last occupied slot
    /// releases all per-ticker storage.
    mutating func free(_ slot: UInt32) {
        precondition(positions[Int(slot)] < 0, "TimerKit internal: freeing a scheduled ticker")
        occupiedCount -= 1
        if occupiedCount == 0 {
            // Keep the first page and small buffers; release the rest.
            pages.removeLast(pages.count - 1)
            pages[0].removeAll(keepingCapacity: true)
            let small = Self.firstPageSize
            positions.removeAll(keepingCapacity: positions.capacity <= small)
            freeSlots.removeAll(keepingCapacity: freeSlots.capacity <= small)
            heap.removeAll(keepingCapacity: heap.capacity <= 2 * small)
            // Sites stay: they are few (one per call site, at most `maximumSites`).
            slotCount = 0
            sweepCursor = 0
            return
        }
        // Drop what the record references (its handler is already gone; fileID is almost always a
        // literal, and is overwritten when the slot is reused) without rewriting the whole record.
        self[slot].owner = nil
        self[slot].isOccupied = false
        freeSlots.append(slot)
    }

    /// What the table holds (for tests and diagnostics).
    var storage: (slots: Int, occupied: Int, pages: Int, heapCapacity: Int, sites: Int) {
        (slotCount, occupiedCount, pages.count, heap.capacity, sites.count)
    }

    // MARK: Heap

    func heapPosition(of slot: UInt32) -> Int { Int(positions[Int(slot)]) }

    /// Puts the record in the heap under its current key, moves it, or takes it out.
    mutating func reschedule(_ slot: UInt32) {
        let position = heapPosition(of: slot)
        guard let key = heapKey(ofSlot: slot) else {
            if position >= 0 { removeFromHeap(at: position) }
            return
        }
        sequence &+= 1
        let node = HeapNode(deadline: key.deadline, sequence: sequence, slot: slot)
        if position >= 0 {
            heap[position] = node
            if !siftUp(from: position) { siftDown(from: position) }
        } else {
            if heap.count == heap.capacity {
                // Grow by a quarter rather than double: the heap is a good part of a pending ticker's
                // memory, and a quarter still keeps appends amortised O(1).
                heap.reserveCapacity(heap.count + heap.count / 4 + 64)
            }
            heap.append(node)
            positions[Int(slot)] = Int32(heap.count - 1)
            siftUp(from: heap.count - 1)
        }
        noteKey(key)
    }

    mutating func removeFromHeap(at position: Int) {
        let removed = heap[position].slot
        positions[Int(removed)] = -1
        let last = heap.removeLast()
        guard position < heap.count else { return }
        heap[position] = last
        positions[Int(last.slot)] = Int32(position)
        if !siftUp(from: position) { siftDown(from: position) }
    }

    /// The heap's arity: four children per node halves the depth of a binary heap, and the four sit side
    /// by side in memory.
    private static let arity = 4

    /// Moves the node at `start` up while it precedes its parent; returns whether it moved.
    @discardableResult
    private mutating func siftUp(from start: Int) -> Bool {
        let node = heap[start]
        var child = start
        while child > 0 {
            let parent = (child - 1) / Self.arity
            guard node.precedes(heap[parent]) else { break }
            heap[child] = heap[parent]
            positions[Int(heap[child].slot)] = Int32(child)
            child = parent
        }
        guard child != start else { return false }
        heap[child] = node
        positions[Int(node.slot)] = Int32(child)
        return true
    }

    private mutating func siftDown(from start: Int) {
        let node = heap[start]
        let count = heap.count
        var parent = start
        while true {
            let first = Self.arity * parent + 1
            guard first < count else { break }
            var best = first
            for child in (first + 1)..<min(first + Self.arity, count) where heap[child].precedes(heap[best]) {
                best = child
            }
            guard heap[best].precedes(node) else { break }
            heap[parent] = heap[best]
            positions[Int(heap[parent].slot)] = Int32(parent)
            parent = best
        }
        guard parent != start else { return }
        heap[parent] = node
        positions[Int(node.slot)] = Int32(parent)
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
    mutating func armingIfNeeded() -> (deadline: Int64, sequence: UInt64)? {
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
        return (armedAt!, armSequence)
    }

    /// Arms for `instant` without a batch (a wake-up that yields the context and comes straight back).
    mutating func arm(at instant: Int64) -> (deadline: Int64, sequence: UInt64) {
        armedAt = instant
        armedWindowEnd = instant
        armedLater = false
        armSequence &+= 1
        return (instant, armSequence)
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
            let first = Self.arity * position + 1
            if first < heap.count { pending.append(contentsOf: first..<min(first + Self.arity, heap.count)) }
        }
        let wake = seen.reduce(topDeadline) { $1 <= end ? max($0, $1) : $0 }
        return (wake, end)
    }

    /// The end of the tolerance window of the node at `position`.
    private func latest(at position: Int) -> Int64 {
        heapKey(ofSlot: heap[position].slot)?.latest ?? heap[position].deadline
    }

    /// The deadline of the ticker at the top of the heap (its earliest acceptable delivery).
    var topDeadline: Int64? { heap.first?.deadline }
}
