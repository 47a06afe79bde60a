/// The system alarm of one context on the system time base, shared by the context's engines (one per
/// clock): every engine of a context is woken from this one wake-up source, one after the other, so their
/// handlers never overlap — on a concurrent queue as on a precise thread — and a context still has one
/// system timer (one `Foundation.Timer`, dispatch source or thread) whichever clocks its tickers use.
///
/// Each engine arms its own slot; the system alarm is armed for the earliest slot. When it fires, the
/// slots that are due are cleared and their engines woken in the order they registered.
final class SharedAlarm: Sendable {
    private struct State {
        /// Each engine's armed deadline (uptime nanoseconds), absent when it waits for nothing.
        var deadlines: [Int: Int64] = [:]
        var wakes: [Int: @Sendable () -> Void] = [:]
        var nextID = 0
        /// What the system alarm is armed for, and a counter bumped at each arming (as in the engine).
        var armedAt: Int64?
        var sequence: UInt64 = 0

        /// Arms the system alarm for the earliest slot, when that differs from what it is armed for.
        mutating func arming() -> (Int64, UInt64)? {
            guard let earliest = deadlines.values.min(), earliest != armedAt else { return nil }
            armedAt = earliest
            sequence &+= 1
            return (earliest, sequence)
        }
    }

    private let state = Locked<State>.make(State())
    private let alarm: any Alarm

    init(context: TickerContext) {
        let target = WeakSharedAlarm()
        alarm = context.makeSystemAlarm { target.alarm?.fire() }
        target.alarm = self
    }

    deinit {
        alarm.shutDown()
    }

    /// A slot for one engine: the engine's alarm.
    func slot(wake: @escaping @Sendable () -> Void) -> any Alarm {
        let id = state.withLock { state in
            state.nextID += 1
            state.wakes[state.nextID] = wake
            return state.nextID
        }
        return Slot(shared: self, id: id)
    }

    fileprivate func arm(_ id: Int, at deadline: Int64) {
        apply(
            state.withLock { state in
                guard state.wakes[id] != nil else { return nil }
                state.deadlines[id] = deadline
                return state.arming()
            })
    }

    fileprivate func remove(_ id: Int) {
        let wake = state.withLock { state in
            state.deadlines[id] = nil
            return state.wakes.removeValue(forKey: id)
        }
        // The engine's wake closure is released here, outside the lock.
        _ = wake
    }

    /// Called by the system alarm on the context: wakes every engine whose slot is due, in slot order.
    private func fire() {
        let due = state.withLock { state -> [@Sendable () -> Void] in
            state.armedAt = nil
            let now = TimeBase.Source.system.now()
            let ids = state.deadlines.filter { $0.value <= now }.keys.sorted()
            for id in ids { state.deadlines[id] = nil }
            return ids.compactMap { state.wakes[$0] }
        }
        due.forEach { $0() }
        apply(state.withLock { $0.arming() })
    }

    /// Arms the system alarm outside the lock, the newest arming landing last (see `Alarm.apply`).
    private func apply(_ arming: (Int64, UInt64)?) {
        alarm.apply(arming) { sequence in
            state.withLock { state -> (Int64, UInt64)? in
                guard state.sequence != sequence, let armedAt = state.armedAt else { return nil }
                return (armedAt, state.sequence)
            }
        }
    }

    /// One engine's view of the shared alarm.
    private final class Slot: Alarm {
        let shared: SharedAlarm
        let id: Int

        init(shared: SharedAlarm, id: Int) {
            self.shared = shared
            self.id = id
        }

        func arm(at deadline: Int64) { shared.arm(id, at: deadline) }
        func shutDown() { shared.remove(id) }
    }
}

/// The system alarm's way back to its shared alarm, so that the system alarm does not keep it alive.
private final class WeakSharedAlarm: @unchecked Sendable {
    // Invariant: `alarm` is written once, in SharedAlarm.init, before the system alarm can fire (the
    // shared alarm is not yet published to any other thread); afterwards it is only read.
    weak var alarm: SharedAlarm?
}
