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

/// The pending deadlines of one engine: a 4-ary min-heap of ``HeapNode``s, ordered by deadline, then by
/// arrival. Each node's position is recorded in the ``SlotTable`` beside its slot (so that a ticker's node
/// is found, moved or removed in O(log n)); every operation that moves a node updates it there.
///
/// A stopped ticker's node is not sifted out at once: it is *buried* — its slot is replaced by
/// ``tombstone`` and the slot forgets its position — in O(1), so that `cancel()` does no heap work. Buried
/// nodes keep their key (the heap order holds), are skipped by whoever reads the heap, dropped when they
/// reach the top (`dropBuriedTop`), and all removed at once, in O(n), once they are more than half of the
/// nodes (amortised O(1) per burial), so they never hold more than the live nodes' worth of memory.
///
/// The storage grows by an eighth (not double: spare capacity costs up to 2 bytes per pending ticker at
/// this rate, 16 when doubling, and an eighth still keeps insertions amortised O(1), at 8 node copies per
/// insertion) and gives three quarters back when it is three quarters empty, so a burst of deadlines does
/// not keep its memory once it is gone.
struct DeadlineHeap {
    /// Four children per node halves the depth of a binary heap, and the four sit side by side in memory
    /// (`siftDown` compares a full family of four as two pairs).
    static let arity = 4
    /// A full heap grows by `1 / growthDivisor` of its size (plus `smallCapacity`).
    static let growthDivisor = 8
    /// A heap this small keeps its storage when it empties or shrinks.
    static let smallCapacity = 64

    private(set) var nodes: [HeapNode] = []
    /// Buried nodes in `nodes`.
    private(set) var buried = 0

    /// The slot of a buried node.
    static let tombstone = UInt32.max
    /// Buried nodes are cleared in one pass once there are more than this many and they outnumber the live
    /// ones. The pass costs about as many steps as there are nodes, so even a small heap may take it.
    static let burialMinimum = 8

    var capacity: Int { nodes.capacity }

    mutating func insert(_ node: HeapNode, positions: inout SlotTable) {
        if nodes.count == nodes.capacity {
            nodes.reserveCapacity(nodes.count + nodes.count / Self.growthDivisor + Self.smallCapacity)
        }
        nodes.append(node)
        positions.setPosition(Int32(nodes.count - 1), of: node.slot)
        siftUp(from: nodes.count - 1, positions: &positions)
    }

    /// Puts `node` (for the slot already at `position`) in place of the old one, and restores the order.
    /// A node that moves later (a repeating ticker's next deadline) can only go down: it does not look up.
    mutating func replace(at position: Int, with node: HeapNode, positions: inout SlotTable) {
        let movesLater = nodes[position].precedes(node)
        nodes[position] = node
        if movesLater || !siftUp(from: position, positions: &positions) {
            siftDown(from: position, positions: &positions)
        }
    }

    mutating func remove(at position: Int, positions: inout SlotTable) {
        if nodes[position].slot == Self.tombstone {
            buried -= 1
        } else {
            positions.setPosition(-1, of: nodes[position].slot)
        }
        let last = nodes.removeLast()
        if position < nodes.count {
            nodes[position] = last
            Self.setPosition(position, of: last.slot, in: &positions)
            if !siftUp(from: position, positions: &positions) { siftDown(from: position, positions: &positions) }
        }
        if buried > Self.burialMinimum, buried * 2 > nodes.count {
            // Removing live nodes can leave the buried ones outnumbering them, as burying more can.
            removeBuried(positions: &positions)
            return
        }
        if nodes.capacity > Self.smallCapacity, nodes.count < nodes.capacity / 4 {
            // Amortised O(1): the heap shrank by three quarters of its capacity since it last grew or shrank.
            var smaller: [HeapNode] = []
            smaller.reserveCapacity(max(Self.smallCapacity, nodes.count * 2))
            smaller.append(contentsOf: nodes)
            nodes = smaller
        }
    }

    /// Buries the node at `position` (see the type's summary): its slot leaves the heap in O(1).
    mutating func bury(at position: Int, positions: inout SlotTable) {
        positions.setPosition(-1, of: nodes[position].slot)
        nodes[position].slot = Self.tombstone
        buried += 1
        if buried > Self.burialMinimum, buried * 2 > nodes.count { removeBuried(positions: &positions) }
    }

    /// Removes buried nodes from the top, so that the first node, if any, is a live one.
    mutating func dropBuriedTop(positions: inout SlotTable) {
        while buried > 0, let first = nodes.first, first.slot == Self.tombstone {
            remove(at: 0, positions: &positions)
        }
    }

    /// Removes every buried node and rebuilds the heap from the live ones (Floyd's bottom-up heapify, O(n)),
    /// in storage sized for them.
    private mutating func removeBuried(positions: inout SlotTable) {
        var live: [HeapNode] = []
        let liveCount = nodes.count - buried
        live.reserveCapacity(max(Self.smallCapacity, liveCount + liveCount / Self.growthDivisor))
        for node in nodes where node.slot != Self.tombstone { live.append(node) }
        nodes = live
        buried = 0
        for (position, node) in nodes.enumerated() { positions.setPosition(Int32(position), of: node.slot) }
        guard nodes.count > 1 else { return }
        for position in stride(from: (nodes.count - 2) / Self.arity, through: 0, by: -1) {
            siftDown(from: position, positions: &positions)
        }
    }

