import Foundation
import Testing

@testable import TimerKit

/// Seeded, model-based random testing of the lifecycle: random programs of create / start / pause /
/// resume / restart / cancel / fire / release owner / release handle / advance time — with handlers that stall
/// their context or cancel their own ticker — issued from one and from four threads over every context
/// under virtual time, each checked step by step against `LifecycleModel` (see LifecycleModel.swift and
/// LifecycleModelRun.swift). Under virtual time every engine is served on the advancing thread: the real
/// drivers, and calls racing a delivery, are covered by the real-context tests and the soak instead.
///
/// The default is a bounded slice for CI. The long mode runs a million operations or more:
///
///     TIMERKIT_MODEL_OPERATIONS=1000000 swift test -c release --filter LifecycleModelTests
///
/// Each thread count draws its programs' seeds from its own master generator (`TIMERKIT_MODEL_SEED` mixed
/// with the thread count), so every program is independent. A disagreement names the program's seed and
/// the shortest program found that still fails, with the command that replays that one program
/// (`TIMERKIT_MODEL_PROGRAM`). A crash or a hang is replayed by running the same command again (the
/// seeds do not change); `TIMERKIT_MODEL_VERBOSE=1` names each program's seed before it runs, and a
/// program still running after two minutes is reported with its seed and then stopped.
@Suite struct LifecycleModelTests {
    /// What to run, from the environment.
    struct Settings: CustomStringConvertible {
        /// Operations per thread count (the CI slice by default).
        var operations = 12_000
        /// Mixed with the thread count, the master generator's seed.
        var seed: UInt64 = 0x7131_E4C1_D00D_5EED
        var programLength = 300
        /// One program to replay instead of drawing them.
        var program: UInt64?
        var verbose = false

        static var current: Settings {
            var settings = Settings()
            let environment = ProcessInfo.processInfo.environment
            if let value = environment["TIMERKIT_MODEL_OPERATIONS"], let operations = Int(value), operations > 0 {
                settings.operations = operations
            }
            if let value = environment["TIMERKIT_MODEL_SEED"], let seed = parseSeed(value) {
                settings.seed = seed
            }
            if let value = environment["TIMERKIT_MODEL_PROGRAM"], let seed = parseSeed(value) {
                settings.program = seed
            }
            if let value = environment["TIMERKIT_MODEL_LENGTH"], let length = Int(value), length > 0 {
                settings.programLength = length
            }
            settings.verbose = environment["TIMERKIT_MODEL_VERBOSE"] == "1"
            return settings
        }

        static func parseSeed(_ text: String) -> UInt64? {
            text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
        }

        /// The programs' seeds for `threads` threads: a replayed program, or draws from a master generator.
        func seeds(threads: Int) -> AnySequence<UInt64> {
            if let program { return AnySequence(CollectionOfOne(program)) }
            var master = ConcurrencyStressTests.SplitMix64(state: seed ^ UInt64(threads) &* 0xA24B_AED4_963E_E407)
            return AnySequence { AnyIterator { master.next() } }
        }

        var description: String { "\(operations) operations, master seed \(hex(seed))" }
    }

    @Test
    func randomProgramsAgreeWithTheModel() {
        for threads in [1, 4] {
            Self().randomProgramsAgreeWithTheModel(threads: threads)
        }
    }

    func randomProgramsAgreeWithTheModel(threads: Int) {
        let settings = Settings.current
        let began = ContinuousClock.now
        let isLong = settings.operations > Settings().operations
        var done = 0
        var programs = 0
        var coverage = ModelCoverage()
        let watchdog = ModelWatchdog()
        defer { watchdog.stop() }
        for seed in settings.seeds(threads: threads) {
            guard done < settings.operations else { break }
            let length =
                settings.program == nil
                ? min(settings.programLength, settings.operations - done) : settings.programLength
            let candidate = ModelProgram.random(seed: seed, length: length)
            if settings.verbose { print("LifecycleModelTests: \(threads) thread(s), program \(hex(seed))") }
            watchdog.watch("\(threads) thread(s), program \(hex(seed)) of \(length) steps")
            if let failure = LifecycleModelRun.check(candidate, threads: threads, coverage: &coverage) {
                watchdog.watch(nil)  // shrinking runs many programs; the one that failed did not hang
                Issue.record(Comment(rawValue: Self.report(candidate, threads: threads, failure: failure)))
                return
            }
            done += length
            programs += 1
            if isLong, programs % 500 == 0 {
                print("LifecycleModelTests: \(threads) thread(s), \(done) operations, \(ContinuousClock.now - began)")
            }
            if settings.program != nil { break }
        }
        if settings.program == nil {
            #expect(coverage.isComplete, "the programs did not exercise everything: \(coverage); threads \(threads)")
        }
        if isLong {
            print(
                "LifecycleModelTests: \(threads) thread(s), \(done) operations in \(programs) programs "
                    + "(\(settings)) agreed with the model in \(ContinuousClock.now - began): \(coverage)")
        }
    }

