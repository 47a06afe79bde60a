internal import CTimerKit

/// What a ``SlotStore`` keeps in each slot: one item (a ticker, a frame subscriber) and the lifetime fields
/// every feature shares, so that the store, the dead-owner sweep (``OwnerSweeping``) and the binding rules
/// (``Lifetime``) are written once for all of them.
protocol SlotRecord {
    /// What the feature keeps beside each record, in an array of its own, so that writing it touches
    /// neither the record nor its cache line (a ticker's heap position, a frame subscriber's links).
    associatedtype Links: BitwiseCopyable, Equatable

    /// The links of a slot that is not linked anywhere (a new slot starts with them, a slot is freed with
    /// them).
    static var unlinked: Links { get }

    /// The store's page geometry: the first two pages hold `firstPageSize` records, each following one
    /// twice as many, up to `pageSize` (both powers of two, `firstPageSize` ≤ `pageSize`).
    static var firstPageSize: Int { get }
    static var pageSize: Int { get }

    /// Whether the store keeps its first page once it is empty (so that one item created and released
    /// again and again does not allocate a page each time) or frees every page.
    static var keepsFirstPage: Bool { get }

    /// Whether the slot holds an item.
    var isOccupied: Bool { get }

    /// Whether the item may still deliver (not finished or cancelled).
    var isLive: Bool { get }

    /// How the item is bound (``Lifetime/Binding``).
    var binding: Lifetime.Binding { get }

    /// The owner of a bound item, loaded from its weak reference (nil once it is gone).
    var loadedOwner: AnyObject? { get }

    /// Marks the record free, dropping what it references; runs no user code (the item's handler was
    /// already taken out and is released after unlocking).
    mutating func vacate()

    /// Whether a free record still references something it should have dropped (for the invariant check).
    var keepsReferences: Bool { get }
}

/// The records of one feature's items (an engine's tickers, a frame source's subscribers), in pages that
/// are given back as the items go: the one store every feature uses.
///
/// A slot is an item's address for its whole life (a handle names it), so records never move: the store
/// grows by pages (see ``SlotRecord/firstPageSize``) and frees a page once none of its slots holds an item.
/// A new item takes a free slot in the lowest page that has one, so that items gather in the low pages and
/// the high ones empty out after a burst. One emptied page is kept as a spare (the lower one, when another
/// empties), so that a count of items going up and down across a page boundary does not allocate a page
/// each time. When the last item goes, every page is freed but the first if the record type keeps it.
///
/// A page's records and its slots' links live in raw storage (``SlotPage``), reached through pointers: a
/// record is read and written in place, field by field. (A ticker's record holds a weak reference, so it
/// cannot be moved bit by bit: read through an array's subscript it was copied whole — its handler and
/// site retained, its weak owner copied — several times per call.) The records start on a cache-line
/// boundary: a 64-byte record then fills one line.
///
/// The store is noncopyable: a copy would share the pages' storage (``SlotPage`` is a reference) and
/// copy-on-write does not protect raw storage, so a write through one copy would show in the other and a
/// page freed by one would leave the other pointing at freed memory. The compiler makes each store have one
/// owner, used in place, and every write go through a `mutating` access. Reaching a slot that was never
/// handed out, or whose page was given back, stops the program with a message (in release builds too): it
/// never reads or writes memory the store does not hold.
struct SlotStore<Record: SlotRecord>: ~Copyable {
    /// Records per page from the first full-sized page on.
    static var pageSize: Int { Record.pageSize }
    /// Records in the first page (and the second); each following small page doubles.
    static var firstPageSize: Int { Record.firstPageSize }

    /// One entry of the page list (internal so that a test checks its size: 24 bytes).
    struct Page {
        /// The page's records and links; slots from `storage.count` on were never handed out. A freed
        /// page has no storage.
        var storage: SlotPage<Record>?
        /// Indexes of freed slots below `storage.count`.
        var free = ContiguousArray<UInt16>()
        /// Slots that hold an item.
        var occupied = 0

        init() {}

        init(capacity: Int) {
            storage = SlotPage(capacity: capacity)
        }

        var isAllocated: Bool { storage != nil }

        /// Slots handed out in the page (0 for a freed page).
        var count: Int { storage?.count ?? 0 }
    }

    private var pages: [Page] = []
    /// One bit per page: set when the page has a slot to hand out (a freed page always has).
    private var room: [UInt64] = []
    /// Every word of `room` below this one is zero (a page getting room lowers it, a search raises it), so
    /// that a burst into a full store does not rescan the pages it has filled.
    private var roomHint = 0
    /// Slots that hold an item.
    private(set) var occupiedCount = 0
    /// An emptied page kept allocated for reuse.
    private var spare = SparePage()

