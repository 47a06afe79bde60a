import Foundation
import Testing
import TimerKit
import TimerKitTesting

/// Whole-test virtual time: one trait puts everything the test creates on virtual time, whenever and
/// from whichever of its tasks it is created.
@Suite struct WholeTestTests {
    // Invariant: `ticker`, the one mutable field, is only reached under `lock`; `log` is immutable.
    final class Counter: @unchecked Sendable {
        let log = Log()
        private let lock = NSLock()
        private var ticker: Ticker?

        /// Creates a ticker later, when asked (like `viewDidAppear()`).
        func appear() {
            let made = Ticker.schedule(.every(.seconds(1)), on: .dispatch(.global())) { [log] tick in
                log.append("\(tick.index)")
            }
            lock.withLock { ticker = made }
        }
    }

    @Test(.virtualTime) func aTickerCreatedLaterByTheCodeUnderTestIsOnVirtualTime() async throws {
        let time = try #require(VirtualTime.current)
        let counter = Counter()
        counter.appear()  // not wrapped in anything
        await time.advance(by: .seconds(3))
        #expect(counter.log.all == ["1", "2", "3"])
        #expect(TickClock.uptime.now == VirtualTime.start.advanced(by: .seconds(3)))
    }

    @Test(.virtualTime) func aTickerCreatedInATaskTheTestStartsIsOnVirtualTime() async throws {
        let time = try #require(VirtualTime.current)
        let counter = Counter()
        await Task { counter.appear() }.value
        await time.advance(by: .seconds(2))
        #expect(counter.log.all == ["1", "2"])
    }

    @Test(.virtualTime, arguments: [1, 2])
    func eachTestCaseGetsAFreshVirtualTime(seconds: Int) async throws {
        let time = try #require(VirtualTime.current)
        #expect(time.now == VirtualTime.start)
        #expect(time.pendingTickers.isEmpty)
        await time.advance(by: .seconds(seconds))
        #expect(time.now == VirtualTime.start.advanced(by: .seconds(seconds)))
    }

    @Test func withoutTheTraitThereIsNoCurrentVirtualTime() {
        #expect(VirtualTime.current == nil)
        let time = VirtualTime()
        #expect(time.run { VirtualTime.current } === time)
    }

    /// Real-time tickers: code reached from a queue the test did not create runs outside the test's
    /// task, so its tickers are on real time. The trait names the creation site (a warning; with `.fail`, a
    /// failure of the test).
    @Test func aRealTimeTickerFailsTheTestWhenAskedAndNamesItsSite() async throws {
        let trait = VirtualTimeTrait.virtualTime(realTimeTickers: .fail)
        let line = Log()
        let failures = Log()
        try await withKnownIssue {
            try await trait.provideScope(for: Test.current!, testCase: Test.Case.current) {
                let ticker = await Self.makeTickerOnAnotherQueue(line: line)
                ticker.cancel()
            }
        } matching: { issue in
            // Tests running in parallel may create real-time tickers off every test's task too, which count
            // here (as documented: one per site, 17 to 21 in a full run). Only the trait's own failure
            // matches; any other issue recorded in the scope fails this test.
            let text = issue.comments.map(\.rawValue).joined()
            failures.append(text)
            return text.hasPrefix("ticker at ")
                && text.hasSuffix(
                    "was created on real time while the test ran on virtual time: advancing does not move it")
        }
        let site = "\(#fileID):\(line.all.first ?? "?") "
        #expect(failures.all.contains { $0.contains(site) }, "the failure names the creation site")
    }

    @Test func aRealTimeTickerOnlyWarnsByDefault() async throws {
        let trait = VirtualTimeTrait.virtualTime
        let line = Log()
        // No issue is recorded: a failure here would fail this test.
        try await trait.provideScope(for: Test.current!, testCase: Test.Case.current) {
            let ticker = await Self.makeTickerOnAnotherQueue(line: line)
            ticker.cancel()
        }
        #expect(line.all.count == 1)
    }

    /// A ticker made from a `DispatchQueue.async` block: outside the test's task, so on real time.
    static func makeTickerOnAnotherQueue(line: Log) async -> Ticker {
        // The ticker crosses back through a lock (not the continuation's value), which ThreadSanitizer
        // sees as ordering the queue's writes before the test's reads.
        let made = LockedTicker()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue(label: "WholeTestTests").async {
                line.append("\(#line + 1)")
                let ticker = Ticker.schedule(.after(.seconds(60)), on: .dispatch(.global())) { _ in }
                made.set(ticker)
                continuation.resume()
            }
        }
        return made.value!
    }
}

/// Every test of a suite with the trait runs on its own virtual time.
@Suite(.virtualTime) struct WholeSuiteTests {
    @Test func first() async throws {
        let time = try #require(VirtualTime.current)
        #expect(time.now == VirtualTime.start)
        await time.advance(by: .seconds(5))
    }

    @Test func second() async throws {
        let time = try #require(VirtualTime.current)
        #expect(time.now == VirtualTime.start)
        await time.advance(by: .seconds(7))
    }
}

/// A ticker handed from a queue to a test, behind an `NSLock` (`Synchronization.Mutex` draws false
/// ThreadSanitizer reports under contention on Linux).
final class LockedTicker: @unchecked Sendable {
    // Invariant: `ticker` is only reached under `lock`.
    private let lock = NSLock()
    private var ticker: Ticker?
    func set(_ ticker: Ticker) { lock.withLock { self.ticker = ticker } }
    var value: Ticker? { lock.withLock { ticker } }
}