    /// The check can fail, and the failure shrinks to the few steps that show it: a model that does
    /// not know about `pause()` disagrees with TimerKit.
    @Test func aDisagreementIsCaughtAndShrunkToAFewSteps() throws {
        let ignoresPause: (ModelOperation) -> ModelOperation? = {
            if case .pause = $0 { nil } else { $0 }
        }
        let program = ModelProgram.random(seed: 0x5EED, length: 300)
        let failure = try #require(LifecycleModelRun.check(program, threads: 1, modelSees: ignoresPause))
        let shrunk = Self.shrink(program, threads: 1, failure: failure, modelSees: ignoresPause)
        #expect(shrunk.program.operations.count <= 4, "\(shrunk.program)")
        #expect(shrunk.program.operations.contains { if case .pause = $0 { true } else { false } })
        #expect(LifecycleModelRun.check(shrunk.program, threads: 1) == nil, "TimerKit itself agrees with the model")
    }

    /// The stall of the hand-worked case "a stall makes its context skip", seen from the other tickers: a
    /// ticker on another context stays on time, and time ends where the stall left it.
    @Test func stallHoldsUpOnlyItsOwnContext() throws {
        let worked = try #require(HandWorkedCase.all.first { $0.name == "a stall makes its context skip" })
        var model = LifecycleModel(warnsAboutMistakes: false)
        worked.operations.forEach { model.apply($0) }
        #expect(model.tickers[1].ticks.map(\.index) == [1, 2, 3, 4, 5])
        #expect(model.tickers[1].ticks.allSatisfy { $0.deadline == $0.timestamp && $0.skipped == 0 })
        #expect(model.tickers[2].state == .finished)
        #expect(model.now == HandWorkedCase.instant(milliseconds: 10))
    }

    /// A program with the deliveries of its first ticker worked out by hand from the contract.
    struct HandWorkedCase: Sendable, CustomTestStringConvertible {
        let name: String
        let operations: [ModelOperation]
        /// (index, deadline ms, timestamp ms, skipped, remaining, manual) of ticker #0's deliveries.
        let expected: [(Int, Int64, Int64, Int, Int?, Bool)]
        let finalState: TickerState

        var testDescription: String { name }

        static func spec(
            every interval: Int, first: Int? = nil, count: Int? = nil, stall: Int? = nil, context: Int = 0,
            idle: Bool = false
        ) -> ModelSpec {
            ModelSpec(
                context: context, intervalMilliseconds: interval, firstDelayMilliseconds: first, count: count,
                startsImmediately: !idle, binding: .handle, stallMilliseconds: stall)
        }

        /// The virtual instant `milliseconds` after virtual time started.
        static func instant(milliseconds: Int64) -> Int64 { VirtualTimeStart.nanoseconds + milliseconds * 1_000_000 }

