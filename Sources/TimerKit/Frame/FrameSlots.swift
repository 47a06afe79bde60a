/// The slots of a frame source's subscribers, in pages of 16 that are given back as subscribers go.
///
/// A slot is a subscriber's address for its whole life (a ``FrameSubscription`` names it), so slots never
/// move: the storage grows by pages and frees a page once none of its slots holds a subscriber. A new
/// subscriber takes a free slot in the lowest page that has one, so that subscribers gather in the low
/// pages and the high ones empty out after a burst. One emptied page is kept as a spare (the lower one,
/// when another empties), so that a count of subscribers going up and down across a page boundary does not
/// allocate a page each time; the first page is kept while any subscriber remains, and grows as it fills
/// (a source with a few subscribers holds room for a few slots, not 16). When the last subscriber goes, every page is
/// freed. Each page chains its free slots through their `next` field, so freeing and taking a slot is O(1);
/// finding the lowest page with room starts from the lowest word of page bits that may have one, so that a
/// burst of subscriptions into a full storage does not rescan the pages it has filled.
///
/// What a slot holds, and the subscription order threaded through the slots' `previous` and `next`
/// fields, belong to ``FrameSourceState``.
struct FrameSlots {
    /// Slots per page (a power of two: a slot's page and index are a shift and a mask).
    static let pageSize = 1 << pageShift
    static let pageShift = 4

    /// One slot: a subscriber (or none), the serial it got with the slot, and its neighbours (-1: none):
    /// in subscription order while it holds a subscriber; `next` chains the page's free slots otherwise.
    struct Slot {
        var serial: UInt64
        var subscriber: FrameSourceState.Subscriber?
        var previous: Int32 = -1
        var next: Int32 = -1
    }

    struct Page {
        /// The page's slots; slots past `slots.count` were never handed out. A freed page holds none and
        /// has no storage.
        var slots = ContiguousArray<Slot>()
        /// The first free slot below `slots.count` (its index in the page), or -1.
        var freeHead: Int32 = -1
        /// Slots that hold a subscriber.
        var occupied = 0

        /// Whether the page has storage.
        var isAllocated: Bool { slots.capacity > 0 }
    }

    private var pages: [Page] = []
    /// One bit per page: set when the page has a slot to hand out (a freed page always has).
    private var room: [UInt64] = []
    /// Every word of `room` below this one is zero (a page getting room lowers it, a search raises it).
    private var roomHint = 0
    /// An emptied page kept allocated for reuse.
    private var spare = SparePage()
    /// Slots that hold a subscriber.
    private(set) var count = 0

    // MARK: Addresses

    @inline(__always)
    private static func location(of slot: Int32) -> (page: Int, index: Int) {
        (Int(slot) &>> pageShift, Int(slot) & (pageSize - 1))
    }

    /// One past the highest slot of the pages the storage has (the range a sweep covers).
    var end: Int {
        guard let last = pages.indices.last else { return 0 }
        return last * Self.pageSize + pages[last].slots.count
    }

    /// Whether `slot` lies in a handed-out part of an allocated page (it may hold no subscriber).
    @inline(__always)
    func contains(_ slot: Int32) -> Bool {
        guard slot >= 0 else { return false }
        let (page, index) = Self.location(of: slot)
        return page < pages.count && index < pages[page].slots.count
    }

    /// The subscriber in `slot` if the slot exists and still has `serial` (one address computation).
    @inline(__always)
    func subscriber(at slot: Int32, serial: UInt64) -> FrameSourceState.Subscriber? {
        guard slot >= 0 else { return nil }
        let (page, index) = Self.location(of: slot)
        guard page < pages.count else { return nil }
        return pages[page].slots.withUnsafeBufferPointer { slots in
            index < slots.count && slots[index].serial == serial ? slots[index].subscriber : nil
        }
    }

    /// The slot at `slot`, which must satisfy ``contains(_:)``.
    subscript(slot: Int32) -> Slot {
        _read {
            let (page, index) = Self.location(of: slot)
            yield pages[page].slots[index]
        }
        _modify {
            let (page, index) = Self.location(of: slot)
            yield &pages[page].slots[index]
        }
    }

    // MARK: Taking and freeing slots

    /// Stores `subscriber` with `serial` in a free slot of the lowest page that has one, unlinked, and
    /// returns the slot.
    mutating func insert(_ subscriber: FrameSourceState.Subscriber, serial: UInt64) -> Int32 {
        let page = firstPageWithRoom() ?? appendPage()
        // The first page grows as it fills; a later one is only needed once a full page is in use.
        if page != 0, !pages[page].isAllocated { pages[page].slots.reserveCapacity(Self.pageSize) }
        let slot = Slot(serial: serial, subscriber: subscriber)
        let index: Int
        if pages[page].freeHead >= 0 {
            index = Int(pages[page].freeHead)
            pages[page].freeHead = pages[page].slots[index].next
            pages[page].slots[index] = slot
        } else {
            index = pages[page].slots.count
            pages[page].slots.append(slot)
        }
        precondition(page < Int(Int32.max) / Self.pageSize, "TimerKit: more than 2^31 frame subscriptions on a source")
        pages[page].occupied += 1
        count += 1
        spare.taken(page)
        if pages[page].freeHead < 0, pages[page].slots.count == Self.pageSize { setRoom(page, false) }
        return Int32(page * Self.pageSize + index)
    }

