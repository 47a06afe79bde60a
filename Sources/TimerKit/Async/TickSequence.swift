/// One tick of a ``TickSequence``: which deadline it stands for, on the sequence's clock.
public struct ClockTick<C: Clock>: Sendable where C.Duration == Duration {
    /// The number of the deadline this tick stands for (1 for the first).
    public let index: Int
    /// The deadline this tick stands for, on the sequence's clock.
    public let deadline: C.Instant
    /// When the tick was produced, on the sequence's clock (never before ``deadline``).
    public let timestamp: C.Instant
    /// Deadlines that passed since the previous tick without one of their own (0 when on time).
    public let skipped: Int
    /// Deadlines left after this one; `nil` for an unbounded schedule. The last tick has `remaining == 0`.
    public let remaining: Int?

    /// How late the tick was: `timestamp − deadline`.
    public var lateness: Duration { deadline.duration(to: timestamp) }

    /// Whether the sequence ends after this tick.
    public var isLast: Bool { remaining == 0 }
}

/// An asynchronous sequence of ticks on any `Clock`, drift-free, that skips missed deadlines instead of
/// bursting.
///
/// Deadline *k* is `start + firstDelay + (k − 1)·interval` on the clock, where `start` is the clock's
/// reading when iteration begins (`makeAsyncIterator()`, which `for await` calls). If the consumer is
/// late — it was busy, or the task was not scheduled — the next element stands for the latest deadline
/// that passed, with the ones it missed counted in ``ClockTick/skipped``: there is never a burst of
/// catch-up elements after a stall, and the schedule never slides.
///
/// The sequence ends after the schedule's last deadline, when the task is cancelled (promptly: the wait
/// is cancelled), or — for the owner-bound form — at the first deadline after the owner is gone.
///
/// **Virtual time.** With the system clocks (`ContinuousClock`, the default, and `SuspendingClock`), a
/// sequence created under `TimerKitTesting`'s virtual time waits on virtual time instead, so code that
/// uses the default clock is testable without change. Any other clock (for example a test clock of your
/// own) is always used as given.
public struct TickSequence<C: Clock>: AsyncSequence, Sendable where C.Duration == Duration {
    /// Each element is one tick on the sequence's clock.
    public typealias Element = ClockTick<C>

    let schedule: TickSchedule
    let clock: C
    let owner: WeakReference?
    let virtualBase: TimeBase?
    let fileID: String
    let line: Int
    /// The context whose engine serves the iterators' waits in real time: the shared async context (a
    /// test may pass one of its own, to watch that engine alone).
    let context: TickerContext

    /// Whether the sequence is bound to an owner that has gone away: it ends, by the same rule as every
    /// owner-bound item (`Lifetime.load`).
    var ownerIsGone: Bool {
        guard case .ownerGone = Lifetime.load(owner == nil ? .handle : .owner, owner: owner?.object) else {
            return false
        }
        return true
    }

    init(
        schedule: TickSchedule, clock: C, owner: AnyObject?, fileID: String, line: Int,
        context: TickerContext = EngineWait.context
    ) {
        if schedule.followsWallClock {
            Diagnostics.stop(
                "TimerKit: \(fileID):\(line): a tick sequence counts on a Clock, not on the wall clock; for the "
                    + "wall-clock schedule \(schedule), use Ticker.schedule(_:owner:) with an actor owner (its "
                    + "handler runs isolated to the actor) or on a context")
        }
        self.schedule = schedule
        self.clock = clock
        self.owner = owner.map(WeakReference.init)
        self.fileID = fileID
        self.line = line
        self.context = context
        let base = TimeBase.current
        if case .virtual = base.source, Self.isSystemClock {
            virtualBase = base
        } else {
            virtualBase = nil
        }
    }

    /// Whether `C` is one of the system clocks, which TimerKit's engine serves (and virtual time replaces).
    static var isSystemClock: Bool { C.self == ContinuousClock.self || C.self == SuspendingClock.self }

    /// The engine clock that counts like a system clock `C`: ``TickClock/continuous`` for `ContinuousClock`
    /// (both keep counting while the device sleeps), ``TickClock/uptime`` for `SuspendingClock` (both stop).
    static var engineClock: TickClock { C.self == ContinuousClock.self ? .continuous : .uptime }

