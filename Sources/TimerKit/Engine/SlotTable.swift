internal import CTimerKit

/// The ticker records of one engine, in pages that are given back as tickers go.
///
/// A slot is a record's address for its whole life (a ``Ticker`` handle names it), so records never move:
/// the table grows by pages, and frees a page once none of its slots holds a ticker. Pages hold 32, 32, 64,
/// 128, 256, then 512 records. A new ticker takes a free slot in the lowest page that has one, so that
/// tickers gather in the low pages and the high ones empty out after a burst. Page 0 is never freed, and
/// one emptied page is kept as a spare (the lower one, when another empties), so that a count of tickers
/// going up and down across a page boundary does not allocate a page each time. When the last ticker
/// goes, every page but the first is freed.
///
/// A page's records and its slots' positions in the deadline heap (-1: not in it) live in raw storage
/// (``PageStorage``), reached through pointers: a record is read and written in place, field by field. (A
/// record holds a weak reference, so it cannot be moved bit by bit: read through an array's subscript it
/// was copied whole — its handler and site retained, its weak owner copied — several times per call.)
/// Sifting the heap writes a position per level, and a write through the page's storage touches neither
/// the records nor copy-on-write checks of the page array.
///
/// The table is noncopyable: a copy would share the pages' storage (``PageStorage`` is a reference) and
/// copy-on-write does not protect raw storage, so a write through one copy would show in the other and a
/// page freed by one would leave the other pointing at freed memory. The compiler makes each table have
/// one owner (its ``TickerStateMachine``), used in place, and every write go through a `mutating` access.
/// Reaching a slot that was never handed out, or whose page was given back, stops the program with a
/// message (in release builds too): it never reads or writes memory the table does not hold.
struct SlotTable: ~Copyable {
    /// Records per page from the sixth page on.
    static let pageSize = 512
    /// Records in the first page (and the second); each following small page doubles.
    static let firstPageSize = 32

    struct Page {
        /// The page's records and heap positions; slots from `storage.count` on were never handed out. A
        /// freed page has no storage.
        var storage: PageStorage?
        /// Indexes of freed slots below `count`.
        var free = ContiguousArray<UInt16>()
        /// Slots that hold a ticker.
        var occupied = 0

        init() {}

        init(capacity: Int) {
            storage = PageStorage(capacity: capacity)
        }

        /// Whether the page has storage (a freed page has none until a slot in it is handed out again).
        var isAllocated: Bool { storage != nil }

        /// Slots handed out in the page (0 for a freed page).
        var count: Int { storage?.count ?? 0 }
    }

    private(set) var pages: [Page] = []
    /// One bit per page: set when the page has a slot to hand out (a freed page always has).
    private var pagesWithRoom: [UInt64] = []
    /// Slots that hold a ticker.
    private(set) var occupiedCount = 0
    /// An emptied page kept allocated for reuse.
    private var spare = SparePage()

    // MARK: Addresses

    /// The page holding `slot`, and the slot's index in it.
    @inline(__always)
    static func location(of slot: Int) -> (page: Int, index: Int) {
        if slot < firstPageSize { return (0, slot) }
        if slot < pageSize {
            // Slots 32..<64 are page 1, 64..<128 page 2, …, 256..<512 page 4.
            let page = Int.bitWidth - slot.leadingZeroBitCount - 5
            return (page, slot - (1 << (page + 4)))
        }
        let rest = slot - pageSize
        return (5 + rest / pageSize, rest % pageSize)
    }

    /// The first slot of page `page`.
    static func base(ofPage page: Int) -> Int {
        page == 0 ? 0 : page < 5 ? 1 << (page + 4) : (page - 4) * pageSize
    }

    /// The number of records page `page` holds.
    static func capacity(ofPage page: Int) -> Int {
        page == 0 ? firstPageSize : page < 5 ? 1 << (page + 4) : pageSize
    }

    /// One past the highest slot handed out in the pages the table has (the range to scan for tickers).
    var slotEnd: Int {
        guard let last = pages.indices.last else { return 0 }
        return Self.base(ofPage: last) + pages[last].count
    }

    // MARK: Records

