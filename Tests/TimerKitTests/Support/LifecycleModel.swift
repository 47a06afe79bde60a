import Foundation

@testable import TimerKit

// The reference model of the ticker lifecycle, and the random programs it is checked against.
//
// The model is a plain simulation of the contract (TheContract.md, Ticker.swift): arrays, linear scans,
// no heap and no locks. Deadline k is `origin + firstDelay + (k − 1)·interval`; pausing keeps the time
// left; `start()` starts only an idle ticker and `resume()` resumes only a paused one; `restart()` counts the
// schedule from now again in every live state; a late delivery stands for the latest passed deadline and
// counts the others as skipped; `fire()`
// queues manual deliveries that leave the schedule alone (and is the one tick of an unfired one-shot);
// a bound ticker stops without a call when its owner is gone; releasing a handle cancels a handle-owned
// ticker and a bound one that is not running. Under virtual time every delivery is at its deadline
// unless a handler stalls its context: then the context's later deliveries happen when the stall ends.

/// How a model ticker is bound.
enum ModelBinding: String, CaseIterable, Sendable {
    /// Handle-owned: `Ticker.schedule(_:on:_:)`, the test keeps the handle.
    case handle
    /// Owner-bound, the test keeps the handle.
    case owner
    /// Owner-bound, the owner keeps its own handle (`owner.ticker = …`), the test keeps the owner only.
    case ownerHoldsHandle
    /// Target–action with an unbound method reference, the test keeps the handle.
    case target

    var isBound: Bool { self != .handle }
}

/// What a `create` operation makes.
struct ModelSpec: Hashable, Sendable, CustomStringConvertible {
    var context: Int
    var intervalMilliseconds: Int
    /// The first deadline's delay; `nil` means one interval.
    var firstDelayMilliseconds: Int?
    /// `nil` repeats for ever; 1 is a one-shot (`.after`).
    var count: Int?
    var startsImmediately: Bool
    var binding: ModelBinding
    /// A stalling one-shot: its handler moves virtual time on by this much, blocking its context.
    var stallMilliseconds: Int?
    /// A handler that cancels its own ticker (through its handle, if one is left) in its call with this
    /// fire count.
    var cancelsItselfAt: Int? = nil

    var firstDelay: Int64 { Int64(firstDelayMilliseconds ?? intervalMilliseconds) * 1_000_000 }
    var interval: Int64 { Int64(intervalMilliseconds) * 1_000_000 }

    var schedule: TickSchedule {
        if count == 1 { return .after(.nanoseconds(firstDelay)) }
        return .every(
            .milliseconds(intervalMilliseconds), after: firstDelayMilliseconds.map { .milliseconds($0) }, count: count)
    }

    /// Deadline `index`'s offset from the origin.
    func offset(_ index: Int) -> Int64 { firstDelay + Int64(index - 1) * interval }

    /// The last deadline whose offset is at most `elapsed` (0 if none), bounded by `count`.
    func lastIndex(dueBy elapsed: Int64) -> Int {
        guard elapsed >= firstDelay else { return 0 }
        let index = Int((elapsed - firstDelay) / interval) + 1
        return count.map { min($0, index) } ?? index
    }

    var description: String {
        var text = count == 1 ? "after \(firstDelay / 1_000_000)ms" : "every \(intervalMilliseconds)ms"
        if count != 1, let firstDelayMilliseconds { text += " first \(firstDelayMilliseconds)ms" }
        if let count, count > 1 { text += " ×\(count)" }
        if !startsImmediately { text += " idle" }
        if let stallMilliseconds { text += " stalling \(stallMilliseconds)ms" }
        if let cancelsItselfAt { text += " cancelling itself in call \(cancelsItselfAt)" }
        return "\(text) on \(ContractContext.allCases[context]) \(binding)"
    }
}

/// One step of a random program. Tickers are numbered in creation order.
enum ModelOperation: Hashable, Sendable, CustomStringConvertible {
    case create(Int, ModelSpec)
    case start(Int)
    case pause(Int)
    case resume(Int)
    case restart(Int)
    case cancel(Int)
    case fire(Int)
    case releaseOwner(Int)
    case releaseHandle(Int)
    case advance(milliseconds: Int)

    /// The ticker the operation is about (`nil` for `advance`).
    var ticker: Int? {
        switch self {
        case .create(let ticker, _), .start(let ticker), .pause(let ticker), .resume(let ticker),
            .restart(let ticker), .cancel(let ticker), .fire(let ticker), .releaseOwner(let ticker),
            .releaseHandle(let ticker):
            ticker
        case .advance: nil
        }
    }

