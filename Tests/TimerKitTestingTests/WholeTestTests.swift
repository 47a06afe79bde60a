import Foundation
import Testing
import TimerKit
import TimerKitTestSupport

@testable import TimerKitTesting

/// Whole-test virtual time: one trait puts everything the test creates on virtual time, whenever and
/// from whichever of its tasks it is created.
@Suite struct WholeTestTests {
    init() { LogCapture.install() }

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
    /// task, so its tickers are on real time. A `.fail` scope names the creation site in a failure located
    /// there. Checked on the scope's findings rather than through recorded issues: tests running in
    /// parallel create real-time tickers off every test's task too, which a scope counts as well (see
    /// `VirtualTimeTrait`), so the number of issues a recording scope would see changes from run to run.
    @Test func aRealTimeTickerFailsTheTestWhenAskedAndNamesItsSite() async throws {
        let line = Log()
        let found = await VirtualTime().runWatching(isMine: { true }) {
            let ticker = await Self.makeTickerOnAnotherQueue(line: line)
            ticker.cancel()
        }
        let site = try #require(line.all.first.flatMap(Int.init))
        let failures = VirtualTimeTrait.failures(for: found).filter {
            $0.sourceLocation.fileID == #fileID && $0.sourceLocation.line == site
        }
        #expect(failures.count == 1, "one failure for the site, located there")
        #expect(
            failures.first?.comment.rawValue
                == "ticker at \(#fileID):\(site) (dispatch(com.apple.root.default-qos)) was created on real time "
                + "while the test ran on virtual time: advancing does not move it")
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
