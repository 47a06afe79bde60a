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
