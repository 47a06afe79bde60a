import Foundation
import TimerKitTestSupport

@testable import TimerKit

/// Runs a `ModelProgram` against TimerKit under virtual time and checks it against `LifecycleModel`.
///
/// Steps between two barriers (`ModelOperation.isBarrier`) form a round: `threads` threads issue them
/// at once, each the steps of its own tickers in program order, all on the same engines. Steps of
/// different tickers commute in the model (a ticker's deliveries depend on its own steps, and on a
/// stalling ticker's, which is only ever created at a barrier), so the model applies them in program
/// order. After every round and barrier, every ticker's deliveries, state and fire count must be the
/// model's; at the end, with every handle and owner released, no ticker may be live and every owner,
/// handler and handle must have been deinitialised.
final class LifecycleModelRun: @unchecked Sendable {
    // Invariant: `model` and the `slots` array change only on the driving thread, between rounds; a
    // round's workers only read `slots` and touch the slots of their own tickers (see `Slot`).
    /// The first disagreement, after `steps` steps of the program.
    struct Failure: Error, CustomStringConvertible {
        let steps: Int
        let message: String
        var description: String { "after step \(steps): \(message)" }
    }

    /// One ticker's side of the run.
    final class Slot: @unchecked Sendable {
        // Invariant: `handle`, `owner` and the weak references are touched by one thread at a time — the
        // worker that owns the ticker during a round (rounds are joined by `concurrentPerform`) or the
        // advancing thread between rounds. Handlers only touch `delivery`, which is locked.
        var handle: Ticker?
        var owner: ModelOwner?
        weak var weakHandle: Ticker?
        weak var weakOwner: ModelOwner?
        weak var weakProbe: ModelProbe?
        /// Deliveries already found to agree with the model.
        var checked = 0
        let delivery: ModelDelivery

        init(index: Int, violations: Recorder<String>) {
            delivery = ModelDelivery(index: index, violations: violations)
        }

        /// The ticker's handle, wherever it is kept.
        var reachableHandle: Ticker? { handle ?? owner?.ticker }
    }

    private let time = VirtualTime()
    private let threads: Int
    private let tracker = LifetimeTracker()
    private let violations = Recorder<String>()
    private var slots: [Slot] = []
    private(set) var model: LifecycleModel
    /// Every diagnostic this run's tickers log carries this creation site.
    private let fileID = "TimerKitTests/LifecycleModel-\(UUID().uuidString.prefix(8)).swift"

    init(threads: Int) {
        self.threads = threads
        LogCapture.install()
        model = LifecycleModel(warnsAboutMistakes: TickerDiagnostics.warnsAboutMistakes)
    }

    /// Runs `program`; `modelSees` lets a test show the model a different program (to prove a
    /// disagreement is caught). Returns the first disagreement, if any.
    static func check(
        _ program: ModelProgram, threads: Int,
        modelSees: (ModelOperation) -> ModelOperation? = { $0 }
    ) -> Failure? {
        var coverage = ModelCoverage()
        return check(program, threads: threads, modelSees: modelSees, coverage: &coverage)
    }

    /// `check`, adding what the program exercised to `coverage`.
    static func check(
        _ program: ModelProgram, threads: Int, modelSees: (ModelOperation) -> ModelOperation? = { $0 },
        coverage: inout ModelCoverage
    ) -> Failure? {
        let run = LifecycleModelRun(threads: threads)
        let failure = run.execute(program.operations, seed: program.seed, modelSees: modelSees)
        coverage.add(run.model)
        return failure
    }

    private func execute(
        _ operations: [ModelOperation], seed: UInt64, modelSees: (ModelOperation) -> ModelOperation?
    ) -> Failure? {
        var round: [ModelOperation] = []
        var steps = 0
        func flush() -> Failure? {
            guard !round.isEmpty else { return nil }
            runRound(round)
            round.removeAll()
            return verify(steps: steps)
        }
        for step in operations {
            steps += 1
            guard let operation = model.admit(step) else { continue }
            if operation.isBarrier, let failure = flush() { return failure }
            if let seen = modelSees(operation) { model.apply(seen) }
            if case .create = operation { slots.append(Slot(index: slots.count, violations: violations)) }
            if operation.isBarrier {
                perform(operation)
                if let failure = verify(steps: steps) { return failure }
            } else {
                round.append(operation)
            }
        }
        if let failure = flush() { return failure }
        return finish(steps: steps, seed: seed)
    }