    /// The record in `slot`, which must have been handed out and not freed with its page, read or modified
    /// in place (through its page's storage: never copied whole).
    subscript(slot: UInt32) -> TickerRecord {
        @inline(__always) unsafeAddress { UnsafePointer(address(of: slot)) }
        @inline(__always) mutating unsafeMutableAddress { address(of: slot) }
    }

    /// The address of the record in `slot`, valid until its page is freed. `slot` must have been handed out
    /// in a page the table still holds: otherwise the program stops with a message.
    @inline(__always)
    func address(of slot: UInt32) -> UnsafeMutablePointer<TickerRecord> {
        let (page, index) = Self.location(of: Int(slot))
        return storage(of: page, index: index, slot: slot).records + index
    }

    /// The storage of page `page`, checked to hold a handed-out slot at `index`.
    @inline(__always)
    private func storage(of page: Int, index: Int, slot: UInt32) -> PageStorage {
        guard page < pages.count, let storage = pages[page].storage, index < storage.count else {
            Self.notHandedOut(slot)
        }
        return storage
    }

    /// A slot that is not in the table was reached: an engine bug, stopped before it touches memory.
    private static func notHandedOut(_ slot: UInt32) -> Never {
        preconditionFailure("TimerKit internal: slot \(slot) is not in its engine's table")
    }

    /// Whether `slot` lies in a handed-out part of an allocated page (its record may be free).
    @inline(__always)
    func hasRecord(_ slot: UInt32) -> Bool {
        let (page, index) = Self.location(of: Int(slot))
        return page < pages.count && index < pages[page].count
    }

    /// Whether `slot` holds a ticker.
    @inline(__always)
    func isOccupied(_ slot: UInt32) -> Bool {
        guard hasRecord(slot) else { return false }
        return address(of: slot).pointee.isOccupied
    }

    /// The heap position of a handed-out slot, or -1.
    @inline(__always)
    func position(of slot: UInt32) -> Int32 {
        let (page, index) = Self.location(of: Int(slot))
        return storage(of: page, index: index, slot: slot).positions[index]
    }

    /// Records the heap position of a handed-out slot.
    @inline(__always)
    mutating func setPosition(_ position: Int32, of slot: UInt32) {
        let (page, index) = Self.location(of: Int(slot))
        storage(of: page, index: index, slot: slot).positions[index] = position
    }

    /// Starts loading the record of a handed-out slot, and its heap position, into the cache (see
    /// `ctimerkit_prefetch`): a hint that changes no state.
    @inline(__always)
    func prefetch(_ slot: UInt32) {
        let (page, index) = Self.location(of: Int(slot))
        // Each address in one expression: a page storage bound to a local across the calls is retained.
        let record = storage(of: page, index: index, slot: slot).records + index
        let position = storage(of: page, index: index, slot: slot).positions + index
        ctimerkit_prefetch_for_write(record)
        ctimerkit_prefetch_for_write(position)
    }

    /// Starts loading what serving the record in `slot` reaches through it into the cache: its site (two
    /// lines: a ticker whose first delay differs from its call site's first ticker's has a site of its own,
    /// allocated apart) and a waiter handler's token (whose reference count a delivery updates). A hint
    /// that changes no state: the site reference is read as a raw word (a typed read may retain, which
    /// would wait for the line), and a prefetch never faults. Call it once the record is cached (see
    /// `prefetch`).
    @inline(__always)
    func prefetchReferents(_ slot: UInt32) {
        let record = address(of: slot)
        #if _pointerBitWidth(_64)
            let site = UnsafeRawPointer(record).load(fromByteOffset: Self.siteOffset, as: UnsafeRawPointer.self)
            ctimerkit_prefetch(site)
            ctimerkit_prefetch(site + 64)
        #endif
        record.pointee.handler?.prefetchObject()
    }

    /// Where a record keeps its site reference (`MemoryLayout<TickerRecord>.offset(of: \.site)`, which a
    /// test checks; a constant, so that the prefetch loop does not look a stored one up each time). The
    /// 64-bit layout's: on 32-bit platforms the site is not prefetched.
    static var siteOffset: Int { 40 }

    // MARK: Taking and freeing slots