    /// Starts the schedule: the first deadline is `firstDelay` after now.
    public func makeAsyncIterator() -> Iterator {
        Iterator(sequence: self)
    }

    /// Produces the ticks of a ``TickSequence``.
    ///
    /// Don't copy an iterator to iterate both copies: in real time, copies share one position (a tick one
    /// copy takes, the other doesn't get), while under virtual time each copy keeps its own. Make a new
    /// iterator (or a new sequence) instead.
    public struct Iterator: AsyncIteratorProtocol {
        /// With a system clock in real time: the waits and the tick math, as concrete code (see
        /// `RealTimeTicks`). First, so that its offset is known when compiling: those of fields after the
        /// clock's, whose size only `C`'s metadata knows, are read from the iterator's metadata.
        private let realTime: RealTimeClockTicks<C>?
        private let sequence: TickSequence
        private let reader: ClockReader<C>
        private let start: C.Instant
        private var nextIndex = 1
        private var finished: Bool
        /// Under virtual time, held from a wake-up that resumed this iterator until it waits again or goes
        /// away, so that an async advance lets the consumer run before moving time on.
        private var consumer: RunningConsumer?
        /// Under virtual time, the engine the waits use, kept while the iterator lives: an engine without
        /// live tickers would otherwise go (and be made again) between two ticks.
        private let engine: TickerEngine?

        init(sequence: TickSequence) {
            self.sequence = sequence
            reader = ClockReader(clock: sequence.clock, virtualBase: sequence.virtualBase)
            start = reader.now()
            finished = sequence.schedule.count == 0
            engine = sequence.virtualBase?.engine(for: EngineWait.context, clock: TickSequence.engineClock)
            realTime =
                sequence.virtualBase != nil
                ? nil
                : RealTimeTicks.make(
                    clock: C.self, start: start, schedule: sequence.schedule, owner: sequence.owner,
                    engineClock: TickSequence.engineClock, context: sequence.context, fileID: sequence.fileID,
                    line: sequence.line)
        }

        /// Waits for the next deadline and returns its tick; `nil` once the schedule ends, the task is
        /// cancelled, or the owner is gone.
        public mutating func next() async -> ClockTick<C>? {
            await next(isolation: nil)
        }

        /// Waits for the next deadline and returns its tick, running on `actor` (the caller's isolation,
        /// which `for await` passes): `nil` once the schedule ends, the task is cancelled, or the owner is
        /// gone.
        ///
        /// Under `TimerKitTesting`'s virtual time, a consumer isolated to an actor (an actor method, the
        /// main actor) is waited for by an async advance from the tick it resumed until its next
        /// suspension, even when it leaves this sequence meanwhile: a loop that breaks out and starts a new
        /// sequence gets into the new sequence's first wait before time moves on.
        public mutating func next(isolation actor: isolated (any Actor)?) async -> ClockTick<C>? {
            guard let realTime else { return await nextOnClock(isolation: actor) }
            // TimerKit's engine serves the system clocks: in real time, with one repeating ticker. The wait is
            // this function's own suspension (no nested async call), and the tick comes from synchronous
            // concrete code straight into the result.
            var deadline = realTime.deadlineToPark(after: nil)
            while let index = deadline {
                let waiter = realTime.waiter
                let outcome = await withTaskCancellationHandler {
                    await withUnsafeContinuation { waiter.park($0, for: index) }
                } onCancel: {
                    waiter.cancel()
                }
                deadline = realTime.deadlineToPark(after: outcome)
            }
            return realTime.tick()
        }

