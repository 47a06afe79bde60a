import Dispatch
import Foundation

/// Counts handler calls of one batch and lets the benchmark wait until all of them ran.
///
/// Handlers capture only this counter: it holds no timer, so no handler can form a cycle.
final class FireCounter: @unchecked Sendable {
    // Invariant: `fired` is read and written only while `lock` is held.
    private let lock = NSLock()
    private var fired = 0
    private let expected: Int
    private let allFired = DispatchSemaphore(value: 0)

    init(expecting expected: Int) {
        self.expected = expected
    }

    /// Called by every handler.
    func hit() {
        lock.lock()
        fired += 1
        let isLast = fired == expected
        lock.unlock()
        if isLast { allFired.signal() }
    }

    /// Waits until `expected` handlers ran; false if that took longer than `timeout`.
    func waitUntilAllFired(timeout: Duration = .seconds(60)) -> Bool {
        allFired.wait(timeout: .now() + .nanoseconds(Int(timeout.nanoseconds))) == .success
    }
}

/// A thread that runs its own run loop for the life of the process, and runs jobs on that thread.
///
/// One repeating `Foundation.Timer` (the doorbell), due in the distant future, keeps the loop running.
/// ``run(_:)`` queues a job, sets the doorbell's fire date to now (CFRunLoop takes its lock, so this is
/// safe from another thread, as TimerKit's run-loop driver relies on too) and waits until the job has
/// run inside the doorbell's call on the loop's thread.
final class RunLoopThread: @unchecked Sendable {
    // Invariant: `runLoop` and `doorbell` are created on the loop's thread, published before `init`
    // returns and never replaced; other threads only pass `runLoop` to TimerKit (which only calls its
    // thread-safe operations) and set `doorbell.fireDate`. `job` is read and written only while `lock`
    // is held. One caller at a time: the benchmarks call `run` from the benchmark thread only.
    let runLoop: RunLoop
    private let doorbell: Foundation.Timer
    private let lock = NSLock()
    private var job: (@Sendable () -> Void)?
    private let jobDone = DispatchSemaphore(value: 0)

    init(name: String) {
        let handOver = HandOver()
        let thread = Thread {
            Thread.current.name = name
            let loop = RunLoop.current
            let doorbell = Foundation.Timer(fire: .distantFuture, interval: 1e9, repeats: true) { _ in
                handOver.owner?.runPendingJob()
            }
            loop.add(doorbell, forMode: .common)
            handOver.publish(loop, doorbell)
            while true {
                loop.run()
            }
        }
        thread.start()
        (runLoop, doorbell) = handOver.wait()
        handOver.owner = self
    }

    /// Runs `job` on the loop's thread, inside a call from the run loop, and returns when it is done.
    func run(_ job: @escaping @Sendable () -> Void) {
        lock.lock()
        self.job = job
        lock.unlock()
        doorbell.fireDate = Date()
        jobDone.wait()
    }

    private func runPendingJob() {
        lock.lock()
        let pending = job
        job = nil
        lock.unlock()
        guard let pending else { return }
        pending()
        jobDone.signal()
    }

    /// Carries the loop and its doorbell from the new thread to `init`, and the thread object back.
    private final class HandOver: @unchecked Sendable {
        // Invariant: `loop` and `doorbell` are written once before `ready` is signalled and read after
        // waiting on it; `owner` is written once before the first job is queued (and the doorbell rings
        // only for jobs), and is weak, so the thread does not keep its `RunLoopThread` alive.
        private var loop: RunLoop?
        private var doorbell: Foundation.Timer?
        private let ready = DispatchSemaphore(value: 0)
        weak var owner: RunLoopThread?

        func publish(_ loop: RunLoop, _ doorbell: Foundation.Timer) {
            self.loop = loop
            self.doorbell = doorbell
            ready.signal()
        }

        func wait() -> (RunLoop, Foundation.Timer) {
            ready.wait()
            return (loop!, doorbell!)
        }
    }
}

extension Duration {
    /// The duration in seconds, as Foundation and Dispatch take it.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }

    /// The duration in whole nanoseconds.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
