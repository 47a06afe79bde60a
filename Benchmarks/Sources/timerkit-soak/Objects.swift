import Foundation
import TimerKit

/// A slot and the creation it stands for: a handler's late request about a slot that has been refilled
/// since names an older serial and is ignored.
struct SlotTag: Sendable, Hashable {
    let slot: Int
    let serial: UInt64
}

/// An owner (or target) of bound tickers. Counted alive from `init` to `deinit`; it may keep its own
/// ticker's handle, the usual pattern (releasing it then stops the ticker at once).
final class SoakOwner: @unchecked Sendable {
    let tag: SlotTag
    let lane: Lane
    let population: Population
    private let lifetime: LifetimeCount
    // Invariant: `handle` and `work` are read or written only while `lock` is held.
    private let lock = NSLock()
    private var handle: Ticker?
    private var work: UInt64 = 0

    init(tag: SlotTag, lane: Lane, population: Population) {
        self.tag = tag
        self.lane = lane
        self.population = population
        lifetime = LifetimeCount(\.owners, in: population.tally)
    }

    /// The handle this owner keeps, if it keeps one.
    var keptHandle: Ticker? {
        get { lock.withLock { handle } }
        set { lock.withLock { handle = newValue } }
    }

    /// Some state the handlers change: what an owner's handler would update.
    func absorb(_ value: UInt64) {
        lock.withLock { work = work &* 31 &+ value }
    }

    /// Target–action with a ``Tick``.
    func tick(_ tick: Tick) {
        population.delivered(tick, tag: tag, lane: lane, anchor: self)
    }

    /// Target–action without an argument.
    func refresh() {
        population.delivered(nil, tag: tag, lane: lane, anchor: self)
    }
}

/// What a handler closure captures: where it belongs. Counted alive from `init` to `deinit`, so that a
/// handler TimerKit failed to release after its ticker stopped shows as a capture that never went away.
final class Capture: Sendable {
    let tag: SlotTag
    let lane: Lane
    let population: Population
    private let lifetime: LifetimeCount

    init(tag: SlotTag, lane: Lane, population: Population) {
        self.tag = tag
        self.lane = lane
        self.population = population
        lifetime = LifetimeCount(\.captures, in: population.tally)
    }
}

/// Counts its holder alive in one of the tally's counters: up when created, down when its holder is
/// deinitialised (the struct is not copyable, so its `deinit` runs exactly once, with the holder's).
struct LifetimeCount: ~Copyable, Sendable {
    private let counter: WritableKeyPath<Tally.Counts, Int> & Sendable
    private let tally: Tally

    init(_ counter: WritableKeyPath<Tally.Counts, Int> & Sendable, in tally: Tally) {
        self.counter = counter
        self.tally = tally
        tally.update { $0[keyPath: counter] += 1 }
    }

    deinit {
        tally.update { [counter] in $0[keyPath: counter] -= 1 }
    }
}

/// What a slot holds. Dropping it releases the owner, the handle or the task's handle.
enum Entry: Sendable {
    case empty
    /// An owner-bound or target–action ticker; the slot may keep its handle.
    case bound(SoakOwner, handle: Ticker?)
    /// A handle-owned ticker: dropping the handle cancels it.
    case handle(Ticker)
    /// An async consumer; with the owner of an `owner:` tick sequence.
    case task(Task<Void, Never>, owner: SoakOwner?)

    /// The handle to pause, resume, fire or cancel through, if there is one.
    var ticker: Ticker? {
        switch self {
        case .empty, .task: nil
        case .bound(let owner, let handle): handle ?? owner.keptHandle
        case .handle(let ticker): ticker
        }
    }

    var isEmpty: Bool {
        if case .empty = self { return true }
        return false
    }

    /// Cancels a task's consumer (tickers need no call: dropping the entry is the release).
    func cancelTask() {
        if case .task(let task, _) = self { task.cancel() }
    }
}

/// SplitMix64: a small, seedable generator, so that a seed replays the same churn decisions.
struct SplitMix: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// The generator's output function, also used to hash a handler's (seed, serial, index) into a decision.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