    /// The same step for another ticker number.
    func renamed(to ticker: Int) -> ModelOperation {
        switch self {
        case .create(_, let spec): .create(ticker, spec)
        case .start: .start(ticker)
        case .pause: .pause(ticker)
        case .resume: .resume(ticker)
        case .restart: .restart(ticker)
        case .cancel: .cancel(ticker)
        case .fire: .fire(ticker)
        case .releaseOwner: .releaseOwner(ticker)
        case .releaseHandle: .releaseHandle(ticker)
        case .advance: self
        }
    }

    /// Runs alone, on the advancing thread: moving time, and creating a stalling ticker (whose order
    /// against tickers due at the same instant must be known).
    var isBarrier: Bool {
        switch self {
        case .advance: true
        case .create(_, let spec): spec.stallMilliseconds != nil
        default: false
        }
    }

    var description: String {
        switch self {
        case let .create(ticker, spec): "create #\(ticker): \(spec)"
        case .start(let ticker): "start #\(ticker)"
        case .pause(let ticker): "pause #\(ticker)"
        case .resume(let ticker): "resume #\(ticker)"
        case .restart(let ticker): "restart #\(ticker)"
        case .cancel(let ticker): "cancel #\(ticker)"
        case .fire(let ticker): "fire #\(ticker)"
        case .releaseOwner(let ticker): "release owner of #\(ticker)"
        case .releaseHandle(let ticker): "release handle of #\(ticker)"
        case .advance(let milliseconds): "advance \(milliseconds)ms"
        }
    }
}

extension Tick {
    /// A delivery as the model predicts it (instants in nanoseconds on the virtual timeline).
    static func model(
        index: Int, deadline: Int64, timestamp: Int64, skipped: Int, remaining: Int?, fireCount: Int,
        isManual: Bool
    ) -> Tick {
        Tick(
            index: index, deadline: TickInstant(nanoseconds: deadline),
            timestamp: TickInstant(nanoseconds: timestamp), skipped: skipped, remaining: remaining,
            fireCount: fireCount, isManual: isManual)
    }

    /// Every field, instants as the time since virtual time started (for failure messages).
    var modelDescription: String {
        var text = "#\(index) due \(Self.sinceStart(deadline)) at \(Self.sinceStart(timestamp))"
        if skipped > 0 { text += " skipped \(skipped)" }
        if let remaining { text += " remaining \(remaining)" }
        text += " fireCount \(fireCount)"
        if isManual { text += " manual" }
        return text
    }

    /// µs since virtual time started, with the ns when they are not whole.
    static func sinceStart(_ instant: TickInstant) -> String {
        let nanoseconds = instant.nanoseconds - VirtualTimeStart.nanoseconds
        let fraction = nanoseconds % 1_000 == 0 ? "" : String(format: ".%03d", abs(nanoseconds % 1_000))
        return "\(nanoseconds / 1_000)\(fraction)µs"
    }
}

/// Where the test support's `VirtualTime` starts.
enum VirtualTimeStart {
    static let nanoseconds: Int64 = 1_000_000_000
}

/// The reference model: what every ticker of a program should have done.
struct LifecycleModel {
    struct Ticker {
        var spec: ModelSpec
        var state: TickerState
        /// Running: the instant deadline offsets count from. Paused: the time left to the next deadline.
        var origin: Int64
        var nextIndex = 1
        var manualPending = 0
        var manualAt: Int64 = 0
        var fireCount = 0
        /// `restart()` calls that restarted the schedule.
        var restarts = 0
        /// Arrival order among equal deadlines (the engine serves ties first come, first served).
        var order: Int
        var createdAt: Int64
        var ownerAlive: Bool
        /// Whether a handle exists: the test's, or the owner's own for `ownerHoldsHandle`.
        var handleAlive = true
        var ticks: [Tick] = []

        var isLive: Bool { !state.isTerminal }

        /// A bound ticker whose owner is gone stops at its next deadline, or earlier when its engine
        /// sweeps for dead owners: until then its state may read either way.
        var stateIsUncertain: Bool { spec.binding.isBound && !ownerAlive && isLive }

        /// What `Ticker.timeRemaining` reads at `now`: the time to the next scheduled deadline (the first
        /// delay while idle, the time kept while paused), `nil` once stopped.
        func timeRemaining(at now: Int64) -> Int64? {
            switch state {
            case .idle: spec.offset(nextIndex)
            case .paused: origin
            case .running: max(0, origin + spec.offset(nextIndex) - now)
            case .finished, .cancelled: nil
            }
        }

