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
/// Each page also holds its slots' positions in the deadline heap (-1: not in it), apart from the records,
/// in raw storage (``PositionBuffer``): sifting the heap writes a position per level, and a write through
/// the page's buffer touches neither the records nor copy-on-write checks of the page array.
struct SlotTable {
    /// Records per page from the sixth page on.
    static let pageSize = 512
    /// Records in the first page (and the second); each following small page doubles.
    static let firstPageSize = 32

    struct Page {
        /// The page's records; slots past `records.count` were never handed out. A freed page holds none
        /// and has no storage.
        var records = ContiguousArray<TickerRecord>()
        /// Each record's position in the deadline heap, or -1 (set for entries below `records.count`); nil for
        /// a freed page.
        var positions: PositionBuffer?
        /// Indexes of freed slots below `records.count`.
        var free = ContiguousArray<UInt16>()
        /// Slots that hold a ticker.
        var occupied = 0

        init() {}

        init(capacity: Int) {
            records.reserveCapacity(capacity)
            positions = PositionBuffer(capacity: capacity)
        }

        /// Whether the page has storage (a freed page has none until a slot in it is handed out again).
        var isAllocated: Bool { records.capacity > 0 }
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
        return Self.base(ofPage: last) + pages[last].records.count
    }

    // MARK: Records

    /// The record in `slot`, which must have been handed out and not freed with its page.
    subscript(slot: UInt32) -> TickerRecord {
        _read {
            let (page, index) = Self.location(of: Int(slot))
            yield pages[page].records[index]
        }
        _modify {
            let (page, index) = Self.location(of: Int(slot))
            yield &pages[page].records[index]
        }
    }

    /// Whether `slot` lies in a handed-out part of an allocated page (its record may be free).
    @inline(__always)
    func hasRecord(_ slot: UInt32) -> Bool {
        let (page, index) = Self.location(of: Int(slot))
        return page < pages.count && index < pages[page].records.count
    }

    /// Whether `slot` holds a ticker.
    func isOccupied(_ slot: UInt32) -> Bool {
        guard hasRecord(slot) else { return false }
        let (page, index) = Self.location(of: Int(slot))
        return pages[page].records[index].isOccupied
    }

    /// The heap position of a handed-out slot, or -1.
    @inline(__always)
    func position(of slot: UInt32) -> Int32 {
        let (page, index) = Self.location(of: Int(slot))
        return pages[page].positions.unsafelyUnwrapped.base[index]
    }

    /// Records the heap position of a handed-out slot. Not `mutating`: it writes the page's raw buffer.
    @inline(__always)
    func setPosition(_ position: Int32, of slot: UInt32) {
        let (page, index) = Self.location(of: Int(slot))
        pages[page].positions.unsafelyUnwrapped.base[index] = position
    }

    // MARK: Taking and freeing slots

    /// Stores `record` in the lowest free slot and returns the slot.
    mutating func insert(_ record: consuming TickerRecord) -> UInt32 {
        let page = firstPageWithRoom() ?? appendPage()
        if !pages[page].isAllocated { pages[page] = Page(capacity: Self.capacity(ofPage: page)) }
        let index: Int
        if let freed = pages[page].free.popLast() {
            index = Int(freed)
            pages[page].records[index] = consume record
        } else {
            index = pages[page].records.count
            pages[page].records.append(consume record)
            setPosition(-1, of: UInt32(Self.base(ofPage: page) + index))
        }
        precondition(Self.base(ofPage: page) + index < 1 << 30, "TimerKit: more than 2^30 tickers on one context")
        pages[page].occupied += 1
        occupiedCount += 1
        spare.taken(page)
        if pages[page].free.isEmpty, pages[page].records.count == Self.capacity(ofPage: page) {
            setRoom(page, false)
        }
        return UInt32(Self.base(ofPage: page) + index)
    }

    /// Frees an occupied slot that is not in the heap; frees its page when it empties (see the type's
    /// summary).
    mutating func free(_ slot: UInt32) {
        let (page, index) = Self.location(of: Int(slot))
        precondition(
            pages[page].positions.unsafelyUnwrapped.base[index] < 0, "TimerKit internal: freeing a scheduled ticker")
        occupiedCount -= 1
        pages[page].occupied -= 1
        if occupiedCount == 0 {
            releaseAll()
            return
        }
        // Drop what the record references (its handler is already gone; its site is shared) without
        // rewriting the whole record.
        Self.vacate(&pages[page].records[index])
        pages[page].free.append(UInt16(index))
        setRoom(page, true)
        if pages[page].occupied == 0, page != 0 { emptied(page) }
    }

    /// Marks a record free, dropping what it references (its handler is already gone; its site is shared),
    /// in one access, without rewriting the whole record.
    @inline(__always)
    private static func vacate(_ record: inout TickerRecord) {
        record.owner = nil
        record.isOccupied = false
    }

    /// Keeps the first page (emptied) and its small buffers; frees the rest.
    private mutating func releaseAll() {
        pages.removeLast(pages.count - 1)
        pages[0].records.removeAll(keepingCapacity: true)
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
            allocated.reduce(0) { $0 + $1.records.count }, occupiedCount, pages.count, allocated.count,
            allocated.reduce(0) { $0 + $1.records.capacity }
        )
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
            if content.records.count > capacity { return "page \(page) over its capacity" }
            if content.positions == nil { return "page \(page) has no position storage" }
            let live = content.records.filter(\.isOccupied).count
            if live != content.occupied { return "page \(page) counts \(content.occupied) tickers, holds \(live)" }
            if content.records.count - live != content.free.count { return "page \(page) free list incomplete" }
            if content.free.contains(where: { content.records[Int($0)].isOccupied }) {
                return "page \(page) lists an occupied slot as free"
            }
            let room = !content.free.isEmpty || content.records.count < capacity
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

/// The heap positions of one page's slots: raw storage of the page's capacity, freed with the page.
final class PositionBuffer {
    let base: UnsafeMutablePointer<Int32>

    init(capacity: Int) {
        base = .allocate(capacity: capacity)
    }

    deinit {
        base.deallocate()
    }
}
