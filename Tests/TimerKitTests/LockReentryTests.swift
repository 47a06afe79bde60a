import Foundation
import Testing
import TimerKitTestSupport

@testable import TimerKit

/// The engine loads owners from weak references (to deliver, and to sweep dead ones). A loaded reference
/// may turn out to be the owner's last one when another thread drops its own meanwhile, so the owner's
/// `deinit` — user code, here releasing its handle and cancelling another ticker of the same engine — must
/// never run while the engine's lock is held. These races would deadlock if it did.
@Suite struct LockReentryTests {
    init() { LogCapture.install() }

    // Invariant: `ticker` is set once right after creation, before the owner is shared.
    final class HandleHoldingOwner: @unchecked Sendable {
        var ticker: Ticker?
        let onDeinit: @Sendable () -> Void
        init(onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
        deinit { onDeinit() }
    }

    /// Runs `body` on `threads` threads and reports whether all finished within `timeout` (a deadlock
    /// does not).
    func finishes(within timeout: TimeInterval, threads: Int = 1, _ body: @escaping @Sendable () -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        for _ in 0..<threads {
            Thread {
                body()
                done.signal()
            }.start()
        }
        return (0..<threads).allSatisfy { _ in done.wait(timeout: .now() + timeout) == .success }
    }

    /// Makes owners that hold their handles, lets the engine deliver to them every 100 µs, and drops them
    /// from this thread, for `seconds`. Each owner's deinit calls back into the same engine.
    func churn(
        on context: TickerContext, for seconds: TimeInterval, threads: Int, deinits: Recorder<Int>, made: Recorder<Int>
    ) -> Bool {
        let bystander = Ticker.schedule(.every(.seconds(3_600)), on: context) { _ in }
        let until = Date().addingTimeInterval(seconds)
        let finished = finishes(within: 20, threads: threads) {
            while Date() < until {
                var owners = (0..<64).map { _ in
                    let owner = HandleHoldingOwner {
                        deinits.append(1)
                        bystander.fire()
                    }
                    owner.ticker = Ticker.schedule(.every(.microseconds(100)), on: context, owner: owner) { _, _ in }
                    made.append(1)
                    return owner
                }
                usleep(UInt32.random(in: 0..<300))
                owners.shuffle()
                while !owners.isEmpty { owners.removeLast() }
            }
        }
        // After a deadlock every call into the engine would hang: leave it alone then.
        if finished { bystander.cancel() }
        return finished
    }

    @Test func ownersReleasedElsewhereWhileTheEngineDeliversDoNotDeadlock() {
        let queue = DispatchQueue(label: "LockReentryTests.deliver")
        let context = TickerContext.dispatch(queue)
        let made = Recorder<Int>()
        let deinits = Recorder<Int>()
        let finished = churn(on: context, for: 2, threads: 2, deinits: deinits, made: made)
        #expect(finished, "the engine deadlocked: an owner's deinit ran under its lock")
        guard finished else { return }
        #expect(eventually { deinits.count == made.count }, "owners were never released")
        #expect(eventually { TimeBase.system.engine(for: context).liveCount() == 0 })
    }

    @Test func ownersReleasedElsewhereWhileTheEngineSweepsDoNotDeadlock() {
        let queue = DispatchQueue(label: "LockReentryTests.sweep")
        let context = TickerContext.dispatch(queue)
        let made = Recorder<Int>()
        let deinits = Recorder<Int>()
        let stop = Locked<Bool>.make(false)
        // Listing live tickers sweeps every owner of the engine.
        Thread {
            while !stop.withLock({ $0 }) { _ = TimeBase.system.engine(for: context).liveSnapshots() }
        }.start()
        let finished = churn(on: context, for: 1, threads: 1, deinits: deinits, made: made)
        stop.withLock { $0 = true }
        #expect(finished, "the engine deadlocked: an owner's deinit ran under its lock")
        guard finished else { return }
        #expect(eventually { deinits.count == made.count }, "owners were never released")
        #expect(eventually { TimeBase.system.engine(for: context).liveCount() == 0 })
    }
}
