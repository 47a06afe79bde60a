/// Virtual time: a monotonic reading that only moves when a test advances it, and alarms that fire
/// synchronously, in deadline order, on the thread that advances.
///
/// Every context's engine arms a virtual alarm instead of its real driver, so code written against the
/// normal API runs unchanged. Advance from one thread at a time: alarms run on the advancing thread, so
/// two threads advancing at once could run one context's handlers concurrently. Ties between contexts whose alarms are due at the same instant are broken
/// by the order in which the contexts were first used.
final class VirtualClock: Sendable {
    private struct Armed {
        var deadline: Int64
        let order: Int
        let wake: @Sendable () -> Void
    }

    private struct State {
        var now: Int64 = 0
        var nextAlarmID = 0
        var armed: [Int: Armed] = [:]
        var wakes: [Int: @Sendable () -> Void] = [:]
    }

    private let state = Locked<State>.make(State())

    init(start: Int64 = 1_000_000_000) {
        state.withLock { $0.now = start }
    }

    func now() -> Int64 { state.withLock { $0.now } }

    func makeAlarm(wake: @escaping @Sendable () -> Void) -> any Alarm {
        let id = state.withLock { state in
            state.nextAlarmID += 1
            state.wakes[state.nextAlarmID] = wake
            return state.nextAlarmID
        }
        return VirtualAlarm(clock: self, id: id)
    }

    fileprivate func arm(_ id: Int, at deadline: Int64) {
        state.withLock { state in
            guard let wake = state.wakes[id] else { return }
            state.armed[id] = Armed(deadline: deadline, order: id, wake: wake)
        }
    }

    fileprivate func remove(_ id: Int) {
        _ = state.withLock { state in
            state.armed[id] = nil
            return state.wakes.removeValue(forKey: id)
        }
    }

    /// The earliest armed deadline, if any.
    func nextDeadline() -> Int64? {
        state.withLock { $0.armed.values.map(\.deadline).min() }
    }

    /// Moves time forward by `duration`, firing every alarm that falls due on the way, in order; each
    /// alarm runs at its own deadline (time jumps there first). Returns the number of alarms fired.
    @discardableResult
    func advance(by duration: Duration) -> Int {
        let target = state.withLock { $0.now }.addingSaturating(max(0, duration.saturatingNanoseconds))
        return run(until: target)
    }

    /// Fires every alarm due by `target` in deadline order, then sets the time to `target`.
    @discardableResult
    func run(until target: Int64) -> Int {
        var fired = 0
        var firedAtThisInstant = 0
        var lastInstant = Int64.min
        while true {
            let wake: (@Sendable () -> Void)? = state.withLock { state in
                let due = state.armed.filter { $0.value.deadline <= target }
                guard
                    let next = due.min(by: { ($0.value.deadline, $0.value.order) < ($1.value.deadline, $1.value.order) }
                    )
                else {
                    state.now = max(state.now, target)
                    return nil
                }
                state.now = max(state.now, next.value.deadline)
                state.armed[next.key] = nil
                return next.value.wake
            }
            guard let wake else { return fired }
            let instant = now()
            if instant == lastInstant {
                firedAtThisInstant += 1
                precondition(
                    firedAtThisInstant < 1_000_000,
                    "TimerKit virtual time: a million wake-ups at one instant; a handler keeps re-arming without letting time move"
                )
            } else {
                lastInstant = instant
                firedAtThisInstant = 0
            }
            wake()
            fired += 1
        }
    }
}

final class VirtualAlarm: Alarm {
    private let clock: VirtualClock
    private let id: Int

    init(clock: VirtualClock, id: Int) {
        self.clock = clock
        self.id = id
    }

    func arm(at deadline: Int64) { clock.arm(id, at: deadline) }
    func shutDown() { clock.remove(id) }
}
