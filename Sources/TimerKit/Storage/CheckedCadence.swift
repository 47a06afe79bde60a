#if TIMERKIT_CHECKED
    /// How often a `TIMERKIT_CHECKED` build runs a store's full invariant check, which reads every slot and
    /// costs several times the transition itself: after every `minimumInterval`-th locked transition, and
    /// after every (slots / `slotsReadPerTransition`)-th once the store holds more slots than that makes
    /// worthwhile, so that checking costs about the same per transition at any size (checking a store of
    /// 20,000 tickers after each of 20,000 creations would read 400 million slots). A broken invariant is
    /// therefore caught within that many transitions of the one that broke it, with the state that broke
    /// it still in place. (Tests that drive a machine directly also call the check where they assert.)
    struct CheckedCadence {
        static let minimumInterval = 8
        static let slotsReadPerTransition = 8

        private var sinceCheck = 0

        /// Counts a transition; true when this one is to be checked, for a store of `slots` slots.
        mutating func isDue(slots: Int) -> Bool {
            sinceCheck += 1
            guard sinceCheck >= max(Self.minimumInterval, slots / Self.slotsReadPerTransition) else { return false }
            sinceCheck = 0
            return true
        }
    }
#endif
