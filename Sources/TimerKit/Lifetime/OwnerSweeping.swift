/// A feature whose items live in a ``SlotStore`` and are swept for dead owners: tickers
/// (``TickerStateMachine``) and frame subscriptions (``FrameSourceState``). The sweep is written once, here.
///
/// Swift offers no hook into another object's deinitialisation, so a bound item whose owner went away is
/// found either at its next delivery (``Lifetime/load(_:owner:)``) or by this incremental round-robin
/// sweep, which looks at a few slots per call (and at all of them when diagnostics list live items).
/// Owners found alive are handed out in the ``Lifetime/Sweep``, to be released after unlocking.
protocol OwnerSweeping: ~Copyable {
    /// What stopping an item leaves to do after unlocking.
    associatedtype Stopped

    /// One past the highest slot the sweep may look at (0 when nothing bound is live: the sweep stops).
    var sweepEnd: Int { get }

    /// Where the sweep continues.
    var sweepCursor: Lifetime.SweepCursor { get set }

    /// The sweep's verdict on one slot (``SlotStore/ownerVerdict(at:)``).
    func ownerVerdict(at slot: UInt32) -> Lifetime.SweepVerdict

    /// Stops the live bound item in `slot`, whose owner has gone away.
    mutating func stopOwnerGone(at slot: UInt32) -> Stopped
}

extension OwnerSweeping where Self: ~Copyable {
    /// Looks at up to `limit` slots (all when nil), round-robin from where the last sweep stopped, and
    /// stops the items whose owner has gone away; what they leave, and the owners found alive, go to
    /// `sweep`.
    mutating func sweepDeadOwners(limit: Int?, into sweep: inout Lifetime.Sweep<Stopped>) {
        for _ in 0..<Lifetime.SweepCursor.steps(limit: limit, end: sweepEnd) {
            // Stopping an item may free the last slots: the end is read again at each step.
            guard let slot = sweepCursor.next(below: UInt32(sweepEnd)) else { break }
            sweepSlot(slot, into: &sweep)
        }
    }

    /// Looks at one slot for a sweep: stops its item if it is live, bound, and its owner has gone away; a
    /// live owner goes to `sweep.alive`.
    @inline(__always)
    mutating func sweepSlot(_ slot: UInt32, into sweep: inout Lifetime.Sweep<Stopped>) {
        if sweep.note(ownerVerdict(at: slot)) { sweep.stopped.append(stopOwnerGone(at: slot)) }
    }
}

extension SlotStore {
    /// The dead-owner sweep's verdict on `slot` (any slot number: one that is not in the store is skipped):
    /// whether it holds a live bound item, and if so its owner, loaded.
    @inline(__always)
    func ownerVerdict(at slot: UInt32) -> Lifetime.SweepVerdict {
        guard hasRecord(slot) else { return .skip }
        let record = address(of: slot)
        return Lifetime.sweepVerdict(
            isLiveBound: record.pointee.isOccupied && record.pointee.binding.isBound && record.pointee.isLive,
            owner: record.pointee.loadedOwner)
    }
}