    /// Issues a round's steps from `threads` threads, each ticker's steps on one thread in order.
    private func runRound(_ round: [ModelOperation]) {
        guard threads > 1 else {
            round.forEach(perform)
            return
        }
        let lanes = (0..<threads).map { lane in round.filter { ($0.ticker ?? 0) % threads == lane } }
        DispatchQueue.concurrentPerform(iterations: threads) { lane in
            lanes[lane].forEach(perform)
        }
    }

    private func perform(_ operation: ModelOperation) {
        switch operation {
        case let .create(index, spec): create(slots[index], spec)
        case .start(let index): slots[index].reachableHandle?.start()
        case .pause(let index): slots[index].reachableHandle?.pause()
        case .resume(let index): slots[index].reachableHandle?.resume()
        case .restart(let index): slots[index].reachableHandle?.restart()
        case .fire(let index): slots[index].reachableHandle?.fire()
        case .cancel(let index): slots[index].reachableHandle?.cancel()
        case .releaseOwner(let index): slots[index].owner = nil
        case .releaseHandle(let index):
            let slot = slots[index]
            if slot.handle != nil {
                slot.handle = nil
            } else {
                slot.owner?.ticker = nil
            }
        case .advance(let milliseconds):
            time.advance(by: .milliseconds(milliseconds))
        }
    }

    private func create(_ slot: Slot, _ spec: ModelSpec) {
        let context = ContractContext.allCases[spec.context].context
        let delivery = slot.delivery
        let probe = ModelProbe(tracker: tracker)
        slot.weakProbe = probe
        let (clock, fileID) = (time.clock, self.fileID)
        // What every handler does after recording: stall its context, or cancel its own ticker through its
        // handle (if one is left) — exact, since it is called on the ticker's context.
        let ownHandle = WeakHandle()
        let misbehave: @Sendable (Tick) -> Void = { tick in
            if let stall = spec.stallMilliseconds { clock.advance(by: .milliseconds(stall)) }
            if tick.fireCount == spec.cancelsItselfAt { ownHandle.ticker?.cancel() }
        }
        let handle: Ticker = time.run {
            switch spec.binding {
            case .handle:
                return Ticker.schedule(
                    spec.schedule, on: context, startsImmediately: spec.startsImmediately, fileID: fileID, line: 1
                ) { tick in
                    probe.touch()
                    delivery.record(tick)
                    misbehave(tick)
                }
            case .owner, .ownerHoldsHandle:
                let owner = ModelOwner(delivery: delivery, tracker: tracker)
                slot.owner = owner
                return Ticker.schedule(
                    spec.schedule, on: context, owner: owner, startsImmediately: spec.startsImmediately,
                    fileID: fileID, line: 2
                ) { owner, tick in
                    probe.touch()
                    owner.record(tick)
                    misbehave(tick)
                }
            case .target:
                let owner = ModelOwner(delivery: delivery, tracker: tracker)
                slot.owner = owner
                // Target–action is public on the main actor only; its binding is the same on every context.
                return Ticker.makeBound(
                    spec.schedule, on: context, owner: owner, binding: .target,
                    startsImmediately: spec.startsImmediately, fileID: fileID, line: 3
                ) { owner, tick in
                    probe.touch()
                    owner.record(tick)
                    misbehave(tick)
                }
            }
        }
        ownHandle.ticker = handle
        slot.weakHandle = handle
        slot.weakOwner = slot.owner
        if spec.binding == .ownerHoldsHandle {
            slot.owner?.ticker = handle
        } else {
            slot.handle = handle
        }
    }

    // MARK: Checks

