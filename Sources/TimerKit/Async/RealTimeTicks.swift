/// The consumer's side of a system-clock ``TickSequence`` iterator in real time: the waits (served
/// through a `TickWaiter`), the clock reading after each and the tick math, as concrete code. A subclass per
/// system clock turns the results into that clock's ``ClockTick``s, and the iterator reaches it through its
/// generic superclass `RealTimeClockTicks<C>`: a tick built in the iterator's generic code would look up
/// `ClockTick<C>`'s generic metadata at run time, on every tick.
///
/// Its steps are synchronous (`deadlineToPark(after:)`, `tick()`): the iterator's `next()` parks on
/// `waiter` itself, in between. An async step here would be one more async call per tick, each costing
/// the task a frame from its allocator, two executor checks and, for a generic result, more allocations.
///
/// Clock readings: a wait that a running ticker serves reads no clock; each tick reads the sequence's
/// clock once, when the consumer resumes (its index, skipped count and timestamp come from that reading);
/// a wait that must start a ticker reads it once more, for the delay.
class RealTimeTicks {
    // Declared in the order a tick reads them (stored properties are laid out in declaration order), so
    // that a tick touches as few of the object's cache lines as it can: 1,000 sequences' objects do not
    // stay in cache between ticks.

    /// Where the consumer parks; its cancellation handler cancels the parked wait.
    final let waiter = TickWaiter()
    /// The ticker serving the waits, on `engine`, owned by this iterator without a ``Ticker`` handle: each
    /// one is stopped and its record freed by one engine call (`stop()`), when the iterator starts another,
    /// ends or goes away.
    private var ticker: TickerID?
    private var nextIndex = 1
    private var finished: Bool
    /// `.owner` when the sequence has an owner, held weakly in `owner`, else `.handle` (so that a sequence
    /// without one compares a byte rather than loading an optional weak reference, a runtime call).
    private let binding: Lifetime.Binding
    fileprivate let start: SystemClockStart
    /// The schedule's numbers.
    private let schedule: ScheduleTimes
    private weak var owner: AnyObject?
    /// The engine the tickers run on, kept while the iterator lives: a ticker may stop before the next
    /// wait begins (a one-shot, a ticker stopped while the consumer was busy), and an engine without live
    /// tickers would otherwise go (and be made again) between two ticks.
    private let engine: TickerEngine
    private let clock: TickClock
    private let fileID: String
    private let line: Int

    /// Iterates `schedule` from `start` on the system time base; the tickers run on `context` and count on
    /// `clock`, the engine clock that counts like the sequence's.
    fileprivate init(
        schedule: TickSchedule, start: SystemClockStart, owner: WeakReference?, clock: TickClock,
        context: TickerContext, fileID: String, line: Int
    ) {
        self.schedule = schedule.times
        self.start = start
        binding = owner == nil ? .handle : .owner
        self.owner = owner?.object
        self.clock = clock
        self.fileID = fileID
        self.line = line
        engine = TimeBase.system.engine(for: context, clock: clock)
        finished = schedule.count == 0
    }

    /// The deadline the consumer parks for next, or `nil` when it parks no more and takes its tick from
    /// ``tick()`` (the deadline was reached, or the sequence ended). `outcome` is how its previous wait
    /// ended; `nil` at the start of a `next()`. Calls never overlap (the iterator's `next()` is `mutating`).
    ///
    /// While a repeating ticker serves the deadline, the consumer parks at once, without reading a clock.
    /// Otherwise, if the deadline has passed the tick comes at once, else a new ticker starts for it.
    final func deadlineToPark(after outcome: TickWaitOutcome?) -> Int? {
        guard !finished else { return nil }
        switch outcome {
        case nil:
            // A ticker that has not stopped may serve the wait (the machine says whether it does); a wait
            // that a ticker serves learns of a cancellation from the machine.
            if ticker != nil { return nextIndex }
        case .reached?:
            // A wake-up resumed the wait, or the deadline was found reached when parking.
            return nil
        case .ended?:
            finish()
            return nil
        case .unserved?:
            break
        }
        guard !Task.isCancelled else {
            finish()
            return nil
        }
        // Both non-negative: no overflow.
        let delay = schedule.offset(ofDeadline: nextIndex) - start.elapsedNanoseconds()
        guard delay > 0 else { return nil }
        stopTicker()
        ticker = waiter.start(
            index: nextIndex, delay: delay, schedule: schedule, clock: clock, timeBase: .system, engine: engine,
            fileID: fileID, line: line)
        return nextIndex
    }

    /// The tick of the deadline the consumer waited for, decided from the clock read now; `nil` once the
    /// sequence has ended (the schedule ran out, the task was cancelled, the ticker stopped without reaching
    /// the deadline) or the owner is gone.
    final func position() -> TickPosition? {
        guard !finished else { return nil }
        if case .ownerGone = Lifetime.load(binding, owner: owner) {
            finish()
            return nil
        }
        let index = nextIndex
        let position = TickPosition(waitedFor: index, elapsed: start.elapsedNanoseconds(), schedule: schedule)
        nextIndex = position.index + 1
        if position.isFinal { finish() }
        return position
    }

    /// Ends the sequence: later calls return `nil`, and the ticker serving the waits stops.
    private final func finish() {
        finished = true
        stopTicker()
    }

