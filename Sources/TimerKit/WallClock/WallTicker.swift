import Foundation

/// A wall-clock ticker's occurrences: the engine keeps it as the ticker's handler, around the handler
/// the ticker was made with, and it decides each delivery from the wall clock.
///
/// The engine knows nothing of calendars. It waits for one deadline at a time on the continuous clock —
/// the continuous instant the wall clock was expected to reach the next occurrence at — and, when it is
/// reached, delivers the tick here and *parks* the ticker (running, waiting for no deadline). Here, off
/// the engine's lock, the wall clock is read and the occurrence decided: delivered (counting the
/// occurrences missed since the last delivery), skipped (by the missed-occurrence policy), or not yet due
/// (the wall clock was slowed or set back: then nothing is delivered); the next occurrence is computed
/// once, and the engine is retargeted to it. Starting, restarting or resuming the ticker, a clock set and
/// a zone change retarget it the same way (`recompute`).
///
/// Every decision takes this ticker's lock, and retargets the engine under it, so two decisions never
/// interleave; the engine's lock is taken inside it, never the reverse, and the engine's arming is applied
/// after both are released. No user code runs under either.
final class WallTicker: Sendable {
    let schedule: WallSchedule
    /// The handler the ticker was made with, called after a delivery is decided.
    let inner: TickHandler
    private let state: Locked<State>

    /// What has been delivered, in wall-clock nanoseconds since 1970.
    struct State {
        /// Occurrences up to here are never delivered: the last one delivered, or where the schedule was
        /// (re)started or resumed.
        var floor: Int64
        /// The occurrence delivered last while the wall clock was set back before it: it stays delivered
        /// (an occurrence is never delivered twice) until the schedule passes it.
        var excluded: Int64?
        /// Occurrences counted since the start (delivered or missed): the ticks' `index`.
        var index = 0
        /// Occurrences skipped by the policy since the last delivery, for the next tick's `skipped`.
        var pendingSkipped = 0
    }

    /// Why deadlines are computed again.
    enum Reason {
        /// `start()` or `restart()`: occurrences count from now, from 1.
        case started
        /// `resume()`: occurrences that fell while paused are not delivered.
        case resumed
        /// The wall clock was set, or the zone changed.
        case clockChanged
    }

    /// A ticker made at wall-clock time `wall`: its first occurrence is the first after `wall`.
    init(schedule: WallSchedule, inner: TickHandler, createdAt wall: Int64) {
        self.schedule = schedule
        self.inner = inner
        state = .make(State(floor: wall))
    }

    /// The delay from `wall` to the first occurrence, for the ticker's first deadline.
    func firstDelay(from wall: Int64, on source: TimeBase.Source) -> Int64 {
        let zone = schedule.zone(on: source)
        guard let first = schedule.next(after: wall, in: zone) else { return .max }
        return max(0, first.subtractingSaturating(wall))
    }

    /// The engine reached the ticker's deadline: decide the occurrence, retarget, then call the handler.
    func fired(_ tick: Tick, owner: AnyObject?, engine: TickerEngine, id: TickerID) {
        if tick.isManual {
            // Out of schedule: the schedule stays as it is (the engine did not park the ticker).
            let index = state.withLock { $0.index }
            return inner(
                Tick(
                    index: index, deadline: tick.deadline, timestamp: tick.timestamp, skipped: 0, remaining: nil,
                    fireCount: tick.fireCount, isManual: true),
                owner: owner, engine: engine, id: id)
        }
        let source = engine.clock.source
        let (delivery, arming) = state.withLock { state -> (Tick?, Arming?) in
            let wall = source.wallNanoseconds()
            let now = source.now(.continuous)
            let zone = schedule.zone(on: source)
            guard let due = schedule.due(after: state.floor, through: wall, excluding: state.excluded, in: zone)
            else {
                // Not due by the wall clock (it runs slow, or was set back): wait for the occurrence.
                return (nil, retarget(engine, id, &state, wall: wall, now: now, zone: zone, retract: true))
            }
            state.floor = due.latest
            state.excluded = nil
            state.index = state.index.addingSaturating(due.count)
            let lateness = wall - due.latest
            if let grace = schedule.missed.graceNanoseconds, lateness > grace {
                state.pendingSkipped = state.pendingSkipped.addingSaturating(due.count)
                return (nil, retarget(engine, id, &state, wall: wall, now: now, zone: zone, retract: true))
            }
            let skipped = state.pendingSkipped.addingSaturating(due.count - 1)
            state.pendingSkipped = 0
            let tick = Tick(
                index: state.index,
                deadline: TickInstant(nanoseconds: tick.timestamp.nanoseconds.subtractingSaturating(lateness)),
                timestamp: tick.timestamp, skipped: skipped, remaining: nil, fireCount: tick.fireCount,
                isManual: false,
                date: Date(timeIntervalSince1970: Double(due.latest) / 1e9))
            return (tick, retarget(engine, id, &state, wall: wall, now: now, zone: zone, retract: false))
        }
        engine.apply(arming)
        if let delivery { inner(delivery, owner: owner, engine: engine, id: id) }
    }

    /// Computes the next deadline again (see ``Reason``) and retargets the engine to it.
    func recompute(_ reason: Reason, engine: TickerEngine, id: TickerID) {
        let source = engine.clock.source
        let arming = state.withLock { state -> Arming? in
            let wall = source.wallNanoseconds()
            let now = source.now(.continuous)
            switch reason {
            case .started:
                state = State(floor: wall)
            case .resumed:
                state.floor = max(state.floor, wall)
            case .clockChanged:
                if wall < state.floor {
                    // Set back before the last delivery: the schedule follows the wall clock again, but the
                    // occurrence delivered last is not delivered a second time.
                    state.excluded = state.floor
                    state.floor = wall
                }
            }
            return retarget(engine, id, &state, wall: wall, now: now, zone: schedule.zone(on: source), retract: false)
        }
        engine.apply(arming)
    }

    /// Retargets the engine to the next occurrence after the floor (at once when it has passed by the
    /// wall clock: the delivery then applies the missed-occurrence policy). `retract`: the engine counted
    /// a delivery that was not made.
    private func retarget(
        _ engine: TickerEngine, _ id: TickerID, _ state: inout State, wall: Int64, now: Int64, zone: TimeZone,
        retract: Bool
    ) -> Arming? {
        var next = schedule.next(after: state.floor, in: zone)
        if let found = next, found == state.excluded { next = schedule.next(after: found, in: zone) }
        let deadline = next.map { now.addingSaturating(max(0, $0.subtractingSaturating(wall))) } ?? .max
        return engine.retarget(id, deadline: deadline, retract: retract)
    }
}