    private func verify(steps: Int) -> Failure? {
        if let violation = violations.values.first {
            return Failure(steps: steps, message: violation)
        }
        for engine in time.base.engines() {
            if let broken = engine.storageInvariantViolation() {
                return Failure(steps: steps, message: "\(engine.context): storage invariant broken: \(broken)")
            }
        }
        for (index, expected) in model.tickers.enumerated() {
            let slot = slots[index]
            // Deliveries up to `slot.checked` agreed at an earlier check: compare the new ones only.
            let (count, fresh) = slot.delivery.ticks(from: slot.checked)
            let expectedFresh = expected.ticks.dropFirst(slot.checked)
            if count != expected.ticks.count || !fresh.elementsEqual(expectedFresh) {
                let first =
                    zip(fresh, expectedFresh).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                    ?? min(fresh.count, expectedFresh.count)
                return Failure(
                    steps: steps,
                    message: """
                        ticker #\(index) (\(expected.spec)) delivered \(count) ticks, the model \
                        \(expected.ticks.count); first difference at delivery \(slot.checked + first + 1): \
                        got \(fresh.dropFirst(first).first?.modelDescription ?? "nothing"), \
                        expected \(expectedFresh.dropFirst(first).first?.modelDescription ?? "nothing")
                        """)
            }
            slot.checked = count
            if let handle = slot.reachableHandle {
                if !expected.stateIsUncertain, handle.state != expected.state {
                    return Failure(
                        steps: steps,
                        message:
                            "ticker #\(index) (\(expected.spec)) is \(handle.state), the model says \(expected.state)")
                }
                if !expected.stateIsUncertain, handle.nextDeadline?.nanoseconds != expected.key {
                    return Failure(
                        steps: steps,
                        message: "ticker #\(index) waits for \(handle.nextDeadline.map(Tick.sinceStart) ?? "nothing"), "
                            + "the model for \(expected.key.map { Tick.sinceStart(TickInstant(nanoseconds: $0)) } ?? "nothing")"
                    )
                }
                let remaining = expected.timeRemaining(at: model.now)
                if !expected.stateIsUncertain, handle.timeRemaining?.saturatingNanoseconds != remaining {
                    return Failure(
                        steps: steps,
                        message: "ticker #\(index) has \(handle.timeRemaining.map { "\($0)" } ?? "nil") left to its "
                            + "next deadline, the model \(remaining.map { "\($0) ns" } ?? "nil")")
                }
                let skipped = expected.ticks.reduce(0) { $0 + $1.skipped }
                if let snapshot = handle.snapshot, snapshot.skippedCount != skipped {
                    return Failure(
                        steps: steps,
                        message:
                            "ticker #\(index) reports \(snapshot.skippedCount) skipped deadlines, the model \(skipped)")
                }
                if handle.fireCount != expected.fireCount {
                    return Failure(
                        steps: steps,
                        message:
                            "ticker #\(index) reports fireCount \(handle.fireCount), the model \(expected.fireCount)")
                }
            }
            if expected.state.isTerminal, slot.weakProbe != nil {
                return Failure(
                    steps: steps,
                    message: "ticker #\(index) is \(expected.state) but its handler (and its captures) is still held")
            }
            // From here on a delivery would be one after cancel, after the end, or after the owner died.
            if expected.state.isTerminal {
                slot.delivery.stop("it was \(expected.state)")
            } else if expected.spec.binding.isBound, !expected.ownerAlive {
                slot.delivery.stop("its owner was released")
            }
        }
        return nil
    }

    /// Releases every handle and owner (through the model, which predicts the "never fires" warnings), in
    /// an order drawn from `seed`, lets a second pass so that tickers whose owner died reach a deadline,
    /// then checks that nothing is left — before anything sweeps for dead owners.
    private func finish(steps: Int, seed: UInt64) -> Failure? {
        let failure = finishChecks(steps: steps, seed: seed)
        return failure.map {
            Failure(steps: $0.steps, message: "at the end (every handle and owner released, then 1 s): \($0.message)")
        }
    }

    private func finishChecks(steps: Int, seed: UInt64) -> Failure? {
        var releases = model.tickers.indices.flatMap { [ModelOperation.releaseHandle($0), .releaseOwner($0)] }
        var random = ConcurrencyStressTests.SplitMix64(state: seed)
        releases.shuffle(using: &random)
        for operation in releases + [.advance(milliseconds: 1_000)] {
            guard let operation = model.admit(operation) else { continue }
            model.apply(operation)
            perform(operation)
            if let failure = verify(steps: steps) { return failure }
        }
        for engine in time.base.engines() {
            let (live, records) = (engine.liveCount(), engine.storage().occupied)
            if live != 0 || records != 0 {
                return Failure(
                    steps: steps,
                    message: "\(engine.context) still has \(live) live tickers and \(records) records with every "
                        + "handle and owner gone and every deadline passed")
            }
        }
        let live = time.run { TickerDiagnostics.liveTickers() }
        if !live.isEmpty {
            return Failure(
                steps: steps, message: "\(live.count) tickers live with every handle and owner gone: \(live)")
        }
        if tracker.live != 0 {
            return Failure(steps: steps, message: "\(tracker.live) owners or handler captures were never deinitialised")
        }
        if let index = slots.firstIndex(where: { $0.weakHandle != nil || $0.weakOwner != nil }) {
            return Failure(steps: steps, message: "ticker #\(index)'s handle or owner outlived every reference to it")
        }
        let warnings = LogCapture.take(containing: fileID).filter { $0.contains("never fire") }.count
        if warnings != model.expectedWarnings {
            return Failure(
                steps: steps,
                message: "\(warnings) \"never fires\" warnings were logged, the model expects \(model.expectedWarnings)"
            )
        }
        return nil
    }
}