    init() {
        precondition(
            Record.firstPageSize > 0 && Record.firstPageSize.nonzeroBitCount == 1
                && Record.pageSize.nonzeroBitCount == 1 && Record.pageSize >= Record.firstPageSize
                && Record.pageSize <= 1 << 16,
            "TimerKit internal: a slot store's page sizes must be powers of two, at most 2^16")
    }

    // MARK: Addresses

    /// log2 of the first page's size.
    private static var firstShift: Int { Record.firstPageSize.trailingZeroBitCount }
    /// The number of small pages (the first, then the doubling ones) before the full-sized ones.
    private static var smallPages: Int { Record.pageSize.trailingZeroBitCount - firstShift + 1 }

    /// The page holding `slot`, and the slot's index in it.
    @inline(__always)
    static func location(of slot: Int) -> (page: Int, index: Int) {
        if slot < firstPageSize { return (0, slot) }
        if slot < pageSize {
            // Pages 1, 2, … start at firstPageSize, 2 × firstPageSize, …
            let page = Int.bitWidth - slot.leadingZeroBitCount - firstShift
            return (page, slot - (1 << (page + firstShift - 1)))
        }
        let rest = slot - pageSize
        return (smallPages + rest / pageSize, rest % pageSize)
    }

    /// The first slot of page `page`.
    static func base(ofPage page: Int) -> Int {
        page == 0 ? 0 : page < smallPages ? 1 << (page + firstShift - 1) : (page - smallPages + 1) * pageSize
    }

    /// The number of records page `page` holds.
    static func capacity(ofPage page: Int) -> Int {
        page == 0 ? firstPageSize : page < smallPages ? 1 << (page + firstShift - 1) : pageSize
    }

    /// One past the highest slot handed out in the pages the store has (the range to scan for items).
    var slotEnd: Int {
        guard let last = pages.indices.last else { return 0 }
        return Self.base(ofPage: last) + pages[last].count
    }

    /// The storage of page `page`, checked to hold a handed-out slot at `index`.
    @inline(__always)
    private func storage(of page: Int, index: Int, slot: UInt32) -> SlotPage<Record> {
        guard page < pages.count, let storage = pages[page].storage, index < storage.count else {
            Self.notHandedOut(slot)
        }
        return storage
    }

    /// A slot that is not in the store was reached: a bug in TimerKit, stopped before it touches memory.
    private static func notHandedOut(_ slot: UInt32) -> Never {
        preconditionFailure("TimerKit internal: slot \(slot) is not in its store")
    }

    // MARK: Records

    /// The record in `slot`, read or modified in place (never copied whole). `slot` must have been handed
    /// out in a page the store still holds: otherwise the program stops with a message.
    subscript(slot: UInt32) -> Record {
        @inline(__always) unsafeAddress { UnsafePointer(address(of: slot)) }
        @inline(__always) mutating unsafeMutableAddress { address(of: slot) }
    }

    /// The address of the record in `slot` (checked as for the subscript), valid until its page is freed:
    /// for a run of accesses to one record, none of which frees a slot.
    @inline(__always)
    func address(of slot: UInt32) -> UnsafeMutablePointer<Record> {
        let (page, index) = Self.location(of: Int(slot))
        return storage(of: page, index: index, slot: slot).records + index
    }

    /// Whether `slot` lies in a handed-out part of an allocated page (its record may be free).
    @inline(__always)
    func hasRecord(_ slot: UInt32) -> Bool {
        let (page, index) = Self.location(of: Int(slot))
        return page < pages.count && index < pages[page].count
    }

    /// Whether `slot` holds an item (false for a slot that is not in the store).
    @inline(__always)
    func isOccupied(_ slot: UInt32) -> Bool {
        hasRecord(slot) && self[slot].isOccupied
    }

    /// The links of a handed-out slot.
    @inline(__always)
    func links(of slot: UInt32) -> Record.Links {
        let (page, index) = Self.location(of: Int(slot))
        return storage(of: page, index: index, slot: slot).links[index]
    }

    /// Sets the links of a handed-out slot.
    @inline(__always)
    mutating func setLinks(_ links: Record.Links, of slot: UInt32) {
        let (page, index) = Self.location(of: Int(slot))
        storage(of: page, index: index, slot: slot).links[index] = links
    }