        /// `next()` on any other clock, and on the system clocks under virtual time.
        private mutating func nextOnClock(isolation actor: isolated (any Actor)?) async -> ClockTick<C>? {
            guard !finished else {
                // The sequence ends here, not left midway: nothing to warn about for a nonisolated task.
                if actor == nil { consumer?.settlesAtOnce() }
                consumer = nil
                return nil
            }
            let schedule = sequence.schedule
            let offset = schedule.offset(ofDeadline: nextIndex)
            let waited: Bool
            if let virtualBase = sequence.virtualBase {
                // Virtual time stands in for the system clocks in tests: one wait, a one-shot, per deadline.
                waited = await EngineWait.wait(
                    nanoseconds: reader.now().duration(to: start.advanced(by: .nanoseconds(offset)))
                        .saturatingNanoseconds,
                    tolerance: schedule.tolerance, clock: TickSequence.engineClock, on: virtualBase,
                    fileID: sequence.fileID, line: sequence.line, consumer: &consumer, isolation: actor)
                // Leaving the loop releases the token: on an actor, it counts until the actor moves on;
                // elsewhere, the clock remembers that this task left, to warn if it comes back late.
                if let actor {
                    consumer?.settles(after: actor)
                } else {
                    consumer?.settlesLeaving(fileID: sequence.fileID, line: sequence.line)
                }
            } else {
                waited = await reader.sleep(
                    until: start.advanced(by: .nanoseconds(offset)), tolerance: schedule.tolerance)
            }
            guard waited, !sequence.ownerIsGone else {
                finished = true
                return nil
            }
            let now = reader.now()
            let position = TickPosition(
                waitedFor: nextIndex, elapsed: start.duration(to: now).saturatingNanoseconds, schedule: schedule.times)
            let tickDeadline = start.advanced(by: .nanoseconds(position.deadline))
            let tick = ClockTick<C>(
                index: position.index,
                deadline: tickDeadline,
                // The engine's clock and the sequence's may differ by a hair: never report an early tick.
                timestamp: Swift.max(now, tickDeadline),
                skipped: position.skipped,
                remaining: position.remaining
            )
            nextIndex = position.index + 1
            if position.isFinal { finished = true }
            return tick
        }
    }
}

/// Which deadline a tick stands for, decided from the clock reading when its consumer resumes: the latest
/// deadline passed by then, never one before the deadline it waited for, with those in between counted as
/// skipped. Instants are nanoseconds after the sequence's start.
struct TickPosition: Equatable {
    let index: Int
    let deadline: Int64
    /// The reading the position was decided at.
    let elapsed: Int64
    let skipped: Int
    /// Deadlines left after this one; `nil` for an unbounded schedule.
    let remaining: Int?
    /// Whether the sequence ends with this tick.
    let isFinal: Bool

    /// The tick of a consumer that waited for deadline `waited` of `schedule` and resumed `elapsed`
    /// nanoseconds after the start.
    init(waitedFor waited: Int, elapsed: Int64, schedule: ScheduleTimes) {
        let index = Swift.max(waited, schedule.lastIndex(dueBy: elapsed))
        self.index = index
        deadline = schedule.offset(ofDeadline: index)
        self.elapsed = elapsed
        skipped = index - waited
        remaining = schedule.count.map { $0 - index }
        isFinal = schedule.isFinal(index)
    }
}

extension Ticker {
    /// An asynchronous sequence of ticks of `schedule` on `clock` (see ``TickSequence``); iterate it in
    /// the task that should do the work, on whatever actor it runs.
    ///
    /// ```swift
    /// for await tick in Ticker.ticks(.every(.seconds(1))) {
    ///     print("second", tick.index)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - schedule: when to produce elements.
    ///   - clock: the clock deadlines are measured on; default `ContinuousClock()`, which virtual time
    ///     replaces in tests (as it does `SuspendingClock`).
    ///   - owner: when given, the sequence ends at the first deadline after this object has gone away.
    ///     Held weakly and only tested for `nil` (on whichever thread iterates), hence `Sendable`.
    ///   - fileID: the creation site shown by diagnostics (filled in by the compiler).
    ///   - line: the creation site's line (filled in by the compiler).
    public static func ticks<C: Clock>(
        _ schedule: TickSchedule,
        clock: C = ContinuousClock(),
        owner: (any AnyObject & Sendable)? = nil,
        fileID: String = #fileID,
        line: Int = #line
    ) -> TickSequence<C> {
        TickSequence(schedule: schedule, clock: clock, owner: owner, fileID: fileID, line: line)
    }
}
