/// The consumer's side of a system-clock ``TickSequence`` iterator in real time, with no generic
/// parameter: the waits (served through a `TickWaiter`), the clock reading after each and the tick math
/// run as concrete code for both system clocks, so a tick costs no generic metadata lookup or witness call
/// beyond turning the result into the sequence's ``ClockTick``.
///
/// Clock readings: a wait that a running ticker serves reads no clock; each tick reads the sequence's
/// clock once, when the consumer resumes (its index, skipped count and timestamp come from that reading);
/// a wait that must start a ticker reads it once more, for the delay.
final class RealTimeTicks {
    /// One tick, with its instants as nanoseconds after the sequence's start.
    struct Element: Equatable {
        let index: Int
        let deadline: Int64
        /// Never before `deadline`.
        let timestamp: Int64
        let skipped: Int
        let remaining: Int?
    }

    private let waiter = TickWaiter()
    /// The schedule's numbers.
    private let schedule: ScheduleTimes
    private let start: SystemClockStart
    /// Whether the sequence has an owner, held weakly in `owner` (a separate flag, so that a sequence
    /// without one tests a `Bool` rather than an optional weak reference, whose tag is a runtime call).
    private let hasOwner: Bool
    private weak var owner: AnyObject?
    /// The engine the tickers run on, kept while the iterator lives: a ticker may stop before the next
    /// wait begins (a one-shot, a ticker stopped while the consumer was busy), and an engine without live
    /// tickers would otherwise go (and be made again) between two ticks.
    private let engine: TickerEngine
    private let clock: TickClock
    private let fileID: String
    private let line: Int
    /// The ticker serving the waits, owned by this iterator: it stops when the iterator goes away.
    private var ticker: Ticker?
    private var nextIndex = 1
    private var finished: Bool

    /// Iterates `schedule` from `start` on the system time base; the tickers count on `clock`, the engine
    /// clock that counts like the sequence's.
    init(
        schedule: TickSchedule, start: SystemClockStart, owner: WeakReference?, clock: TickClock, fileID: String,
        line: Int
    ) {
        self.schedule = schedule.times
        self.start = start
        hasOwner = owner != nil
        self.owner = owner?.object
        self.clock = clock
        self.fileID = fileID
        self.line = line
        engine = TimeBase.system.engine(for: EngineWait.context, clock: clock)
        finished = schedule.count == 0
    }

    /// Waits for the next deadline and returns its tick; `nil` once the schedule ends, the task is
    /// cancelled (promptly: the wait ends), the ticker stopped without reaching the deadline, or the owner
    /// is gone. Calls never overlap (the iterator's `next()` is `mutating`).
    ///
    /// While a repeating ticker serves the deadline, the wait parks at once, without reading a clock.
    /// Otherwise, if the deadline has passed the tick comes at once, else a new ticker starts for it.
    func next() async -> Element? {
        guard !finished else { return nil }
        let (waiter, index) = (waiter, nextIndex)
        // Whether a ticker may serve this wait: one that has not stopped (the machine says whether it does).
        var mayBeServed = ticker != nil
        waiting: while true {
            if !mayBeServed {
                // A wait that a ticker serves learns of a cancellation from the machine instead.
                guard !Task.isCancelled else { return finish() }
                // Both non-negative: no overflow.
                let delay = schedule.offset(ofDeadline: index) - start.elapsedNanoseconds()
                guard delay > 0 else { break waiting }
                ticker.take()?.cancel()
                ticker = waiter.start(
                    index: index, delay: delay, schedule: schedule, clock: clock, timeBase: .system, fileID: fileID,
                    line: line)
            }
            let outcome = await withTaskCancellationHandler {
                await withUnsafeContinuation { waiter.park($0, for: index) }
            } onCancel: {
                waiter.cancel()
            }
            switch outcome {
            case .reached:
                // A wake-up resumed this wait, or the deadline was found reached when parking.
                break waiting
            case .ended:
                return finish()
            case .unserved:
                mayBeServed = false
            }
        }
        if hasOwner, owner == nil { return finish() }
        let elapsed = start.elapsedNanoseconds()
        let tickIndex = Swift.max(index, schedule.lastIndex(dueBy: elapsed))
        let deadline = schedule.offset(ofDeadline: tickIndex)
        nextIndex = tickIndex + 1
        if schedule.isFinal(tickIndex) { finish() }
        return Element(
            index: tickIndex, deadline: deadline,
            // The engine's clock and the sequence's may differ by a hair: never report an early tick.
            timestamp: Swift.max(elapsed, deadline), skipped: tickIndex - index,
            remaining: schedule.count.map { $0 - tickIndex })
    }