/// Where a model ticker's handler records, shared by its closure and its owner.
final class ModelDelivery: Sendable {
    let index: Int
    private let ticks = Locked<[Tick]>.make([])
    private let violations: Recorder<String>
    /// Why the ticker may no longer fire (set once the call that stopped it has returned).
    private let stoppedBy = Locked<String?>.make(nil)

    init(index: Int, violations: Recorder<String>) {
        self.index = index
        self.violations = violations
    }

    func stop(_ reason: String) {
        stoppedBy.withLock { $0 = $0 ?? reason }
    }

    func record(_ tick: Tick) {
        if let reason = stoppedBy.withLock({ $0 }) {
            violations.append("ticker #\(index) fired after \(reason): \(tick)")
        }
        ticks.withLock { $0.append(tick) }
    }

    /// How many deliveries there were, and those from `start` on.
    func ticks(from start: Int) -> (count: Int, ticks: ArraySlice<Tick>) {
        ticks.withLock { ($0.count, $0.dropFirst(start)) }
    }
}

/// A handler's weak reference to its own handle (a strong one would keep a handle-owned ticker alive).
final class WeakHandle: Sendable {
    private let storage = Locked<WeakReference>.make(WeakReference(nil))

    var ticker: Ticker? {
        get { storage.withLock { $0.object as? Ticker } }
        set { storage.withLock { $0 = WeakReference(newValue) } }
    }
}

/// A model ticker's owner (a "view controller"), counted by a lifetime tracker.
final class ModelOwner: Sendable {
    private let delivery: ModelDelivery
    private let tracker: LifetimeTracker
    private let handle = ContractBox<Ticker>()

    init(delivery: ModelDelivery, tracker: LifetimeTracker) {
        self.delivery = delivery
        self.tracker = tracker
        tracker.instanceMade()
    }

    deinit { tracker.instanceGone() }

    /// The owner's own handle (`ownerHoldsHandle`).
    var ticker: Ticker? {
        get { handle.value }
        set { handle.set(newValue) }
    }

    func record(_ tick: Tick) { delivery.record(tick) }
}

/// Captured by a handler, so that a weak reference and a lifetime tracker tell when it was released.
final class ModelProbe: Sendable {
    private let tracker: LifetimeTracker

    init(tracker: LifetimeTracker) {
        self.tracker = tracker
        tracker.instanceMade()
    }

    deinit { tracker.instanceGone() }

    func touch() {}
}

/// What programs exercised, so that a generator that stopped producing some situation is noticed.
struct ModelCoverage: CustomStringConvertible {
    var deliveries = 0
    var manualDeliveries = 0
    var skippingDeliveries = 0
    var restarts = 0
    var stalls = 0
    var finished = 0
    var cancelled = 0
    var ownersReleased = 0
    var warnings = 0

    mutating func add(_ model: LifecycleModel) {
        for ticker in model.tickers {
            deliveries += ticker.ticks.count
            manualDeliveries += ticker.ticks.count { $0.isManual }
            skippingDeliveries += ticker.ticks.count { $0.skipped > 0 }
            restarts += ticker.restarts
            if ticker.spec.stallMilliseconds != nil { stalls += ticker.ticks.count }
            if ticker.state == .finished { finished += 1 }
            if ticker.state == .cancelled { cancelled += 1 }
            if ticker.spec.binding.isBound, !ticker.ownerAlive { ownersReleased += 1 }
        }
        warnings += model.expectedWarnings
    }

    /// Every situation the generator is meant to produce occurred.
    var isComplete: Bool {
        [deliveries, manualDeliveries, skippingDeliveries, restarts, stalls, finished, cancelled, ownersReleased]
            .allSatisfy {
                $0 > 0
            }
    }

    var description: String {
        "\(deliveries) deliveries (\(manualDeliveries) manual, \(skippingDeliveries) skipping), \(restarts) restarts, "
            + "\(stalls) stalls, "
            + "\(finished) finished, \(cancelled) cancelled, \(ownersReleased) owners released, "
            + "\(warnings) \"never fires\" warnings"
    }
}
