import Foundation

// What the frame and rate-limiter model tests share: seeds from the environment, and shrinking a failing
// program to the fewest steps that still fail. (The ticker's LifecycleModelTests keeps its own, which also
// shrinks across threads.)

/// A model test's settings, from the environment: `<PREFIX>_PROGRAMS` programs (the CI slice by default)
/// of `<PREFIX>_LENGTH` steps drawn from `<PREFIX>_SEED`, or one program replayed with `<PREFIX>_PROGRAM`.
struct ModelCheckSettings {
    var programs: Int
    var length: Int
    var seed: UInt64
    var program: UInt64?

    init(prefix: String, programs: Int, length: Int, seed: UInt64) {
        let environment = ProcessInfo.processInfo.environment
        self.programs = environment["\(prefix)_PROGRAMS"].flatMap(Int.init).map { max(1, $0) } ?? programs
        self.length = environment["\(prefix)_LENGTH"].flatMap(Int.init).map { max(1, $0) } ?? length
        self.seed = environment["\(prefix)_SEED"].flatMap(Self.parseSeed) ?? seed
        self.program = environment["\(prefix)_PROGRAM"].flatMap(Self.parseSeed)
    }

    static func parseSeed(_ text: String) -> UInt64? {
        text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
    }

    /// The programs' seeds: the replayed one, or draws from the master seed.
    var seeds: [UInt64] {
        if let program { return [program] }
        var master = ConcurrencyStressTests.SplitMix64(state: seed)
        return (0..<programs).map { _ in master.next() }
    }
}

/// A model-check failure: what disagreed, after how many steps.
struct ModelFailure: Error, CustomStringConvertible {
    let step: Int
    let message: String

    var description: String { "step \(step): \(message)" }
}

enum ModelShrink {
    /// Deletes steps from `operations` (chunks, then single steps) while `check` still fails; returns the
    /// shortest program found and its last failure. `budget` bounds the candidates tried. `removing`
    /// deletes a range of steps (by default as is; a program whose steps name what earlier steps made
    /// renumbers the rest).
    static func shrink<Operation, Failure>(
        _ operations: [Operation], failure: Failure, budget: Int = 3_000,
        removing: ([Operation], Range<Int>) -> [Operation] = { operations, range in
            var rest = operations
            rest.removeSubrange(range)
            return rest
        },
        check: ([Operation]) -> Failure?
    ) -> (operations: [Operation], failure: Failure) {
        var current = operations
        var lastFailure = failure
        var budget = budget
        var chunk = max(1, current.count / 2)
        while budget > 0 {
            var start = 0
            var removed = false
            while start < current.count, budget > 0 {
                budget -= 1
                let candidate = removing(current, start..<min(start + chunk, current.count))
                if let failure = check(candidate) {
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
        return (current, lastFailure)
    }

    /// `shrink` of a model check's failing program, first cut after the failing step.
    static func shrinkFailing<Operation>(
        _ operations: [Operation], failure: ModelFailure,
        removing: @escaping ([Operation], Range<Int>) -> [Operation], check: ([Operation]) -> ModelFailure?
    ) -> (operations: [Operation], failure: ModelFailure) {
        shrink(
            Array(operations.prefix(failure.step + 1)), failure: failure, budget: 3_000, removing: removing,
            check: check)
    }
}

/// A model-checked feature: its random programs, how to delete steps from one, and the check.
protocol ModelChecked {
    associatedtype Operation: CustomStringConvertible
    associatedtype Mutant

    /// Names the feature in reports ("frame", "rate-limiter") and the environment prefix.
    static var name: String { get }
    static var settings: ModelCheckSettings { get }
    /// The test suite that replays a program.
    static var suite: String { get }
    static func random(seed: UInt64, length: Int) -> [Operation]
    static func removing(_ program: [Operation], _ range: Range<Int>) -> [Operation]
    /// Runs `program` against the model (with `mutant` planted in it, if any); the first disagreement.
    static func check(_ program: [Operation], mutant: Mutant?, covered: inout Set<String>) -> ModelFailure?
}

extension ModelChecked {
    static func check(_ program: [Operation], mutant: Mutant? = nil) -> ModelFailure? {
        var covered = Set<String>()
        return check(program, mutant: mutant, covered: &covered)
    }

    /// Checks the settings' programs; returns what they exercised, or a report of the first
    /// disagreement (with its shortest failing program and the command that replays it).
    static func checkRandomPrograms() -> Result<Set<String>, ModelReport> {
        var covered = Set<String>()
        for seed in settings.seeds {
            let program = random(seed: seed, length: settings.length)
            guard let failure = check(program, mutant: nil, covered: &covered) else { continue }
            let shrunk = ModelShrink.shrinkFailing(program, failure: failure, removing: removing) { check($0) }
            let prefix = "TIMERKIT_\(name.uppercased().replacingOccurrences(of: "-", with: "_"))_MODEL"
            return .failure(
                ModelReport(
                    text: """
                        TimerKit disagrees with the \(name) model: \(failure)
                        seed \(hex(seed)); shortest program found (\(shrunk.operations.count) steps) fails \
                        \(shrunk.failure):
                        \(shrunk.operations.map(\.description).joined(separator: ", "))
                        replay: \(prefix)_PROGRAM=\(hex(seed)) \(prefix)_LENGTH=\(settings.length) \
                        swift test --filter \(suite)
                        """))
        }
        return .success(covered)
    }

    /// The shortest program found that fails with `mutant` planted in the model (nil: none fails).
    static func shrunkFailure(with mutant: Mutant) -> (operations: [Operation], failure: ModelFailure)? {
        let fails = { (program: [Operation]) in check(program, mutant: mutant) }
        guard
            let failing = settings.seeds.lazy.map({ random(seed: $0, length: settings.length) }).first(where: {
                fails($0) != nil
            })
        else { return nil }
        return ModelShrink.shrinkFailing(failing, failure: fails(failing)!, removing: removing, check: fails)
    }
}

/// A model check's report of a disagreement.
struct ModelReport: Error, CustomStringConvertible {
    let text: String
    var description: String { text }
}
