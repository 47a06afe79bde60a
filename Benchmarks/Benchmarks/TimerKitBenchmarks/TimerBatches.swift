import Dispatch
import Foundation
import TimerKit

/// A batch of one-shot timers of one kind on one context: what every benchmark drives.
///
/// Each kind is used the way an app uses it: one handle or object per timer, kept by the caller, and
/// created, cancelled and released on the thread its API expects. All methods are called from the
/// benchmark thread, one at a time.
protocol TimerBatch: AnyObject {
    /// Creates and schedules `count` one-shots due `delay` from their creation; each calls
    /// `counter.hit()` when it fires.
    func schedule(_ count: Int, after delay: Duration, counter: FireCounter)

    /// Cancels every timer of the batch and releases them, as an app does: without waiting for the clean-up
    /// that the kind does asynchronously.
    func cancelAll()

    /// Waits, as well as it can from outside, until the asynchronous clean-up after ``cancelAll()`` is done.
    func settle()

    /// Cancels and releases every timer of the batch, then waits until the asynchronous clean-up is done.
    func cancelAllAndSettle()

    /// After every timer of the batch fired: releases them, with the clean-up the kind requires, and waits
    /// until the asynchronous clean-up is done.
    func releaseFiredAndSettle()
}

extension TimerBatch {
    func cancelAllAndSettle() {
        cancelAll()
        settle()
    }
}

/// TimerKit tickers on one context, one handle-owned `Ticker` each.
///
/// On a run-loop context the tickers are created and cancelled on the loop's own thread, as an app does
/// on its main thread; on the other contexts, on the benchmark thread.
final class TimerKitBatch: TimerBatch, @unchecked Sendable {
    // Invariant: `tickers` is used by one thread at a time: the benchmark thread, or the loop thread while
    // the benchmark thread waits for it in `loopThread.run`.
    private var tickers: [Ticker] = []
    private let context: TickerContext
    private let loopThread: RunLoopThread?
    private let queue: DispatchQueue?

    /// Tickers on `.dispatch(queue)`.
    init(dispatchQueue queue: DispatchQueue) {
        context = .dispatch(queue)
        loopThread = nil
        self.queue = queue
    }

    /// Tickers on `.runLoop(thread.runLoop)`.
    init(runLoopThread thread: RunLoopThread) {
        context = .runLoop(thread.runLoop)
        loopThread = thread
        queue = nil
    }

    /// Tickers on `context`, which has no queue to wait on (such as `.precise`).
    init(context: TickerContext) {
        self.context = context
        loopThread = nil
        queue = nil
    }

    func schedule(_ count: Int, after delay: Duration, counter: FireCounter) {
        onContextThread { [self] in
            tickers.reserveCapacity(count)
            for _ in 0..<count {
                tickers.append(Ticker.schedule(.after(delay), on: context) { _ in counter.hit() })
            }
        }
    }

    func cancelAll() {
        onContextThread { [self] in
            for ticker in tickers {
                ticker.cancel()
            }
            tickers.removeAll(keepingCapacity: true)
        }
    }

    func releaseFiredAndSettle() {
        // A fired one-shot is finished: releasing its handle is all the clean-up it needs.
        onContextThread { [self] in
            tickers.removeAll(keepingCapacity: true)
        }
        settle()
    }

    func settle() {
        if let loopThread {
            loopThread.run {}
        } else if let queue {
            settleQueue(queue)
        } else {
            // A precise context's engine works on its own thread, which offers nothing to wait on.
            Thread.sleep(forTimeInterval: 0.005)
        }
    }

    private func onContextThread(_ work: @escaping @Sendable () -> Void) {
        if let loopThread {
            loopThread.run(work)
        } else {
            work()
        }
    }
}

/// One `DispatchSourceTimer` per timer, on a serial queue: the raw primitive of a dispatch context.
final class DispatchSourceBatch: TimerBatch {
    private var sources: [any DispatchSourceTimer] = []
    private let queue: DispatchQueue
    private let flags: DispatchSource.TimerFlags

    init(queue: DispatchQueue, flags: DispatchSource.TimerFlags = []) {
        self.queue = queue
        self.flags = flags
    }

    func schedule(_ count: Int, after delay: Duration, counter: FireCounter) {
        sources.reserveCapacity(count)
        let nanoseconds = Int(delay.nanoseconds)
        for _ in 0..<count {
            let source = DispatchSource.makeTimerSource(flags: flags, queue: queue)
            source.setEventHandler { counter.hit() }
            source.schedule(deadline: .now() + .nanoseconds(nanoseconds))
            source.resume()
            sources.append(source)
        }
    }

    func cancelAll() {
        // Every source was resumed once and never suspended, so cancelling and releasing it is safe.
        for source in sources {
            source.cancel()
        }
        sources.removeAll(keepingCapacity: true)
    }

    func settle() {
        settleQueue(queue)
    }

    func cancelAllAndSettle() {
        // A cancel handler per source tells when libdispatch is done with it (it releases the source right
        // after the handler, within the same drain of the queue); the handlers are released with them.
        let cancelled = DispatchGroup()
        for source in sources {
            cancelled.enter()
            source.setCancelHandler { cancelled.leave() }
            source.cancel()
        }
        sources.removeAll(keepingCapacity: true)
        cancelled.wait()
        queue.sync {}
    }

    func releaseFiredAndSettle() {
        // A fired one-shot source stays registered until it is cancelled.
        cancelAllAndSettle()
    }
}

/// One `Foundation.Timer` per timer on a thread running its own run loop: the raw primitive of a run-loop
/// context. Timers are created, added and invalidated on the loop's thread, as Foundation requires.
final class FoundationTimerBatch: TimerBatch, @unchecked Sendable {
    // Invariant: `timers` is touched only on `loopThread`'s thread (inside `loopThread.run`).
    private var timers: [Foundation.Timer] = []
    private let loopThread: RunLoopThread

    init(runLoopThread: RunLoopThread) {
        loopThread = runLoopThread
    }

    func schedule(_ count: Int, after delay: Duration, counter: FireCounter) {
        let seconds = delay.seconds
        loopThread.run { [self] in
            let runLoop = RunLoop.current
            timers.reserveCapacity(count)
            for _ in 0..<count {
                // An explicit fire date: on Linux a block timer added without one fires at once.
                let timer = Foundation.Timer(fire: Date(timeIntervalSinceNow: seconds), interval: 0, repeats: false) {
                    _ in counter.hit()
                }
                runLoop.add(timer, forMode: .common)
                timers.append(timer)
            }
        }
    }

    func cancelAll() {
        loopThread.run { [self] in
            for timer in timers {
                timer.invalidate()
            }
            timers.removeAll(keepingCapacity: true)
        }
    }

    func releaseFiredAndSettle() {
        // A non-repeating timer invalidates itself when it fires.
        loopThread.run { [self] in
            timers.removeAll(keepingCapacity: true)
        }
    }

    func settle() {
        loopThread.run {}
    }
}

/// Waits until work already submitted to `queue` (cancellation of its sources included) has run, and a
/// little longer for the dispose of cancelled sources (best effort: nothing tells when it is done).
private func settleQueue(_ queue: DispatchQueue) {
    queue.sync {}
    Thread.sleep(forTimeInterval: 0.005)
    queue.sync {}
}