        /// The instant the ticker waits for, if any.
        var key: Int64? {
            guard isLive else { return nil }
            let scheduled = state == .running ? origin + spec.offset(nextIndex) : nil
            let manual = manualPending > 0 ? manualAt : nil
            switch (scheduled, manual) {
            case (nil, nil): return nil
            case let (scheduled?, manual?): return min(scheduled, manual)
            case let (scheduled, manual): return scheduled ?? manual
            }
        }

        mutating func stop(_ final: TickerState) {
            state = final
            manualPending = 0
        }
    }

    private(set) var now = VirtualTimeStart.nanoseconds
    private(set) var tickers: [Ticker] = []
    /// Handle-owned tickers released right after creation, before ever firing: each logs a warning in
    /// debug builds (the usual reason a timer "never fires").
    private(set) var expectedWarnings = 0
    private var nextOrder = 0
    let warnsAboutMistakes: Bool

    init(warnsAboutMistakes: Bool) {
        self.warnsAboutMistakes = warnsAboutMistakes
    }

    /// The step as the model and the run both carry it out, or `nil` to skip it. A lifecycle call needs a
    /// handle to be made on, and stalling tickers are left alone; a stalling ticker made while another is
    /// live (stalls within stalls are beyond the model) is made without its stall.
    func admit(_ operation: ModelOperation) -> ModelOperation? {
        switch operation {
        case .advance: return operation
        case .create(let ticker, var spec):
            guard ticker == tickers.count else { return nil }
            if spec.stallMilliseconds != nil, tickers.contains(where: { $0.spec.stallMilliseconds != nil && $0.isLive })
            {
                spec.stallMilliseconds = nil
            }
            return .create(ticker, spec)
        case .releaseHandle, .releaseOwner:
            guard let ticker = operation.ticker, ticker < tickers.count else { return nil }
            return operation
        default:
            guard let ticker = operation.ticker, ticker < tickers.count, tickers[ticker].handleAlive,
                tickers[ticker].spec.stallMilliseconds == nil
            else { return nil }
            return operation
        }
    }

    mutating func apply(_ operation: ModelOperation) {
        switch operation {
        case let .create(_, spec):
            nextOrder += 1
            tickers.append(
                Ticker(
                    spec: spec, state: spec.startsImmediately ? .running : .idle, origin: now, order: nextOrder,
                    createdAt: now, ownerAlive: spec.binding.isBound))
        case .start(let index):
            guard tickers[index].state == .idle else { return }
            run(index, countingFrom: now)
        case .resume(let index):
            guard tickers[index].state == .paused else { return }
            // Deadline `nextIndex` is the time kept at the pause from now.
            run(index, countingFrom: now + tickers[index].origin - tickers[index].spec.offset(tickers[index].nextIndex))
        case .restart(let index):
            guard tickers[index].isLive else { return }
            tickers[index].nextIndex = 1
            tickers[index].restarts += 1
            run(index, countingFrom: now)
        case .pause(let index):
            guard tickers[index].state == .running else { return }
            let deadline = tickers[index].origin + tickers[index].spec.offset(tickers[index].nextIndex)
            tickers[index].origin = max(0, deadline - now)
            tickers[index].state = .paused
            touch(index)
        case .cancel(let index):
            guard tickers[index].isLive else { return }
            tickers[index].stop(.cancelled)
        case .fire(let index):
            guard tickers[index].isLive else { return }
            if tickers[index].manualPending == 0 { tickers[index].manualAt = now }
            tickers[index].manualPending += 1
            touch(index)
        case .releaseOwner(let index):
            guard tickers[index].spec.binding.isBound, tickers[index].ownerAlive else { return }
            tickers[index].ownerAlive = false
            // An owner that held its handle releases it in its deinit: the ticker stops at once.
            if tickers[index].spec.binding == .ownerHoldsHandle, tickers[index].handleAlive {
                tickers[index].handleAlive = false
                if tickers[index].isLive { tickers[index].stop(.cancelled) }
            }
        case .releaseHandle(let index):
            guard tickers[index].handleAlive else { return }
            tickers[index].handleAlive = false
            guard tickers[index].isLive else { return }
            if tickers[index].spec.binding == .handle {
                if warnsAboutMistakes, tickers[index].state == .running, tickers[index].fireCount == 0,
                    now - tickers[index].createdAt < 100_000_000
                {
                    expectedWarnings += 1
                }
                tickers[index].stop(.cancelled)
            } else if tickers[index].state != .running || !tickers[index].ownerAlive {
                // Nothing could start or resume it any more; and a handle released after its owner died
                // (the owner's own handle, or one that outlived the owner) stops the ticker at once.
                tickers[index].stop(.cancelled)
            }
        case .advance(let milliseconds):
            advance(to: now + Int64(milliseconds) * 1_000_000)
        }
    }