    /// Ends the sequence: later calls return `nil`, and the ticker serving the waits stops.
    @discardableResult
    private func finish() -> Element? {
        finished = true
        ticker.take()?.cancel()
        return nil
    }
}

extension RealTimeTicks {
    /// Turns this iterator's results into the ticks of a sequence on clock type `C` whose schedule starts at
    /// `start`; `nil` unless `C` is `ContinuousClock` or `SuspendingClock`.
    ///
    /// The closure is made here, where the clock type is known, and handed back through a cast to the
    /// generic function type (a checked cast, which succeeds only when `C` is that clock): a tick built
    /// in generic code would look up `ClockTick<C>`'s generic metadata at run time, on every tick.
    static func tickMaker<C: Clock>(start: C.Instant, clock: C.Type) -> ((Element?) -> ClockTick<C>?)? {
        if let start = start as? ContinuousClock.Instant {
            let make: (Element?) -> ClockTick<ContinuousClock>? = { $0?.tick(from: start) }
            return make as? (Element?) -> ClockTick<C>?
        }
        if let start = start as? SuspendingClock.Instant {
            let make: (Element?) -> ClockTick<SuspendingClock>? = { $0?.tick(from: start) }
            return make as? (Element?) -> ClockTick<C>?
        }
        return nil
    }
}

extension RealTimeTicks.Element {
    /// This tick on a clock whose reading at the sequence's start was `start`.
    fileprivate func tick<C: Clock>(from start: C.Instant) -> ClockTick<C> {
        ClockTick(
            index: index, deadline: start.advanced(by: .nanoseconds(deadline)),
            timestamp: start.advanced(by: .nanoseconds(timestamp)), skipped: skipped, remaining: remaining)
    }
}

/// The start of a system-clock ``TickSequence``'s schedule, as the time since its clock's `systemEpoch`,
/// so that the real-time path reads that clock without generic dispatch. Held as a `Duration`, not as
/// the clock's instant: the instants are resilient types, whose size a struct holding them learns at run
/// time, on every access.
struct SystemClockStart: Sendable {
    private enum Kind: Sendable {
        case continuous
        case suspending
    }

    private let kind: Kind
    private let sinceEpoch: Duration

    /// `instant` as a start on `ContinuousClock` or `SuspendingClock`; `nil` for any other instant type.
    init?(_ instant: some InstantProtocol) {
        if let instant = instant as? ContinuousClock.Instant {
            kind = .continuous
            sinceEpoch = ContinuousClock().systemEpoch.duration(to: instant)
        } else if let instant = instant as? SuspendingClock.Instant {
            kind = .suspending
            sinceEpoch = SuspendingClock().systemEpoch.duration(to: instant)
        } else {
            return nil
        }
    }

    /// The nanoseconds from the start to the clock's reading now.
    func elapsedNanoseconds() -> Int64 {
        let now =
            switch kind {
            case .continuous: ContinuousClock().systemEpoch.duration(to: .now)
            case .suspending: SuspendingClock().systemEpoch.duration(to: .now)
            }
        return (now - sinceEpoch).saturatingNanoseconds
    }
}
