import Foundation
import Testing

@testable import TimerKit

// Helpers shared by ScheduleMathTests, DriftAndSkipTests, LifecycleMatrixTests and PeerRegressionTests.
// Names carry a `Contract` prefix so they cannot clash with helpers other test files add.

/// The two kinds of context every lifecycle behaviour runs on under virtual time.
///
/// Under virtual time no real run loop or queue is involved (the virtual clock wakes the context's engine
/// on the thread that advances), so the run-loop case can use the main run loop without running it; the
/// main loop is used rather than `RunLoop.current` because scheduling on a non-running current loop logs
/// a (correct) warning for every ticker.
enum ContractContext: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case dispatch
    case runLoop
    case precise

    static let queue = DispatchQueue(label: "TimerKitTests.contract")

    var context: TickerContext {
        switch self {
        case .dispatch: .dispatch(Self.queue)
        case .runLoop: .runLoop(RunLoop.main)
        case .precise: .precise(label: "TimerKitTests.contract.precise")
        }
    }

    /// Whether the engine of this context goes away with its last ticker (run-loop and precise engines
    /// are permanent, so their single alarm stays registered).
    var engineIsReleasedWhenIdle: Bool { self == .dispatch }

    var testDescription: String { rawValue }
}

/// An object captured by a handler, so that a weak reference to it tells whether the handler was freed.
final class ContractProbe: Sendable {}

/// A thread-safe optional strong reference that a handler can clear (to drop the last reference to an
/// owner from inside the handler) or a test can read.
final class ContractBox<Value: Sendable>: Sendable {
    private let storage: Locked<Value?>

    init(_ value: Value? = nil) {
        storage = .make(value)
    }

    var value: Value? { storage.withLock { $0 } }

    func set(_ value: Value?) {
        let old = storage.withLock { state -> Value? in
            let old = state
            state = value
            return old
        }
        _ = old  // released here, outside the lock
    }

    func clear() { set(nil) }
}

/// An owner (a "view controller") that records the ticks it receives and may keep its own handle.
final class ContractOwner: Sendable {
    let ticks = Recorder<Tick>()
    let tracker: LifetimeTracker?
    private let handle = ContractBox<Ticker>()

    init(tracker: LifetimeTracker? = nil) {
        self.tracker = tracker
        tracker?.instanceMade()
    }

    deinit { tracker?.instanceGone() }

    /// The owner's own handle (the usual `var timer` property of a view controller).
    var ticker: Ticker? {
        get { handle.value }
        set { handle.set(newValue) }
    }

    func record(_ tick: Tick) { ticks.append(tick) }
}

/// A `fileID` unique to one test, so that its diagnostics can be told from every other test's.
func contractUniqueFileID(_ name: String = #function) -> String {
    "TimerKitTests/\(name.prefix { $0 != "(" })-\(UUID().uuidString.prefix(8)).swift"
}
