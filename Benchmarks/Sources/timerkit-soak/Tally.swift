import Foundation

/// What the churn did to a slot.
enum ChurnOp: Int, CaseIterable, Codable, Sendable {
    /// Fill a slot emptied by a handler or whose ticker finished on its own.
    case refill
    /// Drop the slot's owner, handle or task and put a new ticker in its place.
    case replace
    /// `cancel()`, then a new ticker in its place.
    case cancel
    /// `pause()`; the same thread resumes it 0.2 to 1 s later.
    case pause
    case resume
    /// `fire()`.
    case fire
    /// Drop the slot's owner, handle or task; the slot is refilled by the next batch.
    case release

    var name: String { String(describing: self) }
}

/// What a handler did besides its little work, now and then.
enum Misbehaviour: Int, CaseIterable, Codable, Sendable {
    /// `cancel()` on its own ticker (through the handle its owner keeps).
    case cancelOwn
    /// Schedules a one-shot bound to its own owner (or to a token only the new handler holds).
    case scheduleAnother
    /// Makes the population drop its owner or its handle, from inside the handler.
    case releaseOwn
    /// An async consumer leaves its `for await` loop.
    case breakLoop

    var name: String { String(describing: self) }
}

/// The soak's own counts: objects alive (from their `init` and `deinit`), handler calls per lane, churn
/// operations and handler misbehaviours. One lock; every update is a few additions.
final class Tally: @unchecked Sendable {
    /// A copy of the counts.
    struct Counts: Codable, Sendable {
        /// Live `SoakOwner`s (owners and targets).
        var owners = 0
        /// Live handler captures (`Capture`): one per closure handed to TimerKit.
        var captures = 0
        /// Async consumers whose task has not returned yet.
        var tasks = 0
        var fires: [Int]
        var ops = [Int](repeating: 0, count: ChurnOp.allCases.count)
        var misbehaviours = [Int](repeating: 0, count: Misbehaviour.allCases.count)
        /// TimerKit diagnostics messages received, and the first few of them.
        var diagnostics = 0
        var firstDiagnostics: [String] = []
        /// Folds the handlers' work in, so that it cannot be optimised away.
        var checksum: UInt64 = 0

        var totalFires: Int { fires.reduce(0, +) }
        var totalOps: Int { ops.reduce(0, +) }

        /// What was counted since `earlier` (fires, operations, misbehaviours and diagnostics; live
        /// objects as they are now).
        func since(_ earlier: Counts) -> Counts {
            var counts = self
            counts.fires = zip(fires, earlier.fires).map { $0 - $1 }
            counts.ops = zip(ops, earlier.ops).map { $0 - $1 }
            counts.misbehaviours = zip(misbehaviours, earlier.misbehaviours).map { $0 - $1 }
            counts.diagnostics -= earlier.diagnostics
            return counts
        }
    }

    // Invariant: `counts` is read or written only while `lock` is held.
    private let lock = NSLock()
    private var counts: Counts

    init(lanes: Int) {
        counts = Counts(fires: [Int](repeating: 0, count: lanes))
    }

    func update(_ body: (inout Counts) -> Void) {
        lock.lock()
        body(&counts)
        lock.unlock()
    }

    func read() -> Counts {
        lock.lock()
        defer { lock.unlock() }
        return counts
    }

    func fired(lane: Int, work: UInt64) {
        update {
            $0.fires[lane] += 1
            $0.checksum &+= work
        }
    }

    func count(_ op: ChurnOp) { update { $0.ops[op.rawValue] += 1 } }

    func count(_ misbehaviour: Misbehaviour) { update { $0.misbehaviours[misbehaviour.rawValue] += 1 } }

    func diagnostic(_ message: String) {
        update {
            $0.diagnostics += 1
            if $0.firstDiagnostics.count < 3 { $0.firstDiagnostics.append(message) }
        }
    }
}
