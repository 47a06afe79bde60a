/// The state of one system-clock ``TickSequence`` iterator's waits on TimerKit's engine, as a value whose
/// events return what the caller must do after unlocking (see `TickWaiter`).
///
/// Deadline indices are the sequence's (1 for its first deadline). A ticker started for index `base` has
/// its engine deadline *j* at sequence index `base + j − 1`, so a fire says which sequence deadline the
/// engine reached without reading a clock.
struct TickWaiterMachine<Continuation> {
    /// The consumer's side.
    enum Consumer {
        /// Not waiting: it works on a tick, or has not asked for the next one yet.
        case away
        /// Suspended until the engine reaches deadline `awaiting`.
        case parked(Continuation, awaiting: Int)
        /// Its task was cancelled: every wait ends at once.
        case cancelled
    }

    /// The engine's side: the ticker that serves the waits, if one runs.
    enum Serving {
        /// No ticker runs (none was started, it stopped, or it finished).
        case idle
        /// Ticker number `generation` runs; its first deadline is index `base` and its last `last`.
        case ticker(generation: UInt64, base: Int, last: Int)
    }

    /// How a park attempt ended.
    enum Parking {
        /// Parked: the continuation is resumed later, by a fire, a cancellation or the ticker's end.
        case parked
        /// Not parked: resume the continuation now with this outcome.
        case resumeNow(Outcome)
    }

    /// How a wait ends.
    typealias Outcome = TickWaitOutcome

    /// What a fire asks of the engine's thread.
    enum FireAction {
        case none
        /// Resume the parked consumer: its deadline was reached.
        case resume(Continuation)
        /// Nobody waits: stop the ticker, so that a busy or blocked consumer costs no further wake-ups.
        case stop
    }

    private(set) var consumer = Consumer.away
    private(set) var serving = Serving.idle
    /// The latest sequence deadline a fire reported.
    private(set) var reached = 0
    private var nextGeneration: UInt64 = 0

    /// Starts serving the waits with a new ticker whose first deadline is `base`, with `count` deadlines
    /// (`nil`: unbounded); returns its number, which its fires and handler release carry.
    mutating func startServing(base: Int, count: Int?) -> UInt64 {
        nextGeneration &+= 1
        let last = count.map { base.addingSaturating($0 - 1) } ?? .max
        serving = .ticker(generation: nextGeneration, base: base, last: last)
        return nextGeneration
    }

    /// The consumer suspends for deadline `index`, unless its task was cancelled, the deadline was already
    /// reached, or no ticker serves it. A ticker serves `index` if its last deadline is at or after it (a
    /// ticker reaches its last deadline even when late, so a parked consumer is always resumed) and `index`
    /// is at most one past the ticker's next deadline (the consumer may take that one on its own clock
    /// reading, just before the engine's wake-up). A consumer further ahead read a clock that ran ahead of
    /// the ticker's (the device slept, or the two count differently): the ticker would reach its deadline
    /// only interval by interval, so it is not served and starts a new ticker on the grid instead.
    mutating func park(_ continuation: Continuation, for index: Int) -> Parking {
        switch consumer {
        case .cancelled: return .resumeNow(.ended)
        case .parked: preconditionFailure("TimerKit internal: two waits on one tick-sequence iterator")
        case .away: break
        }
        if reached >= index { return .resumeNow(.reached) }
        guard case .ticker(_, let base, let last) = serving, last >= index,
            index <= max(reached.addingSaturating(1), base).addingSaturating(1)
        else { return .resumeNow(.unserved) }
        consumer = .parked(continuation, awaiting: index)
        return .parked
    }

    /// Ticker `generation` delivered its engine deadline `engineIndex` (`isLast`: its final one).
    mutating func fired(generation: UInt64, engineIndex: Int, isLast: Bool) -> FireAction {
        guard case .ticker(generation, let base, _) = serving else { return .none }
        reached = max(reached, base.addingSaturating(engineIndex - 1))
        if isLast { serving = .idle }
        switch consumer {
        case .parked(let continuation, let awaiting):
            // A fire for an earlier deadline (the consumer took that tick on its own clock reading,
            // before the engine's wake-up) leaves it parked.
            guard awaiting <= reached else { return .none }
            consumer = .away
            return .resume(continuation)
        case .away, .cancelled:
            // Nobody waits (a cancelled consumer never will): stop the ticker, so that a busy or blocked
            // consumer, cancelled or not, costs no further wake-ups.
            if isLast { return .none }
            serving = .idle
            return .stop
        }
    }

    /// The handler of ticker `generation` was released: the ticker stopped. A consumer still parked on
    /// it is resumed with `.ended` (the ticker was stopped from outside, as when every ticker of its
    /// context is cancelled; the waiter's own stops happen with nobody parked on the ticker).
    mutating func handlerReleased(generation: UInt64) -> Continuation? {
        guard case .ticker(generation, _, _) = serving else { return nil }
        serving = .idle
        guard case .parked(let continuation, _) = consumer else { return nil }
        consumer = .away
        return continuation
    }

    /// The consumer's task was cancelled: a parked consumer is returned to resume with `.ended`.
    mutating func cancel() -> Continuation? {
        defer { consumer = .cancelled }
        guard case .parked(let continuation, _) = consumer else { return nil }
        return continuation
    }
}

/// How a wait of a ``TickWaiterMachine`` ends.
enum TickWaitOutcome: Equatable, Sendable {
    /// The deadline was reached.
    case reached
    /// The task was cancelled, or the ticker stopped without reaching the deadline: the sequence ends.
    case ended
    /// No ticker serves the deadline (none was started, or it stopped or finished): start one, on the same
    /// grid, and park again.
    case unserved
}