    /// Makes the ticker run with deadline offsets counted from `origin`.
    private mutating func run(_ index: Int, countingFrom origin: Int64) {
        tickers[index].origin = origin
        tickers[index].state = .running
        touch(index)
    }

    private mutating func touch(_ index: Int) {
        nextOrder += 1
        tickers[index].order = nextOrder
    }

    /// Moves time to `target`, delivering everything due on the way.
    ///
    /// Contexts are independent: each serves its own tickers in (deadline, arrival) order. A stalling
    /// ticker's delivery at `t` blocks its context until `t + stall`; virtual time meanwhile runs the
    /// other contexts up to that instant, so when a stall ends past `target`, time ends there.
    private mutating func advance(to target: Int64) {
        var end = target
        for index in tickers.indices {
            guard let stall = tickers[index].spec.stallMilliseconds, let key = tickers[index].key, key <= target
            else { continue }
            end = max(end, key + Int64(stall) * 1_000_000)
        }
        for context in ContractContext.allCases.indices {
            serve(context: context, until: end)
        }
        now = end
    }

    private mutating func serve(context: Int, until end: Int64) {
        var busyUntil = Int64.min
        while true {
            var next: (index: Int, key: Int64, order: Int)?
            for index in tickers.indices where tickers[index].spec.context == context {
                guard let key = tickers[index].key, key <= end else { continue }
                if next == nil || (key, tickers[index].order) < (next!.key, next!.order) {
                    next = (index, key, tickers[index].order)
                }
            }
            guard let next else { return }
            let instant = max(next.key, busyUntil)
            deliver(next.index, at: instant)
            if let stall = tickers[next.index].spec.stallMilliseconds {
                busyUntil = instant + Int64(stall) * 1_000_000
            }
        }
    }

    private mutating func deliver(_ index: Int, at instant: Int64) {
        var ticker = tickers[index]
        defer { tickers[index] = ticker }
        if ticker.spec.binding.isBound, !ticker.ownerAlive {
            ticker.stop(.cancelled)
            return
        }
        let spec = ticker.spec
        let delivered = ticker.nextIndex - 1
        let oneShotUnfired = spec.count == 1 && delivered == 0
        let manual = ticker.manualPending > 0 && ticker.manualAt <= instant
        ticker.fireCount += 1
        if manual, !oneShotUnfired {
            ticker.manualPending -= 1
            ticker.ticks.append(
                .model(
                    index: delivered, deadline: ticker.manualAt, timestamp: instant, skipped: 0,
                    remaining: spec.count.map { $0 - delivered }, fireCount: ticker.fireCount, isManual: true))
        } else {
            let due = manual ? ticker.nextIndex : spec.lastIndex(dueBy: instant - ticker.origin)
            let tickIndex = max(due, ticker.nextIndex)
            let deadline = manual ? ticker.manualAt : ticker.origin + spec.offset(tickIndex)
            ticker.ticks.append(
                .model(
                    index: tickIndex, deadline: deadline, timestamp: max(instant, deadline),
                    skipped: tickIndex - ticker.nextIndex, remaining: spec.count.map { $0 - tickIndex },
                    fireCount: ticker.fireCount, isManual: manual))
            ticker.nextIndex = tickIndex + 1
            if manual { ticker.manualPending = 0 }
            if let count = spec.count, tickIndex >= count {
                ticker.stop(.finished)
                return
            }
        }
        // `cancel()` inside the handler is exact: nothing more is delivered.
        if spec.cancelsItselfAt == ticker.fireCount, ticker.handleAlive {
            ticker.stop(.cancelled)
            return
        }
        nextOrder += 1
        ticker.order = nextOrder
    }
}

// MARK: Random programs

/// A seeded random program: the same seed always gives the same steps.
struct ModelProgram: Sendable, CustomStringConvertible {
    let seed: UInt64
    var operations: [ModelOperation]