    /// Stops the ticker serving the waits, if any, and frees its record: one engine call. (Through a
    /// ``Ticker`` handle it took two, `cancel()` and the handle's release, each under the engine's lock,
    /// which every sequence on the shared async context takes: cancelling many waiting sequences at once
    /// queued their tasks on that lock.)
    private final func stopTicker() {
        if let ticker = ticker.take() { engine.cancelAndRelease(ticker) }
    }

    deinit { stopTicker() }
}

extension RealTimeTicks {
    /// The real-time iterator of a sequence on clock type `C` whose schedule starts at `start` (see
    /// ``TickSequence/Iterator``), its tickers on `context`; `nil` unless `C` is `ContinuousClock` or
    /// `SuspendingClock`.
    static func make<C: Clock>(
        clock: C.Type, start: C.Instant, schedule: TickSchedule, owner: WeakReference?, engineClock: TickClock,
        context: TickerContext, fileID: String, line: Int
    ) -> RealTimeClockTicks<C>? {
        let ticks: RealTimeTicks
        if C.self == ContinuousClock.self, let start = start as? ContinuousClock.Instant {
            ticks = ContinuousClockTicks(
                schedule: schedule, start: SystemClockStart(start), owner: owner, clock: engineClock, context: context,
                fileID: fileID, line: line)
        } else if C.self == SuspendingClock.self, let start = start as? SuspendingClock.Instant {
            ticks = SuspendingClockTicks(
                schedule: schedule, start: SystemClockStart(start), owner: owner, clock: engineClock, context: context,
                fileID: fileID, line: line)
        } else {
            return nil
        }
        // A checked cast to a superclass, which succeeds because the subclass's clock is `C`.
        return ticks as? RealTimeClockTicks<C>
    }
}

/// The ticks of a system-clock ``TickSequence`` iterator in real time, on the sequence's clock `C`: the
/// type the generic iterator holds. Each system clock has a subclass that implements `tick()` as concrete
/// code; this class is never instantiated itself.
class RealTimeClockTicks<C: Clock>: RealTimeTicks where C.Duration == Duration {
    /// The tick of the deadline the consumer waited for (see `position()`), on the sequence's clock; `nil`
    /// once the sequence has ended or the owner is gone. Synchronous, so that the generic iterator's
    /// `next()`, which suspends itself, receives the tick in its own result without a nested async call.
    func tick() -> ClockTick<C>? {
        preconditionFailure("TimerKit internal: only a system clock's subclass of \(Self.self) is made")
    }
}

private final class ContinuousClockTicks: RealTimeClockTicks<ContinuousClock> {
    override func tick() -> ClockTick<ContinuousClock>? {
        position()?.tick(from: SystemClockStart.continuousReference, start: start.sinceReference)
    }
}

private final class SuspendingClockTicks: RealTimeClockTicks<SuspendingClock> {
    override func tick() -> ClockTick<SuspendingClock>? {
        position()?.tick(from: SystemClockStart.suspendingReference, start: start.sinceReference)
    }
}

extension TickPosition {
    /// This tick on a clock whose reading at the sequence's start was `start` after `reference`, its
    /// timestamp the reading the position was decided at. (Two instant additions: each is a call into
    /// the standard library, whose clock instants are resilient types.)
    fileprivate func tick<C: Clock>(from reference: C.Instant, start: Duration) -> ClockTick<C> {
        ClockTick(
            index: index, deadline: reference.advanced(by: start + .nanoseconds(deadline)),
            // The engine's clock and the sequence's may differ by a hair: never report an early tick.
            timestamp: reference.advanced(by: start + .nanoseconds(Swift.max(elapsed, deadline))), skipped: skipped,
            remaining: remaining)
    }
}

/// The start of a system-clock ``TickSequence``'s schedule, as the time since a reference instant of its
/// clock read once per process, so that the real-time path reads that clock without generic dispatch.
/// (The clocks' `systemEpoch` would do, but needs Swift 6.3, and the package builds with 6.1.) Held as a
/// `Duration`, not as the clock's instant: the instants are resilient types, whose size a struct holding
/// them learns at run time, on every access.
struct SystemClockStart: Sendable {
    private enum Kind: Sendable {
        case continuous
        case suspending
    }

    private let kind: Kind
    /// The start's distance from its clock's reference instant.
    let sinceReference: Duration

    /// `ContinuousClock`'s reference instant: its reading when first needed.
    static let continuousReference = ContinuousClock.now
    /// `SuspendingClock`'s reference instant: its reading when first needed.
    static let suspendingReference = SuspendingClock.now

    /// A start on `ContinuousClock`.
    init(_ instant: ContinuousClock.Instant) {
        kind = .continuous
        sinceReference = Self.continuousReference.duration(to: instant)
    }

    /// A start on `SuspendingClock`.
    init(_ instant: SuspendingClock.Instant) {
        kind = .suspending
        sinceReference = Self.suspendingReference.duration(to: instant)
    }

    /// The nanoseconds from the start to the clock's reading now.
    func elapsedNanoseconds() -> Int64 {
        let now =
            switch kind {
            case .continuous: Self.continuousReference.duration(to: .now)
            case .suspending: Self.suspendingReference.duration(to: .now)
            }
        return (now - sinceReference).saturatingNanoseconds
    }
}