        static let all: [HandWorkedCase] = [
            // A handler on the same context blocks it from 3 ms to 8 ms: deadlines 2 and 3 (4 and 6 ms)
            // pass, one delivery at 8 ms stands for deadline 4 with 2 skipped.
            HandWorkedCase(
                name: "a stall makes its context skip",
                operations: [
                    .create(0, spec(every: 2)), .create(1, spec(every: 2, context: 1)),
                    .create(2, spec(every: 1, first: 3, count: 1, stall: 5)), .advance(milliseconds: 10),
                ],
                expected: [(1, 2, 2, 0, nil, false), (4, 8, 8, 2, nil, false), (5, 10, 10, 0, nil, false)],
                finalState: .running),
            // Paused at 15 ms with 5 ms left; resumed at 115 ms: deadlines 2 and 3 at 120 and 130 ms.
            HandWorkedCase(
                name: "pause keeps the time left",
                operations: [
                    .create(0, spec(every: 10)), .advance(milliseconds: 15), .pause(0), .advance(milliseconds: 100),
                    .resume(0), .advance(milliseconds: 20),
                ],
                expected: [(1, 10, 10, 0, nil, false), (2, 120, 120, 0, nil, false), (3, 130, 130, 0, nil, false)],
                finalState: .running),
            // Restarted at 15 ms: deadline 1 again at 25 ms, then 35 and 45 ms; index counts from 1 again,
            // fireCount goes on.
            HandWorkedCase(
                name: "restart counts the schedule from now",
                operations: [
                    .create(0, spec(every: 10)), .advance(milliseconds: 15), .restart(0), .advance(milliseconds: 30),
                ],
                expected: [
                    (1, 10, 10, 0, nil, false), (1, 25, 25, 0, nil, false), (2, 35, 35, 0, nil, false),
                    (3, 45, 45, 0, nil, false),
                ],
                finalState: .running),
            // resume() does not start an idle ticker; start() at 20 ms does (deadline 1 at 30 ms). Paused at
            // 35 ms with 5 ms left, restarted at 45 ms: running again, deadline 1 at 55 ms (the 5 ms dropped).
            HandWorkedCase(
                name: "resume leaves idle alone; restart runs a paused ticker from now",
                operations: [
                    .create(0, spec(every: 10, idle: true)), .resume(0), .advance(milliseconds: 20), .start(0),
                    .advance(milliseconds: 15), .pause(0), .advance(milliseconds: 10), .restart(0),
                    .advance(milliseconds: 10),
                ],
                expected: [(1, 30, 30, 0, nil, false), (1, 55, 55, 0, nil, false)],
                finalState: .running),
            // A 3-count ticker restarted after its second tick delivers three more; restart() once it
            // finished does nothing.
            HandWorkedCase(
                name: "restart a counted ticker; not once finished",
                operations: [
                    .create(0, spec(every: 10, count: 3)), .advance(milliseconds: 20), .restart(0),
                    .advance(milliseconds: 30), .restart(0), .advance(milliseconds: 30),
                ],
                expected: [
                    (1, 10, 10, 0, 2, false), (2, 20, 20, 0, 1, false), (1, 30, 30, 0, 2, false),
                    (2, 40, 40, 0, 1, false), (3, 50, 50, 0, 0, false),
                ],
                finalState: .finished),
            // Two fire() calls at 10 ms, right after deadline 1: two manual calls at 10 ms standing for
            // deadline 1, then deadline 2 on its own time.
            HandWorkedCase(
                name: "two fires at a deadline",
                operations: [
                    .create(0, spec(every: 10)), .advance(milliseconds: 10), .fire(0), .fire(0),
                    .advance(milliseconds: 10),
                ],
                expected: [
                    (1, 10, 10, 0, nil, false), (1, 10, 10, 0, nil, true), (1, 10, 10, 0, nil, true),
                    (2, 20, 20, 0, nil, false),
                ],
                finalState: .running),
            // fire() on a paused one-shot is its one tick: it finishes.
            HandWorkedCase(
                name: "fire on a paused one-shot",
                operations: [
                    .create(0, spec(every: 1, first: 50, count: 1)), .advance(milliseconds: 10), .pause(0), .fire(0),
                    .advance(milliseconds: 0), .advance(milliseconds: 100),
                ],
                expected: [(1, 10, 10, 0, 0, true)],
                finalState: .finished),
            // A 10 ms stall from 3 ms: deadlines 2 (4 ms) and 3 (6 ms) of a 3-count ticker pass; one
            // delivery at 13 ms for deadline 3, the last, with 1 skipped.
            HandWorkedCase(
                name: "counted ticker ends with a skip",
                operations: [
                    .create(0, spec(every: 2, count: 3)), .create(1, spec(every: 1, first: 3, count: 1, stall: 10)),
                    .advance(milliseconds: 20),
                ],
                expected: [(1, 2, 2, 0, 2, false), (3, 6, 13, 1, 0, false)],
                finalState: .finished),
        ]
    }

    @Test
    func modelAndTimerKitAgreeWithHandWorkedCases() {
        for worked in HandWorkedCase.all {
            Self().modelAndTimerKitAgreeWithHandWorkedCases(worked)
        }
    }