    /// Draws `length` steps over at most `maxTickers` tickers.
    static func random(seed: UInt64, length: Int, maxTickers: Int = 40) -> ModelProgram {
        var random = ConcurrencyStressTests.SplitMix64(state: seed)
        var operations: [ModelOperation] = []
        var created = 0
        func pick(_ values: [Int]) -> Int { values[Int(random.next() % UInt64(values.count))] }
        // Mostly one of the latest tickers, which are more likely to be still live.
        func someTicker() -> Int? {
            guard created > 0 else { return nil }
            let pool = random.next() % 10 < 7 ? min(created, 6) : created
            return created - 1 - Int(random.next() % UInt64(pool))
        }
        while operations.count < length {
            let roll = random.next() % 100
            switch roll {
            case 0..<12 where created < maxTickers:
                let count: Int? = [nil, nil, 1, 1, 2, 3, 5][Int(random.next() % 7)]
                let spec = ModelSpec(
                    context: Int(random.next() % UInt64(ContractContext.allCases.count)),
                    intervalMilliseconds: pick([1, 2, 3, 5, 7, 10, 25]),
                    firstDelayMilliseconds: random.next() % 3 == 0 ? nil : pick([0, 1, 2, 4, 6, 15]),
                    count: count,
                    startsImmediately: random.next() % 6 != 0,
                    binding: ModelBinding.allCases[Int(random.next() % UInt64(ModelBinding.allCases.count))],
                    stallMilliseconds: nil,
                    cancelsItselfAt: random.next() % 8 == 0 ? Int(1 + random.next() % 4) : nil)
                operations.append(.create(created, spec))
                created += 1
            case 12 where created < maxTickers:
                // The classic mistake: a handle-owned ticker whose handle is dropped at once.
                let spec = ModelSpec(
                    context: Int(random.next() % UInt64(ContractContext.allCases.count)), intervalMilliseconds: 5,
                    firstDelayMilliseconds: nil, count: nil, startsImmediately: true, binding: .handle,
                    stallMilliseconds: nil)
                operations += [.create(created, spec), .releaseHandle(created)]
                created += 1
            case 13..<15 where created < maxTickers:
                // A handler that blocks its context: a one-shot that moves time on from inside.
                let spec = ModelSpec(
                    context: Int(random.next() % UInt64(ContractContext.allCases.count)), intervalMilliseconds: 1,
                    firstDelayMilliseconds: pick([0, 1, 3, 5, 9]), count: 1, startsImmediately: true,
                    binding: .handle, stallMilliseconds: pick([2, 5, 12, 30]))
                operations.append(.create(created, spec))
                created += 1
            case 15..<37:
                operations.append(.advance(milliseconds: pick([0, 1, 1, 2, 3, 5, 8, 13, 40])))
            default:
                guard let ticker = someTicker() else { continue }
                // Stopping calls are rarer than the others, so that tickers live long enough to be paused,
                // resumed and fired many times.
                let calls: [(Int) -> ModelOperation] = [
                    ModelOperation.pause, ModelOperation.pause, ModelOperation.resume, ModelOperation.resume,
                    ModelOperation.resume, ModelOperation.start, ModelOperation.restart, ModelOperation.fire,
                    ModelOperation.fire,
                    ModelOperation.fire, ModelOperation.cancel, ModelOperation.releaseOwner,
                    ModelOperation.releaseHandle,
                ]
                operations.append(calls[Int(random.next() % UInt64(calls.count))](ticker))
            }
        }
        return ModelProgram(seed: seed, operations: operations)
    }

    /// The program without the steps in `range`, and without the steps of tickers whose creation was
    /// among them; later tickers are renumbered so that the rest still names the same tickers.
    func removing(_ range: Range<Int>) -> ModelProgram {
        var renumbered: [Int: Int] = [:]
        var kept: [ModelOperation] = []
        for (position, operation) in operations.enumerated() {
            if case let .create(ticker, spec) = operation {
                guard !range.contains(position) else { continue }
                renumbered[ticker] = renumbered.count
                kept.append(.create(renumbered.count - 1, spec))
                continue
            }
            guard !range.contains(position) else { continue }
            guard let ticker = operation.ticker else {
                kept.append(operation)
                continue
            }
            guard let new = renumbered[ticker] else { continue }
            kept.append(operation.renamed(to: new))
        }
        return ModelProgram(seed: seed, operations: kept)
    }

    var description: String {
        operations.enumerated().map { "  \($0.offset + 1). \($0.element)" }.joined(separator: "\n")
    }
}
