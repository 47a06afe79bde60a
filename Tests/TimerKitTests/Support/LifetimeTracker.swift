import Foundation

@testable import TimerKit

/// Counts live instances of tracked objects, so a test can assert that everything it made went away.
final class LifetimeTracker: Sendable {
    private let counts = Locked<(live: Int, made: Int)>.make((0, 0))

    var live: Int { counts.withLock { $0.live } }
    var made: Int { counts.withLock { $0.made } }

    func instanceMade() {
        counts.withLock {
            $0.live += 1; $0.made += 1
        }
    }
    func instanceGone() { counts.withLock { $0.live -= 1 } }
}

/// A thread-safe counter and log for handlers that run on other threads.
final class Recorder<Element: Sendable>: Sendable {
    private let storage = Locked<[Element]>.make([])

    func append(_ element: Element) { storage.withLock { $0.append(element) } }
    var values: [Element] { storage.withLock { $0 } }
    var count: Int { storage.withLock { $0.count } }
}

/// The seeds' view controller: an object that owns a repeating timer and counts its ticks.
final class Screen: @unchecked Sendable {
    // Invariant (tests only): `ticks` is only touched under `lock`; the tracker is immutable.
    private let lock = NSLock()
    private var _ticks = 0
    let tracker: LifetimeTracker?
    var ticker: Ticker?

    init(tracker: LifetimeTracker? = nil) {
        self.tracker = tracker
        tracker?.instanceMade()
    }

    deinit { tracker?.instanceGone() }

    var ticks: Int { lock.withLock { _ticks } }

    func tick(_ tick: Tick) { lock.withLock { _ticks += 1 } }
    func refresh() { lock.withLock { _ticks += 1 } }
}

/// Polls `condition` until it holds or `timeout` passes (for handlers that run on other threads).
func eventually(timeout: TimeInterval = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.002)
    }
    return condition()
}

/// A thread that runs its own run loop until stopped: a real run-loop context for tests (under Swift
/// Testing on Linux the main thread's run loop does not turn). A `parked` thread has its run loop but
/// does not run it until ``startRunning()``.
final class RunLoopThread: Sendable {
    private let loop: RunLoopReference
    private let stopFlag = Locked<Bool>.make(false)
    private let finished = DispatchSemaphore(value: 0)
    private let go = DispatchSemaphore(value: 0)
    /// Lets the thread exit once its loop has stopped running.
    private let exitGate = DispatchSemaphore(value: 0)

    init(name: String = "TimerKitTests.RunLoopThread", parked: Bool = false) {
        // The thread's block captures only what it needs (not `self`), so nothing forms a cycle.
        let ready = DispatchSemaphore(value: 0)
        let found = Locked<RunLoopReference?>.make(nil)
        let stopFlag = stopFlag
        let finished = finished
        let go = go
        let exitGate = exitGate
        let thread = Thread {
            let runLoop = RunLoop.current
            // A port keeps the loop alive when no timer is scheduled yet.
            runLoop.add(NSMachPortOrPipe.make(), forMode: .default)
            found.withLock { $0 = RunLoopReference(runLoop) }
            ready.signal()
            if parked { go.wait() }
            while !stopFlag.withLock({ $0 }) {
                _ = runLoop.run(mode: .default, before: Date().addingTimeInterval(0.05))
            }
            finished.signal()
            exitGate.wait()
        }
        thread.name = name
        thread.start()
        ready.wait()
        loop = found.withLock { $0! }
    }

    var runLoop: RunLoop { loop.runLoop }

    var context: TickerContext { .runLoop(runLoop) }

    /// Lets a parked thread run its loop (does nothing more for one that runs already).
    func startRunning() { go.signal() }

    /// Stops running the loop (if it still runs) and lets the thread end; returns once the loop has stopped.
    func stop() {
        exitGate.signal()
        stopRunningLoop()
    }

    /// Stops running the loop but keeps the thread alive (until `stop()`, or this object goes away).
    func stopRunningLoop() {
        let first = stopFlag.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        go.signal()
        finished.wait()
    }

    deinit { exitGate.signal() }
}

enum NSMachPortOrPipe {
    static func make() -> Port {
        #if canImport(Darwin)
            return NSMachPort()
        #else
            return SocketPort()
        #endif
    }
}