    func modelAndTimerKitAgreeWithHandWorkedCases(_ worked: HandWorkedCase) {
        var model = LifecycleModel(warnsAboutMistakes: false)
        worked.operations.forEach { model.apply($0) }
        let expected = worked.expected.enumerated().map { offset, tick in
            Tick.model(
                index: tick.0, deadline: HandWorkedCase.instant(milliseconds: tick.1),
                timestamp: HandWorkedCase.instant(milliseconds: tick.2), skipped: tick.3, remaining: tick.4,
                fireCount: offset + 1, isManual: tick.5)
        }
        #expect(
            model.tickers[0].ticks == expected, "\(model.tickers[0].ticks.map(\.modelDescription)); worked \(worked)")
        #expect(model.tickers[0].state == worked.finalState, "worked \(worked)")
        #expect(
            LifecycleModelRun.check(ModelProgram(seed: 0, operations: worked.operations), threads: 1) == nil,
            "worked \(worked)")
    }

    // MARK: Reporting

    static func report(_ program: ModelProgram, threads: Int, failure: LifecycleModelRun.Failure) -> String {
        let shrunk = shrink(program, threads: threads, failure: failure)
        return """
            TimerKit disagrees with the lifecycle model: \(failure)
            seed \(hex(program.seed)), \(threads) thread(s), program of \(program.operations.count) steps
            shortest program found (\(shrunk.program.operations.count) steps, \(shrunk.threads) thread(s)) \
            fails \(shrunk.failure):
            \(shrunk.program)
            replay: TIMERKIT_MODEL_PROGRAM=\(hex(program.seed)) TIMERKIT_MODEL_LENGTH=\(program.operations.count) \
            swift test --filter LifecycleModelTests
            """
    }

    /// Deletes steps while the program still fails (chunks, then single steps). Tries one thread first,
    /// where a run is deterministic; a failure that needs threads is shrunk with them, a candidate
    /// counting as failing if any of three runs fails.
    static func shrink(
        _ program: ModelProgram, threads: Int, failure: LifecycleModelRun.Failure,
        modelSees: (ModelOperation) -> ModelOperation? = { $0 }
    ) -> (program: ModelProgram, threads: Int, failure: LifecycleModelRun.Failure) {
        let current = ModelProgram(seed: program.seed, operations: Array(program.operations.prefix(failure.steps)))
        let lanes = LifecycleModelRun.check(current, threads: 1, modelSees: modelSees) != nil ? 1 : threads
        let attempts = lanes == 1 ? 1 : 3
        let shrunk = ModelShrink.shrink(
            current.operations, failure: failure, budget: 4_000 / attempts,
            removing: { ModelProgram(seed: program.seed, operations: $0).removing($1).operations }
        ) { operations -> LifecycleModelRun.Failure? in
            let candidate = ModelProgram(seed: program.seed, operations: operations)
            for _ in 0..<attempts {
                if let failure = LifecycleModelRun.check(candidate, threads: lanes, modelSees: modelSees) {
                    return failure
                }
            }
            return nil
        }
        return (ModelProgram(seed: program.seed, operations: shrunk.operations), lanes, shrunk.failure)
    }
}

func hex(_ value: UInt64) -> String { "0x" + String(value, radix: 16) }

/// Reports a program that runs for too long (an engine that livelocks would otherwise hang the test run
/// without naming the seed), then stops the process.
final class ModelWatchdog: Sendable {
    static let limit: Duration = .seconds(120)
    private let current = Locked<(what: String, since: ContinuousClock.Instant)?>.make(nil)
    private let stopped = Locked<Bool>.make(false)

    init() {
        let (current, stopped) = (current, stopped)
        Thread.detachNewThread {
            while !stopped.withLock({ $0 }) {
                Thread.sleep(forTimeInterval: 1)
                guard let (what, since) = current.withLock({ $0 }), since.duration(to: .now) > Self.limit else {
                    continue
                }
                fatalError(
                    "LifecycleModelTests: \(what) has run for more than \(Self.limit): a hang (replay it with "
                        + "TIMERKIT_MODEL_PROGRAM and TIMERKIT_MODEL_LENGTH)")
            }
        }
    }

    /// Starts timing `what` (nothing when nil).
    func watch(_ what: String?) { current.withLock { $0 = what.map { ($0, .now) } } }

    func stop() { stopped.withLock { $0 = true } }
}
