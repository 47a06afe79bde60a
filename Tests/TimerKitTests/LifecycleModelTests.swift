import Foundation
import Testing

@testable import TimerKit

/// Seeded, model-based random testing of the lifecycle: random programs of create / start / pause /
/// resume / cancel / fire / release owner / release handle / advance time — with handlers that stall
/// their context — issued from one and from four threads over every context under virtual time, each
/// checked step by step against `LifecycleModel` (see LifecycleModel.swift and LifecycleModelRun.swift).
///
/// The default is a bounded slice for CI. The long mode runs a million operations or more:
///
///     TIMERKIT_MODEL_OPERATIONS=1000000 swift test -c release --filter LifecycleModelTests
///
/// A failure names the seed, the thread count and the shortest program found that still fails, and the
/// command that replays it (`TIMERKIT_MODEL_SEED`).
@Suite struct LifecycleModelTests {
    /// What to run, from the environment.
    struct Settings: CustomStringConvertible {
        /// Operations per thread count (the CI slice by default).
        var operations = 12_000
        /// The first program's seed; program i uses `seed + i·golden`.
        var seed: UInt64 = 0x7131_E4C1_D00D_5EED
        var programLength = 300

        static var current: Settings {
            var settings = Settings()
            let environment = ProcessInfo.processInfo.environment
            if let value = environment["TIMERKIT_MODEL_OPERATIONS"], let operations = Int(value), operations > 0 {
                settings.operations = operations
            }
            if let value = environment["TIMERKIT_MODEL_SEED"], let seed = parseSeed(value) {
                settings.seed = seed
            }
            return settings
        }

        static func parseSeed(_ text: String) -> UInt64? {
            text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
        }

        static func seed(ofProgram program: Int, from seed: UInt64) -> UInt64 {
            seed &+ UInt64(program) &* 0x9E37_79B9_7F4A_7C15
        }

        var description: String { "\(operations) operations from seed \(hex(seed))" }
    }

    @Test(arguments: [1, 4])
    func randomProgramsAgreeWithTheModel(threads: Int) {
        let settings = Settings.current
        let began = ContinuousClock.now
        var done = 0
        var program = 0
        var coverage = ModelCoverage()
        while done < settings.operations {
            let seed = Settings.seed(ofProgram: program, from: settings.seed)
            let length = min(settings.programLength, settings.operations - done)
            let candidate = ModelProgram.random(seed: seed, length: length)
            if let failure = LifecycleModelRun.check(candidate, threads: threads, coverage: &coverage) {
                Issue.record(Comment(rawValue: Self.report(candidate, threads: threads, failure: failure)))
                return
            }
            done += length
            program += 1
            if settings.operations > Settings().operations, program % 200 == 0 {
                print("LifecycleModelTests: \(threads) thread(s), \(done) operations, \(ContinuousClock.now - began)")
            }
        }
        #expect(coverage.isComplete, "the programs did not exercise everything: \(coverage)")
        if settings.operations > Settings().operations {
            print(
                "LifecycleModelTests: \(threads) thread(s), \(done) operations in \(program) programs "
                    + "from seed \(hex(settings.seed)) agreed with the model in \(ContinuousClock.now - began): "
                    + "\(coverage)")
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

    /// The model against numbers worked out by hand: a handler that blocks its context for 5 ms makes
    /// the context's other ticker skip, while a ticker on another context stays on time.
    @Test func stallingHandlerMakesItsContextSkipAsWorkedOutByHand() {
        let every2 = ModelSpec(
            context: 0, intervalMilliseconds: 2, firstDelayMilliseconds: nil, count: nil, startsImmediately: true,
            binding: .handle, stallMilliseconds: nil)
        var elsewhere = every2
        elsewhere.context = 1
        let staller = ModelSpec(
            context: 0, intervalMilliseconds: 1, firstDelayMilliseconds: 3, count: 1, startsImmediately: true,
            binding: .handle, stallMilliseconds: 5)
        let program = ModelProgram(
            seed: 0,
            operations: [.create(0, every2), .create(1, elsewhere), .create(2, staller), .advance(milliseconds: 10)])
        var model = LifecycleModel(warnsAboutMistakes: false)
        program.operations.forEach { model.apply($0) }
        let ms: (Int64) -> Int64 = { VirtualTimeStart.nanoseconds + $0 * 1_000_000 }
        func tick(_ index: Int, due: Int64, at: Int64, skipped: Int = 0, fireCount: Int) -> Tick {
            .model(
                index: index, deadline: ms(due), timestamp: ms(at), skipped: skipped, remaining: nil,
                fireCount: fireCount, isManual: false)
        }
        // Deadlines 4 and 6 pass during the stall (3 ms to 8 ms): one delivery for deadline 8 at 8 ms.
        #expect(
            model.tickers[0].ticks == [
                tick(1, due: 2, at: 2, fireCount: 1), tick(4, due: 8, at: 8, skipped: 2, fireCount: 2),
                tick(5, due: 10, at: 10, fireCount: 3),
            ])
        #expect(model.tickers[1].ticks.map(\.index) == [1, 2, 3, 4, 5])
        #expect(model.tickers[1].ticks.allSatisfy { $0.deadline == $0.timestamp && $0.skipped == 0 })
        #expect(model.tickers[2].state == .finished)
        #expect(model.now == ms(10))
        #expect(LifecycleModelRun.check(program, threads: 1) == nil)
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
            replay: TIMERKIT_MODEL_SEED=\(hex(program.seed)) TIMERKIT_MODEL_OPERATIONS=\(program.operations.count) \
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
        var current = ModelProgram(seed: program.seed, operations: Array(program.operations.prefix(failure.steps)))
        var lastFailure = failure
        let lanes = LifecycleModelRun.check(current, threads: 1, modelSees: modelSees) != nil ? 1 : threads
        let attempts = lanes == 1 ? 1 : 3
        var budget = 4_000
        func fails(_ candidate: ModelProgram) -> LifecycleModelRun.Failure? {
            for _ in 0..<attempts {
                budget -= 1
                if let failure = LifecycleModelRun.check(candidate, threads: lanes, modelSees: modelSees) {
                    return failure
                }
            }
            return nil
        }
        var chunk = max(1, current.operations.count / 2)
        while budget > 0 {
            var start = 0
            var removed = false
            while start < current.operations.count, budget > 0 {
                let candidate = current.removing(start..<min(start + chunk, current.operations.count))
                if let failure = fails(candidate) {
                    current = candidate
                    lastFailure = failure
                    removed = true
                } else {
                    start += chunk
                }
            }
            if chunk == 1, !removed { break }
            if !removed { chunk = max(1, chunk / 2) }
        }
        return (current, lanes, lastFailure)
    }
}

func hex(_ value: UInt64) -> String { "0x" + String(value, radix: 16) }
