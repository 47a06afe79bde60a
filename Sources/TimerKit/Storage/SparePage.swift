/// The one emptied page a paged storage keeps allocated, so that a count going up and down across a page
/// boundary does not allocate a page each time: the lower of two emptied pages is kept, so that the high
/// pages leave after a burst.
struct SparePage: Equatable, Sendable {
    /// The page kept, if any.
    private(set) var page: Int?

    /// Page `emptied` has just lost its last item; returns the page to free (the higher of it and the page
    /// kept), or nil when it is kept.
    mutating func emptied(_ emptied: Int) -> Int? {
        guard let kept = page, kept != emptied else {
            page = emptied
            return nil
        }
        page = min(kept, emptied)
        return max(kept, emptied)
    }

    /// Page `taken` got an item: it is no longer a spare.
    mutating func taken(_ taken: Int) {
        if page == taken { page = nil }
    }
}