    /// Stores `record` in the lowest free slot and returns the slot.
    mutating func insert(_ record: consuming TickerRecord) -> UInt32 {
        let page = firstPageWithRoom() ?? appendPage()
        if !pages[page].isAllocated { pages[page] = Page(capacity: Self.capacity(ofPage: page)) }
        let index: Int
        // Allocated just above if it was not.
        guard let storage = pages[page].storage else { preconditionFailure("TimerKit internal: page without storage") }
        if let freed = pages[page].free.popLast() {
            index = Int(freed)
            storage.records[index] = consume record
        } else {
            index = storage.count
            (storage.records + index).initialize(to: consume record)
            storage.positions[index] = -1
            storage.count += 1
        }
        precondition(Self.base(ofPage: page) + index < 1 << 30, "TimerKit: more than 2^30 tickers on one context")
        pages[page].occupied += 1
        occupiedCount += 1
        spare.taken(page)
        if pages[page].free.isEmpty, storage.count == Self.capacity(ofPage: page) {
            setRoom(page, false)
        }
        return UInt32(Self.base(ofPage: page) + index)
    }

    /// Frees an occupied slot that is not in the heap; frees its page when it empties (see the type's
    /// summary).
    mutating func free(_ slot: UInt32) {
        let (page, index) = Self.location(of: Int(slot))
        precondition(position(of: slot) < 0, "TimerKit internal: freeing a scheduled ticker")
        occupiedCount -= 1
        pages[page].occupied -= 1
        if occupiedCount == 0 {
            releaseAll()
            return
        }
        // Drop what the record references (its handler is already gone; a shared site stays, an own site is
        // released) without rewriting the whole record.
        Self.vacate(&self[slot])
        pages[page].free.append(UInt16(index))
        setRoom(page, true)
        if pages[page].occupied == 0, page != 0 { emptied(page) }
    }

    /// Marks a record free, dropping what it references (its handler is already gone; a shared site stays,
    /// a site of its own is swapped for `TickerSite.vacant`), in one access, without rewriting the whole
    /// record.
    @inline(__always)
    private static func vacate(_ record: inout TickerRecord) {
        record.owner = nil
        record.isOccupied = false
        if record.hasOwnSite {
            // Its deinit runs no user code (the site holds an origin and numbers).
            record.site = TickerSite.vacant
            record.hasOwnSite = false
        }
    }

    /// Keeps the first page (emptied) and its small buffers; frees the rest.
    private mutating func releaseAll() {
        pages.removeLast(pages.count - 1)
        pages[0].storage?.removeAll()
        pages[0].free.removeAll(keepingCapacity: true)
        pages[0].occupied = 0
        pagesWithRoom = [1]
        spare = SparePage()
    }

    /// Page `page` has just lost its last ticker.
    private mutating func emptied(_ page: Int) {
        if let freed = spare.emptied(page) { release(freed) }
    }

    /// Frees a page's storage; trailing freed pages leave the table.
    private mutating func release(_ page: Int) {
        pages[page] = Page()
        while pages.count > 1, !pages[pages.count - 1].isAllocated {
            setRoom(pages.count - 1, false)
            pages.removeLast()
        }
        pagesWithRoom.removeLast(pagesWithRoom.count - (pages.count + 63) / 64)
    }

    private mutating func appendPage() -> Int {
        pages.append(Page(capacity: Self.capacity(ofPage: pages.count)))
        if pagesWithRoom.count * 64 < pages.count { pagesWithRoom.append(0) }
        setRoom(pages.count - 1, true)
        return pages.count - 1
    }

    private func firstPageWithRoom() -> Int? {
        for (word, bits) in pagesWithRoom.enumerated() where bits != 0 {
            return word * 64 + bits.trailingZeroBitCount
        }
        return nil
    }

    @inline(__always)
    private mutating func setRoom(_ page: Int, _ hasRoom: Bool) {
        let bit = UInt64(1) << (page % 64)
        if hasRoom {
            pagesWithRoom[page / 64] |= bit
        } else {
            pagesWithRoom[page / 64] &= ~bit
        }
    }

    // MARK: Checking