    /// Frees `slot`, whose subscriber the caller has taken and unlinked; frees its page when it empties
    /// (see the type's summary), and every page with the last subscriber.
    mutating func free(_ slot: Int32) {
        let (page, index) = Self.location(of: slot)
        count -= 1
        guard count > 0 else {
            self = FrameSlots()
            return
        }
        pages[page].occupied -= 1
        pages[page].slots[index].previous = -1
        pages[page].slots[index].next = pages[page].freeHead
        pages[page].freeHead = Int32(index)
        setRoom(page, true)
        if pages[page].occupied == 0, page != 0 { emptied(page) }
    }

    /// Page `page` has just lost its last subscriber.
    private mutating func emptied(_ page: Int) {
        if let freed = spare.emptied(page) { release(freed) }
    }

    /// Frees a page's storage; trailing freed pages leave, and the page list itself shrinks once it is a
    /// quarter full (a copy of what is left: amortised O(1) per freed page).
    private mutating func release(_ page: Int) {
        pages[page] = Page()
        while let last = pages.indices.last, !pages[last].isAllocated {
            setRoom(last, false)
            pages.removeLast()
        }
        room.removeLast(room.count - (pages.count + 63) / 64)
        if pages.capacity > 16, pages.count * 4 <= pages.capacity {
            pages = Self.compacted(pages)
            room = Self.compacted(room)
        }
    }

    /// A copy of `elements` in storage of its own size.
    private static func compacted<Element>(_ elements: [Element]) -> [Element] {
        var copy: [Element] = []
        copy.reserveCapacity(elements.count)
        copy.append(contentsOf: elements)
        return copy
    }

    private mutating func appendPage() -> Int {
        pages.append(Page())
        if room.count * 64 < pages.count { room.append(0) }
        setRoom(pages.count - 1, true)
        return pages.count - 1
    }

    private mutating func firstPageWithRoom() -> Int? {
        while roomHint < room.count, room[roomHint] == 0 { roomHint += 1 }
        guard roomHint < room.count else { return nil }
        return roomHint * 64 + room[roomHint].trailingZeroBitCount
    }

    @inline(__always)
    private mutating func setRoom(_ page: Int, _ hasRoom: Bool) {
        let bit = UInt64(1) << (page % 64)
        room[page / 64] = hasRoom ? room[page / 64] | bit : room[page / 64] & ~bit
        if hasRoom { roomHint = min(roomHint, page / 64) }
    }

    // MARK: Checking

    /// What the storage holds: pages (freed ones in the middle included), allocated pages, allocated pages
    /// after the first that hold no subscriber (the spare), slots handed out in allocated pages, and the
    /// slots their storage has room for (for tests and probes).
    var usage: FrameSlots.Usage {
        let allocated = pages.filter(\.isAllocated)
        return Usage(
            pages: pages.count, allocatedPages: allocated.count,
            emptyPages: pages.dropFirst().filter { $0.isAllocated && $0.occupied == 0 }.count,
            slots: allocated.reduce(0) { $0 + $1.slots.count },
            slotCapacity: allocated.reduce(0) { $0 + $1.slots.capacity })
    }

    /// See ``usage``.
    struct Usage: Equatable, Sendable {
        var pages: Int
        var allocatedPages: Int
        var emptyPages: Int
        var slots: Int
        var slotCapacity: Int
    }

    /// Checks the pages' own invariants (counts, free chains, room bits, the spare); returns the first one
    /// broken, or nil (for tests).
    func invariantViolation() -> String? {
        var occupied = 0
        for (number, page) in pages.enumerated() {
            let hasRoom = room[number / 64] & (1 << (number % 64)) != 0
            if !page.isAllocated {
                if page.occupied != 0 || page.freeHead >= 0 { return "freed page \(number) holds slots" }
                if !hasRoom { return "freed page \(number) is not marked as having room" }
                continue
            }
            if page.slots.count > Self.pageSize { return "page \(number) is over its size" }
            let live = page.slots.lazy.filter { $0.subscriber != nil }.count
            if live != page.occupied { return "page \(number) counts \(page.occupied) subscribers, holds \(live)" }
            var free = 0
            var link = page.freeHead
            while link >= 0 {
                guard Int(link) < page.slots.count, page.slots[Int(link)].subscriber == nil else {
                    return "page \(number) chains slot \(link) as free"
                }
                free += 1
                if free > page.slots.count { return "page \(number)'s free chain has a cycle" }
                link = page.slots[Int(link)].next
            }
            if free + live != page.slots.count { return "page \(number)'s free chain misses a slot" }
            if hasRoom != (free > 0 || page.slots.count < Self.pageSize) { return "page \(number)'s room bit is wrong" }
            if live == 0, number != 0, spare.page != number { return "empty page \(number) is not the spare" }
            occupied += live
        }
        if occupied != count { return "the storage counts \(count) subscribers, holds \(occupied)" }
        if count == 0, !pages.isEmpty { return "an empty storage keeps \(pages.count) page(s)" }
        if let last = pages.last, !last.isAllocated { return "a freed page ends the storage" }
        if room.count != (pages.count + 63) / 64 { return "room bits are out of step with the pages" }
        if room.prefix(roomHint).contains(where: { $0 != 0 }) { return "a page below the room hint has room" }
        return nil
    }
}
