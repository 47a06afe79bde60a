/// The system alarm of one context on the system time base, shared by the context's engines (one per
/// clock): every engine of a context is woken from this one wake-up source, one after the other, so their
/// handlers never overlap — on a concurrent queue as on a precise thread — and a context still has one
/// system timer (a run loop's pair of `Foundation.Timer`s taking turns, a dispatch source or a thread)
/// whichever clocks its tickers use.
///
/// Each engine arms its own slot; the system alarm is armed for the earliest slot. When it fires, the
/// slots that are due are cleared and their engines woken in the order they registered.
final class SharedAlarm: AlarmHost {
    private struct Slot {
        let id: Int
        /// The engine's armed deadline (uptime nanoseconds; nil when it waits for nothing), from its newest
        /// arming.
        var armed = EngineArming()
        let wake: @Sendable () -> Void
    }

    private struct State {
        /// In registration order; a context has a slot per clock its tickers use (two at most, but for an
        /// engine that is replaced while the other keeps the shared alarm).
        var slots: [Slot] = []
        var nextID = 0
        /// What the system alarm is armed for, and a counter bumped at each arming (as in the engine).
        var armedAt: Int64?
        var sequence: UInt64 = 0

        /// What a fire at `now` does next, having woken the slots up to id `woken`: wake the next due
        /// slot in registration order (clearing its deadline), or, when none is left, re-arm.
        mutating func nextWake(after woken: Int, now: Int64) -> FireStep {
            guard
                let index = slots.firstIndex(where: { slot in
                    slot.id > woken && slot.armed.deadline.map { $0 <= now } == true
                })
            else { return .rearm(arming()) }
            slots[index].armed.deadline = nil
            return .wake(id: slots[index].id, slots[index].wake)
        }

        /// Arms the system alarm for the earliest slot, when that differs from what it is armed for.
        mutating func arming() -> (Int64, UInt64)? {
            guard let earliest = slots.lazy.compactMap(\.armed.deadline).min(), earliest != armedAt else { return nil }
            armedAt = earliest
            sequence &+= 1
            return (earliest, sequence)
        }
    }

    /// A fire's next step (see `State.nextWake`).
    private enum FireStep {
        case wake(id: Int, @Sendable () -> Void)
        case rearm((Int64, UInt64)?)
    }

    private let state = Locked<State>.make(State())
    private let alarm: any Alarm

    init(context: TickerContext) {
        let target = WeakSharedAlarm()
        // False once this shared alarm is gone: its deinit shuts the system alarm down.
        alarm = context.makeSystemAlarm {
            guard let shared = target.alarm else { return false }
            shared.fire()
            return true
        }
        target.alarm = self
    }

    deinit {
        alarm.shutDown()
    }

    /// A slot for one engine: the engine's alarm.
    func slot(wake: @escaping @Sendable () -> Void) -> any EngineAlarm {
        let id = state.withLock { state in
            state.nextID += 1
            state.slots.append(Slot(id: state.nextID, wake: wake))
            return state.nextID
        }
        return HostedAlarm(self, id: id)
    }

    func arm(_ id: Int, at deadline: Int64, sequence: UInt64) {
        apply(
            state.withLock { state in
                guard let index = state.slots.firstIndex(where: { $0.id == id }),
                    state.slots[index].armed.take(deadline, sequence: sequence)
                else { return nil }
                return state.arming()
            })
    }

    func remove(_ id: Int) {
        let removed = state.withLock { state -> Slot? in
            guard let index = state.slots.firstIndex(where: { $0.id == id }) else { return nil }
            return state.slots.remove(at: index)
        }
        // The engine's wake closure is released here, outside the lock.
        _ = removed
    }

    /// Called by the system alarm on the context: wakes every engine whose slot is due, one at a time, in
    /// registration order, then re-arms for the earliest slot. Each slot is woken at most once per fire:
    /// an engine that re-arms for "now" (to yield the context after a flood of deliveries) waits for the
    /// next fire, on the context's run loop or queue.
    private func fire() {
        let now = TimeBase.Source.system.now()
        // One lock per woken engine, and one more to re-arm; the first also marks the alarm as not armed.
        var step = state.withLock { state in
            state.armedAt = nil
            return state.nextWake(after: 0, now: now)
        }
        while case .wake(let id, let wake) = step {
            wake()
            step = state.withLock { $0.nextWake(after: id, now: now) }
        }
        if case .rearm(let arming) = step { apply(arming) }
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
}

/// The system alarm's way back to its shared alarm, so that the system alarm does not keep it alive.
private final class WeakSharedAlarm: @unchecked Sendable {
    // Invariant: `alarm` is written once, in SharedAlarm.init, before the system alarm can fire (the
    // shared alarm is not yet published to any other thread); afterwards it is only read.
    weak var alarm: SharedAlarm?
}