    /// What the table holds: slots handed out in allocated pages, occupied slots, pages (allocated ones),
    /// and records the allocated pages have room for.
    var usage: (slots: Int, occupied: Int, pages: Int, allocatedPages: Int, recordCapacity: Int) {
        let allocated = pages.filter(\.isAllocated)
        return (
            allocated.reduce(0) { $0 + $1.count }, occupiedCount, pages.count, allocated.count,
            allocated.reduce(0) { $0 + ($1.storage?.capacity ?? 0) }
        )
    }

    /// The reserved capacity of every collection the table holds, by name (for tests: a table emptied after
    /// a burst must not keep the burst's room). A collection added to the table is listed here.
    var collectionCapacities: [(path: String, capacity: Int)] {
        var found = [("pages", pages.capacity), ("pagesWithRoom", pagesWithRoom.capacity)]
        for (page, content) in pages.enumerated() {
            found.append(("pages[\(page)].free", content.free.capacity))
            found.append(("pages[\(page)].storage", content.storage?.capacity ?? 0))
        }
        return found
    }

    /// Checks every invariant of the table; returns the first one broken, or nil (for tests).
    func invariantViolation() -> String? {
        var occupied = 0
        for (page, content) in pages.enumerated() {
            let capacity = Self.capacity(ofPage: page)
            let hasRoom = pagesWithRoom[page / 64] & (1 << (page % 64)) != 0
            guard content.isAllocated || page == 0 else {
                if content.occupied != 0 || !content.free.isEmpty { return "freed page \(page) holds slots" }
                if !hasRoom { return "freed page \(page) not marked as having room" }
                continue
            }
            guard let storage = content.storage else { return "page \(page) has no storage" }
            if storage.count > capacity || storage.capacity != capacity { return "page \(page) over its capacity" }
            let live = (0..<storage.count).count { storage.records[$0].isOccupied }
            if live != content.occupied { return "page \(page) counts \(content.occupied) tickers, holds \(live)" }
            if storage.count - live != content.free.count { return "page \(page) free list incomplete" }
            if content.free.contains(where: { storage.records[Int($0)].isOccupied }) {
                return "page \(page) lists an occupied slot as free"
            }
            if content.free.contains(where: { storage.records[Int($0)].hasOwnSite }) {
                return "page \(page) has a freed slot that keeps a site of its own"
            }
            let room = !content.free.isEmpty || storage.count < capacity
            if room != hasRoom { return "page \(page) room bit wrong" }
            if content.occupied == 0, page != 0, spare.page != page { return "empty page \(page) is not the spare" }
            occupied += live
        }
        if occupied != occupiedCount { return "table counts \(occupiedCount) tickers, holds \(occupied)" }
        if pages.count > 1, !pages[pages.count - 1].isAllocated { return "a freed page ends the table" }
        if pagesWithRoom.count != (pages.count + 63) / 64 { return "room bits out of step with the pages" }
        return nil
    }
}

/// One page's records and its slots' heap positions, in raw storage of the page's capacity, freed with the
/// page. Records `0..<count` are initialised (a freed slot's record stays initialised, vacated).
///
/// The records start on a cache-line boundary: a 64-byte record then fills one line, so serving a ticker
/// whose record went cold costs one cache miss for it, not two.
///
/// Sendable as part of its table: each page storage belongs to one page of one ``SlotTable``, which is
/// noncopyable and lives inside its engine's lock, so its memory is only ever reached under that lock.
final class PageStorage: @unchecked Sendable {
    /// The alignment of the records (a cache line).
    static let recordAlignment = 64

    let records: UnsafeMutablePointer<TickerRecord>
    let positions: UnsafeMutablePointer<Int32>
    let capacity: Int
    /// Slots handed out: the initialised records.
    var count = 0

    init(capacity: Int) {
        self.capacity = capacity
        records = UnsafeMutableRawPointer.allocate(
            byteCount: MemoryLayout<TickerRecord>.stride * capacity,
            alignment: max(Self.recordAlignment, MemoryLayout<TickerRecord>.alignment)
        ).bindMemory(to: TickerRecord.self, capacity: capacity)
        positions = .allocate(capacity: capacity)
    }

    /// Deinitialises every record, keeping the storage.
    func removeAll() {
        records.deinitialize(count: count)
        count = 0
    }

    deinit {
        records.deinitialize(count: count)
        UnsafeMutableRawPointer(records).deallocate()
        positions.deallocate()
    }
}