    /// Starts loading the record of a handed-out slot, and its links, into the cache (see
    /// `ctimerkit_prefetch`): a hint on the store's own memory that changes no state.
    @inline(__always)
    func prefetch(_ slot: UInt32) {
        let (page, index) = Self.location(of: Int(slot))
        // Each address in one expression: a page storage bound to a local across the calls is retained.
        ctimerkit_prefetch_for_write(storage(of: page, index: index, slot: slot).records + index)
        ctimerkit_prefetch_for_write(storage(of: page, index: index, slot: slot).links + index)
    }

    // MARK: Taking and freeing slots

    /// Stores `record` in the lowest free slot, unlinked, and returns the slot.
    mutating func insert(_ record: consuming Record) -> UInt32 {
        let page = firstPageWithRoom() ?? appendPage()
        if !pages[page].isAllocated { pages[page] = Page(capacity: Self.capacity(ofPage: page)) }
        guard let storage = pages[page].storage else { preconditionFailure("TimerKit internal: page without storage") }
        let index: Int
        if let freed = pages[page].free.popLast() {
            index = Int(freed)
            storage.records[index] = consume record
        } else {
            index = storage.count
            (storage.records + index).initialize(to: consume record)
            storage.count += 1
        }
        (storage.links + index).initialize(to: Record.unlinked)
        precondition(Self.base(ofPage: page) + index < 1 << 30, "TimerKit: more than 2^30 items in one store")
        pages[page].occupied += 1
        occupiedCount += 1
        spare.taken(page)
        if pages[page].free.isEmpty, storage.count == Self.capacity(ofPage: page) { setRoom(page, false) }
        return UInt32(Self.base(ofPage: page) + index)
    }

    /// Frees an occupied, unlinked slot (its record is vacated in place, without rewriting it whole); frees
    /// its page when it empties (see the type's summary).
    mutating func free(_ slot: UInt32) {
        precondition(isOccupied(slot), "TimerKit internal: freeing a free slot")
        precondition(links(of: slot) == Record.unlinked, "TimerKit internal: freeing a linked slot")
        let (page, index) = Self.location(of: Int(slot))
        occupiedCount -= 1
        pages[page].occupied -= 1
        if occupiedCount == 0 {
            releaseAll()
            return
        }
        self[slot].vacate()
        pages[page].free.append(UInt16(index))
        setRoom(page, true)
        if pages[page].occupied == 0, page != 0 || !Record.keepsFirstPage { emptied(page) }
    }

    /// The last item went: keeps the first page (emptied, with its small buffers) if the record type
    /// asks for it, frees the rest.
    private mutating func releaseAll() {
        if Record.keepsFirstPage, !pages.isEmpty {
            pages.removeLast(pages.count - 1)
            pages[0].storage?.removeAll()
            pages[0].free.removeAll(keepingCapacity: true)
            pages[0].occupied = 0
            room = [1]
        } else {
            pages = []
            room = []
        }
        roomHint = 0
        spare = SparePage()
    }

    /// Page `page` has just lost its last item.
    private mutating func emptied(_ page: Int) {
        if let freed = spare.emptied(page) { release(freed) }
    }

    /// Frees a page's storage; trailing freed pages leave, and the page list itself shrinks once it is a
    /// quarter full (a copy of what is left: amortised O(1) per freed page).
    private mutating func release(_ page: Int) {
        pages[page] = Page()
        while pages.count > 1, !pages[pages.count - 1].isAllocated {
            setRoom(pages.count - 1, false)
            pages.removeLast()
        }
        room.removeLast(room.count - (pages.count + 63) / 64)
        roomHint = min(roomHint, room.count)
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
        pages.append(Page(capacity: Self.capacity(ofPage: pages.count)))
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
        if hasRoom {
            room[page / 64] |= bit
            roomHint = min(roomHint, page / 64)
        } else {
            room[page / 64] &= ~bit
        }
    }

    // MARK: Checking

    /// What the store holds (for tests, diagnostics and probes).
    var usage: SlotStoreUsage {
        let allocated = pages.filter(\.isAllocated)
        return SlotStoreUsage(
            pages: pages.count, allocatedPages: allocated.count,
            emptyPages: pages.dropFirst().filter { $0.isAllocated && $0.occupied == 0 }.count,
            slots: allocated.reduce(0) { $0 + $1.count }, occupied: occupiedCount,
            slotCapacity: allocated.reduce(0) { $0 + ($1.storage?.capacity ?? 0) })
    }

