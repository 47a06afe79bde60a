/// Whether an engine's alarm exists yet.
enum AlarmSlot {
    case none
    /// An arming was told to make it; it is published when made.
    case beingMade
    case made(any EngineAlarm)
}

/// An arming decided under the engine's lock, applied after unlocking: the wake-up instant, the arming's
/// sequence number (to detect armings applied out of order), and how to reach the alarm.
struct Arming {
    enum AlarmAccess {
        case made(any EngineAlarm)
        /// The alarm does not exist yet and this arming makes it.
        case make
        /// Another arming is making the alarm; it applies the newest arming once the alarm exists.
        case beingMade
    }

    var deadline: Int64
    var sequence: UInt64
    var alarm: AlarmAccess
}

/// What the alarm is armed for, and the alarm itself once made.
struct AlarmState {
    /// What the alarm is armed for (nil: not armed, or it already fired).
    var armedAt: Int64?
    /// The end of the batch window the armed wake-up was chosen in: no pending window ended before it when
    /// it was chosen (see `wakePlan`). A new deadline at or before it joins the batch.
    var armedWindowEnd: Int64 = .min
    /// Set when a new deadline in the armed batch moved the wake-up later: the alarm must be re-armed.
    var armedLater = false
    /// Bumped on every arming, so that the alarm can ignore an arming that lands after a newer one.
    var armSequence: UInt64 = 0
    /// The context's alarm: made by the first arming, not with the engine.
    var alarm = AlarmSlot.none
}

extension TickerStateMachine {
    /// Keeps the armed wake-up valid for a deadline that was just queued or moved. A window that ends
    /// before the armed batch's window end needs a new plan (the alarm is disarmed, so that
    /// `armingIfNeeded` makes one); a deadline inside the batch window but after the armed wake-up moves
    /// the wake-up to it, so that one wake-up still serves the whole batch.
    mutating func noteKey(_ key: (deadline: Int64, latest: Int64)) {
        guard let armed = alarmState.armedAt else { return }
        if key.latest < alarmState.armedWindowEnd {
            alarmState.armedAt = nil
        } else if key.deadline <= alarmState.armedWindowEnd, key.deadline > armed {
            alarmState.armedAt = key.deadline
            alarmState.armedLater = true
        }
    }

    /// Arms for the wake-up `wakePlan` chooses when the alarm is not armed, or re-arms for a wake-up a new
    /// deadline moved later. A deadline that moved later or went away leaves the alarm alone: the early
    /// wake finds nothing due and re-arms.
    mutating func armingIfNeeded() -> Arming? {
        guard firstPending() != nil else { return nil }
        let wake: Int64
        if let armed = alarmState.armedAt {
            guard alarmState.armedLater else { return nil }
            wake = armed
        } else {
            let plan = wakePlan()
            wake = plan.wake
            alarmState.armedAt = wake
            alarmState.armedWindowEnd = plan.windowEnd
        }
        alarmState.armedLater = false
        alarmState.armSequence &+= 1
        return Arming(deadline: wake, sequence: alarmState.armSequence, alarm: claimAlarm())
    }

    /// Arms for `instant` without a batch (a wake-up that yields the context and comes straight back).
    mutating func arm(at instant: Int64) -> Arming {
        alarmState.armedAt = instant
        alarmState.armedWindowEnd = instant
        alarmState.armedLater = false
        alarmState.armSequence &+= 1
        return Arming(deadline: instant, sequence: alarmState.armSequence, alarm: claimAlarm())
    }

    /// The alarm was made by the arming with `sequence`, which was told to make it
    /// (`Arming.AlarmAccess.make`): publishes it, and returns the newest arming issued while it was being
    /// made (those were left to the maker), if any, for the maker to apply.
    mutating func alarmMade(_ alarm: any EngineAlarm, by sequence: UInt64) -> Arming? {
        alarmState.alarm = .made(alarm)
        guard alarmState.armSequence != sequence, let armedAt = alarmState.armedAt else { return nil }
        return Arming(deadline: armedAt, sequence: alarmState.armSequence, alarm: .made(alarm))
    }

    /// How an arming reaches the alarm; the first one to ask is told to make it.
    private mutating func claimAlarm() -> Arming.AlarmAccess {
        switch alarmState.alarm {
        case .made(let made): return .made(made)
        case .beingMade: return .beingMade
        case .none:
            alarmState.alarm = .beingMade
            return .make
        }
    }

    /// Nodes a wake plan looks at before settling for an earlier, still correct wake-up.
    static let planVisitLimit = 2_048

    /// When to wake: the deadline of the earliest pending ticker, moved later — up to the earliest end of
    /// any pending tolerance window — to the latest deadline that falls before that end, so that one
    /// wake-up serves the whole batch, each ticker at or after its deadline and none after its window.
    ///
    /// A ticker whose window overlaps no other is therefore woken for at its deadline, not at the end of
    /// its window. The scan visits the deadlines up to the window end (the batch the wake-up serves, so it
    /// costs about as much as serving it), pruning every subtree of the heap that starts after it. Past
    /// `planVisitLimit` nodes it stops with a wake-up no later than every window it has not seen could
    /// end: still never late, only possibly one wake-up more. Buried nodes are passed through (their
    /// subtrees may hold live deadlines) but plan nothing; the top must be a live node (`firstPending`).
    func wakePlan() -> (wake: Int64, windowEnd: Int64) {
        let topDeadline = heap[0].deadline
        var end = latest(at: 0)
        // Every window ends at or after its deadline, so nothing ends before the earliest deadline; and a
        // lone ticker is woken for at its deadline.
        guard end > topDeadline, heap.count > 1 else { return (topDeadline, end) }
        var pending: [Int] = [0]
        var seen: [Int64] = []
        var visited = 0
        while let position = pending.popLast() {
            let deadline = heap[position].deadline
            guard deadline <= end else { continue }
            visited += 1
            if visited > Self.planVisitLimit {
                // Unseen windows end no earlier than the deadlines that start their subtrees.
                end = min(end, pending.reduce(deadline) { min($0, heap[$1].deadline) })
                break
            }
            if heap[position].slot != DeadlineHeap.tombstone {
                end = min(end, latest(at: position))
                // Nothing ends before the earliest deadline: the plan cannot change any more.
                if end == topDeadline { break }
                seen.append(deadline)
            }
            let first = DeadlineHeap.arity * position + 1
            if first < heap.count {
                pending.append(contentsOf: first..<min(first + DeadlineHeap.arity, heap.count))
            }
        }
        let wake = seen.reduce(topDeadline) { $1 <= end ? max($0, $1) : $0 }
        return (wake, end)
    }

    /// The end of the tolerance window of the node at `position`.
    private func latest(at position: Int) -> Int64 {
        heapKey(ofSlot: heap[position].slot)?.latest ?? heap[position].deadline
    }
}
