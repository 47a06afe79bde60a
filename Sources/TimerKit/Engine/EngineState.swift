/// Identifies one ticker inside its engine: a slot in the record table and that slot's generation.
struct TickerID: Hashable, Sendable {
    let slot: Int32
    let generation: UInt32
}

/// The handler as the engine stores it: called on the context, never under a lock, with the tick, the
/// owner (for bound tickers: loaded by the engine and kept alive for the call; `nil` otherwise), and the
/// engine and id (to hand out a view handle).
typealias TickHandler = @Sendable (Tick, AnyObject?, TickerEngine, TickerID) -> Void

/// How a ticker's handler is bound; decides what releasing the handle does.
enum TickerBinding: String, Sendable {
    /// A closure that receives the owner; the owner is held weakly and defines the lifetime.
    case owner
    /// Target–action with an unbound method reference; the target is held weakly.
    case target
    /// A closure owned by the handle: releasing the handle cancels.
    case handle
}

/// What diagnostics show about a ticker; fixed at creation.
struct TickerOrigin: Sendable {
    let fileID: String
    let line: Int
    let ownerType: String?
    let binding: TickerBinding
    /// The owner or target, held weakly, for bound tickers: lets the engine notice a dead owner between
    /// deadlines (see `TickerEngine.sweepDeadOwners`).
    let owner: WeakReference?
}

/// One ticker's state, inside its engine's lock.
struct TickerRecord {
    var state: TickerState
    let schedule: TickSchedule
    let origin: TickerOrigin
    var handler: TickHandler?
    /// Instant of deadline 0 (deadline k is start + offset(k)); shifted forward by time spent paused.
    var start: Int64 = 0
    /// When the ticker was created.
    var createdAt: Int64 = 0
    /// The next deadline still to be served (1-based).
    var nextIndex = 1
    /// The last deadline delivered (0 before the first).
    var lastDelivered = 0
    /// While paused: how long from the pause to the next deadline.
    var pausedRemaining: Int64 = 0
    /// `fire()` requests not yet delivered, and when the first of them was made.
    var manualPending = 0
    var manualRequestedAt: Int64 = 0
    var heapIndex = -1
    var fireCount = 0
    var skippedTotal = 0
    var handleAlive = true

    /// The scheduled deadline to wait for, if the ticker is running.
    var scheduledDeadline: Int64? {
        guard state == .running else { return nil }
        return start.addingSaturating(schedule.offset(ofDeadline: nextIndex))
    }

    /// (deadline, latest) under which the record waits in the heap, or nil when it waits for nothing.
    var heapKey: (deadline: Int64, latest: Int64)? {
        let scheduled = scheduledDeadline
        let manual: Int64? = manualPending > 0 ? manualRequestedAt : nil
        switch (scheduled, manual) {
        case (nil, nil): return nil
        case let (s?, nil): return (s, s.addingSaturating(schedule.toleranceNanoseconds))
        case let (nil, m?): return (m, m)
        case let (s?, m?): return (min(s, m), min(s.addingSaturating(schedule.toleranceNanoseconds), m))
        }
    }
}

/// A pending wake-up in the heap.
struct HeapNode {
    var latest: Int64
    var deadline: Int64
    var sequence: UInt64
    var slot: Int32

    @inline(__always)
    func precedes(_ other: HeapNode) -> Bool {
        latest != other.latest ? latest < other.latest : sequence < other.sequence
    }
}

/// Everything an engine knows, kept inside its lock: the ticker records, a binary min-heap of pending
/// deadlines ordered by the latest acceptable wake time (deadline + tolerance, then arrival order), and
/// what the alarm is armed for.
struct EngineState {
    var records: [TickerRecord?] = []
    var generations: [UInt32] = []
    var freeSlots: [Int32] = []
    var heap: [HeapNode] = []
    var sequence: UInt64 = 0
    /// What the alarm is armed for (nil: not armed, or it already fired).
    var armedAt: Int64?
    /// Bumped on every arming, so that an arming applied out of order is detected and redone.
    var armSequence: UInt64 = 0
    /// Tickers not yet finished or cancelled.
    var liveCount = 0
    /// Keeps the engine alive while it has live tickers whose handles may all be gone.
    var retainedEngine: TickerEngine?
    /// Where the incremental dead-owner sweep continues.
    var sweepCursor = 0

    // MARK: Records

    func isCurrent(_ id: TickerID) -> Bool {
        Int(id.slot) < generations.count && generations[Int(id.slot)] == id.generation && records[Int(id.slot)] != nil
    }

    mutating func insert(_ record: TickerRecord) -> TickerID {
        if let slot = freeSlots.popLast() {
            records[Int(slot)] = record
            return TickerID(slot: slot, generation: generations[Int(slot)])
        }
        precondition(records.count < Int(Int32.max), "TimerKit: more than 2^31 tickers on one context")
        records.append(record)
        generations.append(0)
        return TickerID(slot: Int32(records.count - 1), generation: 0)
    }

    /// Frees a slot whose ticker is final and whose handle is gone.
    mutating func free(_ slot: Int32) {
        let index = Int(slot)
        precondition(records[index]?.heapIndex ?? -1 < 0, "TimerKit internal: freeing a scheduled ticker")
        records[index] = nil
        generations[index] &+= 1
        freeSlots.append(slot)
    }

    // MARK: Heap

    /// Puts the record in the heap under its current key, moves it, or takes it out.
    mutating func reschedule(_ slot: Int32) {
        let index = Int(slot)
        guard let record = records[index] else { return }
        let position = record.heapIndex
        guard let key = record.heapKey else {
            if position >= 0 { removeFromHeap(at: position) }
            return
        }
        sequence &+= 1
        let node = HeapNode(latest: key.latest, deadline: key.deadline, sequence: sequence, slot: slot)
        if position >= 0 {
            heap[position] = node
            siftUp(from: position)
            siftDown(from: records[index]!.heapIndex)
        } else {
            heap.append(node)
            records[index]!.heapIndex = heap.count - 1
            siftUp(from: heap.count - 1)
        }
    }

    mutating func removeFromHeap(at position: Int) {
        let removed = heap[position].slot
        let last = heap.count - 1
        if position != last {
            swapNodes(position, last)
        }
        heap.removeLast()
        records[Int(removed)]!.heapIndex = -1
        if position < heap.count {
            siftUp(from: position)
            siftDown(from: records[Int(heap[position].slot)]!.heapIndex)
        }
    }

    private mutating func swapNodes(_ a: Int, _ b: Int) {
        heap.swapAt(a, b)
        records[Int(heap[a].slot)]!.heapIndex = a
        records[Int(heap[b].slot)]!.heapIndex = b
    }

    private mutating func siftUp(from start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            swapNodes(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(from start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            var best = left
            if left + 1 < heap.count, heap[left + 1].precedes(heap[left]) { best = left + 1 }
            guard heap[best].precedes(heap[parent]) else { return }
            swapNodes(best, parent)
            parent = best
        }
    }

    // MARK: Alarm

    /// Arms for the heap's earliest latest-acceptable time when that is earlier than what the alarm is
    /// armed for (a later arming is left alone: the early wake finds nothing due and re-arms).
    mutating func armingIfNeeded() -> (deadline: Int64, sequence: UInt64)? {
        guard let top = heap.first else { return nil }
        if let armedAt, armedAt <= top.latest { return nil }
        armedAt = top.latest
        armSequence &+= 1
        return (top.latest, armSequence)
    }
}