    /// The reserved capacity of every collection the store holds, by name (for tests: a store emptied
    /// after a burst must not keep the burst's room). A collection added to the store is listed here.
    var collectionCapacities: [(path: String, capacity: Int)] {
        var found = [("pages", pages.capacity), ("room", room.capacity)]
        for (page, content) in pages.enumerated() {
            found.append(("pages[\(page)].free", content.free.capacity))
            found.append(("pages[\(page)].storage", content.storage?.capacity ?? 0))
        }
        return found
    }

    /// Checks every invariant of the store; returns the first one broken, or nil.
    func invariantViolation() -> String? {
        var occupied = 0
        for (page, content) in pages.enumerated() {
            let capacity = Self.capacity(ofPage: page)
            let hasRoom = room[page / 64] & (1 << (page % 64)) != 0
            guard let storage = content.storage else {
                if content.occupied != 0 || !content.free.isEmpty { return "freed page \(page) holds slots" }
                if !hasRoom { return "freed page \(page) not marked as having room" }
                if page == pages.count - 1 { return "a freed page ends the store" }
                continue
            }
            if storage.count > capacity || storage.capacity != capacity { return "page \(page) over its capacity" }
            let live = (0..<storage.count).count { storage.records[$0].isOccupied }
            if live != content.occupied { return "page \(page) counts \(content.occupied) items, holds \(live)" }
            if storage.count - live != content.free.count { return "page \(page) free list incomplete" }
            if Set(content.free).count != content.free.count { return "page \(page) lists a free slot twice" }
            for index in content.free.map(Int.init) {
                if index >= storage.count || storage.records[index].isOccupied {
                    return "page \(page) lists an occupied slot as free"
                }
                if storage.records[index].keepsReferences {
                    return "page \(page) has a freed slot that keeps references"
                }
                if storage.links[index] != Record.unlinked { return "page \(page) has a freed slot still linked" }
            }
            let hasFree = !content.free.isEmpty || storage.count < capacity
            if hasFree != hasRoom { return "page \(page) room bit wrong" }
            if content.occupied == 0, page != 0 || !Record.keepsFirstPage, spare.page != page {
                return "empty page \(page) is not the spare"
            }
            occupied += live
        }
        if occupied != occupiedCount { return "store counts \(occupiedCount) items, holds \(occupied)" }
        if occupiedCount == 0, pages.count > (Record.keepsFirstPage ? 1 : 0) {
            return "an empty store keeps \(pages.count) page(s)"
        }
        if room.count != (pages.count + 63) / 64 { return "room bits out of step with the pages" }
        if room.prefix(roomHint).contains(where: { $0 != 0 }) { return "a page below the room hint has room" }
        return nil
    }
}

/// What a ``SlotStore`` holds: pages (freed ones in the middle included), allocated pages, allocated pages
/// after the first that hold no item (the spare), slots handed out in allocated pages, occupied slots, and
/// the slots the allocated pages have room for.
struct SlotStoreUsage: Equatable, Sendable {
    var pages: Int
    var allocatedPages: Int
    var emptyPages: Int
    var slots: Int
    var occupied: Int
    var slotCapacity: Int
}

/// One page's records and its slots' links, in raw storage of the page's capacity, freed with the page.
/// Records `0..<count` are initialised (a freed slot's record stays initialised, vacated); links are plain
/// values, set when a slot is handed out.
///
/// Sendable as part of its store: each page belongs to one page entry of one ``SlotStore``, which is
/// noncopyable and lives inside its feature's lock, so its memory is only ever reached under that lock.
final class SlotPage<Record: SlotRecord>: @unchecked Sendable {
    /// The alignment of the records (a cache line).
    static var recordAlignment: Int { 64 }

    let records: UnsafeMutablePointer<Record>
    let links: UnsafeMutablePointer<Record.Links>
    let capacity: Int
    /// Slots handed out: the initialised records.
    var count = 0

    init(capacity: Int) {
        self.capacity = capacity
        records = UnsafeMutableRawPointer.allocate(
            byteCount: MemoryLayout<Record>.stride * capacity,
            alignment: max(Self.recordAlignment, MemoryLayout<Record>.alignment)
        ).bindMemory(to: Record.self, capacity: capacity)
        links = .allocate(capacity: capacity)
    }

    /// Deinitialises every record, keeping the storage.
    func removeAll() {
        records.deinitialize(count: count)
        count = 0
    }

    deinit {
        records.deinitialize(count: count)
        UnsafeMutableRawPointer(records).deallocate()
        links.deallocate()
    }
}