    /// Calls `body` with the slot of each live node due at `now` (deadline at or before it), at most `limit`
    /// of them, in storage order (not heap order); returns how many it found.
    ///
    /// The due nodes are the heap's top: each one's parent is due too, and comes first in storage. So the
    /// scan reads the storage from the start, sequentially (cheap for the processor to stream), and stops
    /// past the children of the last due node it met, or after `4 × limit + 4` nodes: it never walks the
    /// not-yet-due rest of a large heap.
    func forEachDue(now: Int64, limit: Int, _ body: (UInt32) -> Void) -> Int {
        nodes.withUnsafeBufferPointer { buffer in
            var found = 0
            // One past the last position that may hold a due node (the children of the last due one).
            var end = min(buffer.count, 1)
            let scanEnd = min(buffer.count, Self.arity * limit + Self.arity)
            var position = 0
            while position < end, found < limit {
                let node = buffer[position]
                if node.deadline <= now {
                    end = min(scanEnd, Self.arity * position + Self.arity + 1)
                    if node.slot != Self.tombstone {
                        body(node.slot)
                        found += 1
                    }
                }
                position += 1
            }
            return found
        }
    }

    /// Empties the heap (the table's positions are reset with it, by the caller), keeping small storage.
    mutating func removeAll() {
        nodes.removeAll(keepingCapacity: nodes.capacity <= Self.smallCapacity)
        buried = 0
    }

    /// Records where a moved node now is (a buried node has no slot to tell).
    @inline(__always)
    private static func setPosition(_ position: Int, of slot: UInt32, in positions: inout SlotTable) {
        if slot != Self.tombstone { positions.setPosition(Int32(position), of: slot) }
    }

    /// Moves the node at `start` up while it precedes its parent; returns whether it moved.
    @discardableResult
    private mutating func siftUp(from start: Int, positions: inout SlotTable) -> Bool {
        // Through the storage's pointer: one uniqueness check per sift, not one per node written.
        nodes.withUnsafeMutableBufferPointer { buffer in
            let nodes = buffer
            let node = nodes[start]
            var child = start
            while child > 0 {
                let parent = (child - 1) / Self.arity
                guard node.precedes(nodes[parent]) else { break }
                nodes[child] = nodes[parent]
                Self.setPosition(child, of: nodes[child].slot, in: &positions)
                child = parent
            }
            guard child != start else { return false }
            nodes[child] = node
            Self.setPosition(child, of: node.slot, in: &positions)
            return true
        }
    }

    /// Moves the node at `start` down while a child precedes it.
    ///
    /// The node mostly goes far down (a repeating ticker's next deadline is one interval later, behind most
    /// of the heap), so the hole it leaves is first moved to the bottom along the earliest children (three
    /// comparisons a level, without comparing the node), and the node then goes up from there (rarely more
    /// than a level): about a quarter fewer comparisons than comparing it at every level.
    private mutating func siftDown(from start: Int, positions: inout SlotTable) {
        nodes.withUnsafeMutableBufferPointer { buffer in
            let nodes = buffer
            let count = buffer.count
            let node = nodes[start]
            var hole = start
            while true {
                let first = Self.arity * hole + 1
                guard first < count else { break }
                var best = first
                if first + Self.arity <= count {
                    // A full family of four: the earlier of each pair, then of the two winners (the pairs'
                    // comparisons do not wait for each other).
                    let left = nodes[first + 1].precedes(nodes[first]) ? first + 1 : first
                    let right = nodes[first + 3].precedes(nodes[first + 2]) ? first + 3 : first + 2
                    best = nodes[right].precedes(nodes[left]) ? right : left
                } else {
                    for child in (first + 1)..<count where nodes[child].precedes(nodes[best]) { best = child }
                }
                nodes[hole] = nodes[best]
                Self.setPosition(hole, of: nodes[hole].slot, in: &positions)
                hole = best
            }
            // Back up from the bottom to where the node belongs, at most to `start` (a caller lifts a node
            // that precedes its parent with `siftUp` instead).
            while hole > start {
                let parent = (hole - 1) / Self.arity
                guard node.precedes(nodes[parent]) else { break }
                nodes[hole] = nodes[parent]
                Self.setPosition(hole, of: nodes[hole].slot, in: &positions)
                hole = parent
            }
            nodes[hole] = node
            Self.setPosition(hole, of: node.slot, in: &positions)
        }
    }

    /// Checks the heap order (no node precedes its parent), that no two nodes name one slot, and the count
    /// of buried nodes (at most half of the nodes once there are more than `burialMinimum`); returns the
    /// first violation, or nil (for tests).
    func invariantViolation() -> String? {
        var slots = Set<UInt32>()
        var tombstones = 0
        for (position, node) in nodes.enumerated() {
            if position > 0, node.precedes(nodes[(position - 1) / Self.arity]) {
                return "heap node \(position) precedes its parent"
            }
            if node.slot == Self.tombstone {
                tombstones += 1
            } else if !slots.insert(node.slot).inserted {
                return "slot \(node.slot) is in the heap twice"
            }
        }
        if tombstones != buried { return "\(tombstones) buried nodes, counted \(buried)" }
        if buried > Self.burialMinimum, buried * 2 > nodes.count { return "buried nodes outnumber the live ones" }
        return nil
    }
}
