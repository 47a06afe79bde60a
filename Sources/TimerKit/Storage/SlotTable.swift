/// An engine's ticker records: the one ``SlotStore``, whose links are the tickers' positions in the
/// engine's ``DeadlineHeap`` (-1: not in it). Pages hold 32, 32, 64, 128, 256, then 512 records; the first
/// page is kept when the last ticker goes. Sifting the heap writes a position per level, and a write to the
/// links touches neither the records nor their cache lines.
typealias SlotTable = SlotStore<TickerRecord>

extension SlotStore where Record == TickerRecord {
    /// The heap position of a handed-out slot, or -1.
    @inline(__always)
    func position(of slot: UInt32) -> Int32 { links(of: slot) }

    /// Records the heap position of a handed-out slot.
    @inline(__always)
    mutating func setPosition(_ position: Int32, of slot: UInt32) { setLinks(position, of: slot) }
}

extension TickerRecord: SlotRecord {
    static var unlinked: Int32 { -1 }
    static var firstPageSize: Int { 32 }
    static var pageSize: Int { 512 }
    static var keepsFirstPage: Bool { true }

    var isLive: Bool { phase.isLive }

    var binding: Lifetime.Binding { site.binding }

    var loadedOwner: AnyObject? { owner }

    /// Drops what the record references (its handler is already gone; a shared site stays, a site of its
    /// own is swapped for `TickerSite.vacant`) in one access, without rewriting the whole record.
    @inline(__always)
    mutating func vacate() {
        owner = nil
        isOccupied = false
        if hasOwnSite {
            // Its deinit runs no user code (the site holds an origin and numbers).
            site = TickerSite.vacant
            hasOwnSite = false
        }
    }

    var keepsReferences: Bool { hasOwnSite || handler != nil || owner != nil }
}
