internal import CTimerKit

extension Lifetime {
    /// The replacement rule's witness: the last bound item with a handle that the calling thread created,
    /// kept thread-locally so that creations on other threads never hide it.
    ///
    /// `self.countdown = Ticker.schedule(…, owner: self)` creates the new ticker, then releases the old
    /// handle, on one thread with nothing in between. So when a bound handle is released while its item
    /// runs and its owner lives, the holder (under its lock) asks whether this thread's last creation is a
    /// live item of the same holder, from the same call site, bound to the same owner and made no earlier:
    /// then the released one was replaced and stops. A handle discarded at creation is its own last
    /// creation and is never replaced; handles kept elsewhere are never released, so never compared.
    /// The replacement rule, once for every holder: the running bound item whose handle is being released,
    /// bound to `releasedOwner` (alive) and made at `releasedCreatedAt`, was replaced by the releasing
    /// thread's last creation when that item is another live one of the same holder, from the same call
    /// site (`sameSite`), made no earlier, and bound to the same owner (`owner`, loaded by the holder).
    @inline(__always)
    static func isReplacement(
        sameSite: Bool, createdAt: Int64, owner: AnyObject?, releasedCreatedAt: Int64, releasedOwner: AnyObject
    ) -> Bool {
        sameSite && createdAt >= releasedCreatedAt && owner === releasedOwner
    }

    enum LastBoundCreation {
        /// Records that this thread has just created the bound item `slot`/`serial` in `container` (an
        /// engine or a frame source, used as an identity only).
        @inline(__always)
        static func record(in container: AnyObject, slot: Int64, serial: UInt64) {
            ctimerkit_set_last_bound_creation(
                ctimerkit_bound_creation(container: address(of: container), slot: slot, serial: serial))
        }

        /// This thread's last bound creation, if it was in `container`. The holder checks under its lock
        /// that the item still exists (the slot and serial may name a freed or reused slot).
        @inline(__always)
        static func latest(in container: AnyObject) -> (slot: Int64, serial: UInt64)? {
            let last = ctimerkit_last_bound_creation_get()
            guard last.container == address(of: container) else { return nil }
            return (last.slot, last.serial)
        }

        @inline(__always)
        private static func address(of container: AnyObject) -> UnsafeRawPointer {
            UnsafeRawPointer(Unmanaged.passUnretained(container).toOpaque())
        }
    }
}
