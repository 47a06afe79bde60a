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
/// The storage grows by a quarter (not double: the heap is a good part of a pending ticker's memory, and
/// a quarter still keeps insertions amortised O(1)) and gives three quarters back when it is three
/// quarters empty, so a burst of deadlines does not keep its memory once it is gone.
struct DeadlineHeap {
    /// Four children per node halves the depth of a binary heap, and the four sit side by side in memory.
    static let arity = 4
    /// A heap this small keeps its storage when it empties or shrinks.
    static let smallCapacity = 64

    private(set) var nodes: [HeapNode] = []

    var capacity: Int { nodes.capacity }

    mutating func insert(_ node: HeapNode, positions: borrowing SlotTable) {
        if nodes.count == nodes.capacity {
            nodes.reserveCapacity(nodes.count + nodes.count / 4 + Self.smallCapacity)
        }
        nodes.append(node)
        positions.setPosition(Int32(nodes.count - 1), of: node.slot)
        siftUp(from: nodes.count - 1, positions: positions)
    }

    /// Puts `node` (for the slot already at `position`) in place of the old one, and restores the order.
    mutating func replace(at position: Int, with node: HeapNode, positions: borrowing SlotTable) {
        nodes[position] = node
        if !siftUp(from: position, positions: positions) { siftDown(from: position, positions: positions) }
    }

    mutating func remove(at position: Int, positions: borrowing SlotTable) {
        positions.setPosition(-1, of: nodes[position].slot)
        let last = nodes.removeLast()
        if position < nodes.count {
            nodes[position] = last
            positions.setPosition(Int32(position), of: last.slot)
            if !siftUp(from: position, positions: positions) { siftDown(from: position, positions: positions) }
        }
        if nodes.capacity > Self.smallCapacity, nodes.count < nodes.capacity / 4 {
            // Amortised O(1): the heap shrank by three quarters of its capacity since it last grew or shrank.
            var smaller: [HeapNode] = []
            smaller.reserveCapacity(max(Self.smallCapacity, nodes.count * 2))
            smaller.append(contentsOf: nodes)
            nodes = smaller
        }
    }

    /// Empties the heap (the table's positions are reset with it, by the caller), keeping small storage.
    mutating func removeAll() {
        nodes.removeAll(keepingCapacity: nodes.capacity <= Self.smallCapacity)
    }

    /// Moves the node at `start` up while it precedes its parent; returns whether it moved.
    @discardableResult
    private mutating func siftUp(from start: Int, positions: borrowing SlotTable) -> Bool {
        let node = nodes[start]
        var child = start
        while child > 0 {
            let parent = (child - 1) / Self.arity
            guard node.precedes(nodes[parent]) else { break }
            nodes[child] = nodes[parent]
            positions.setPosition(Int32(child), of: nodes[child].slot)
            child = parent
        }
        guard child != start else { return false }
        nodes[child] = node
        positions.setPosition(Int32(child), of: node.slot)
        return true
    }

    private mutating func siftDown(from start: Int, positions: borrowing SlotTable) {
        let node = nodes[start]
        let count = nodes.count
        var parent = start
        while true {
            let first = Self.arity * parent + 1
            guard first < count else { break }
            var best = first
            for child in (first + 1)..<min(first + Self.arity, count) where nodes[child].precedes(nodes[best]) {
                best = child
            }
            guard nodes[best].precedes(node) else { break }
            nodes[parent] = nodes[best]
            positions.setPosition(Int32(parent), of: nodes[parent].slot)
            parent = best
        }
        guard parent != start else { return }
        nodes[parent] = node
        positions.setPosition(Int32(parent), of: node.slot)
    }

    /// Checks the heap order (no node precedes its parent) and that no two nodes name one slot; returns the
    /// first violation, or nil (for tests).
    func invariantViolation() -> String? {
        var slots = Set<UInt32>()
        for (position, node) in nodes.enumerated() {
            if position > 0, node.precedes(nodes[(position - 1) / Self.arity]) {
                return "heap node \(position) precedes its parent"
            }
            if !slots.insert(node.slot).inserted { return "slot \(node.slot) is in the heap twice" }
        }
        return nil
    }
}
