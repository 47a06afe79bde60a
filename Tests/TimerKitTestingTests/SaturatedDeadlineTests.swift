import Foundation
import Testing
import TimerKit
import TimerKitTestSupport
import TimerKitTesting

/// A deadline beyond about 292 years saturates at the end of the timeline and is never reached: it never
/// fires, and advancing to the end of time returns. Each handler gives up (cancels its ticker) after a few
/// calls, so that a busy loop fails the test instead of hanging it.
@Suite struct SaturatedDeadlineTests {
    init() { LogCapture.install() }

    /// Calls a handler received, from any thread; after `giveUp` calls it cancels the ticker it watches.
    final class Calls: @unchecked Sendable {
        // Invariant: `count` and `ticker` are only reached under `lock`.
        private let lock = NSLock()
        private var count = 0
        private var ticker: Ticker?

        func watch(_ ticker: Ticker) { lock.withLock { self.ticker = ticker } }

        /// Counts a call; the tenth cancels the ticker (outside the lock), ending a runaway loop.
        func record() {
            let runaway = lock.withLock { () -> Ticker? in
                count += 1
                return count >= Self.giveUp ? ticker : nil
            }
            runaway?.cancel()
        }

        var total: Int { lock.withLock { count } }

        static let giveUp = 10
    }

    enum Move: String, CaseIterable, Sendable {
        case advance, runUntilIdle
    }

    static let endOfTime = Duration.seconds(Int64.max)

    /// Schedules of which every deadline saturates.
    static let neverReached: [(String, TickSchedule)] = [
        ("repeating", .every(endOfTime)),
        ("counted", .every(endOfTime, count: 3)),
        ("one-shot", .after(endOfTime)),
        ("at distantFuture", .at(.distantFuture)),
        ("countdown", .countdown(from: 3, every: endOfTime)),
    ]

    static func move(_ move: Move, _ time: VirtualTime) {
        switch move {
        case .advance: time.advance(by: endOfTime)
        case .runUntilIdle: time.runUntilIdle(horizon: endOfTime)
        }
    }

    @Test
    func aSaturatedDeadlineNeverFires() {
        for move in Move.allCases {
            Self().aSaturatedDeadlineNeverFires(move)
        }
    }

    func aSaturatedDeadlineNeverFires(_ move: Move) {
        for (name, schedule) in Self.neverReached {
            let time = VirtualTime()
            let calls = Calls()
            let ticker = time.run {
                Ticker.schedule(schedule, on: .precise(label: "TimerKitTests.saturated")) { _ in calls.record() }
            }
            calls.watch(ticker)
            Self.move(move, time)
            #expect(calls.total == 0, "\(name): the handler ran \(calls.total) times; move \(move)")
            #expect(ticker.state == .running, "\(name); move \(move)")
            #expect(ticker.nextDeadline == .distantFuture, "\(name); move \(move)")
            #expect(time.nextDeadline == nil, "\(name): an alarm is armed for the end of time; move \(move)")
            ticker.cancel()
        }
    }

    /// A repeating ticker whose first deadline is near but whose interval saturates fires once, then never.
    @Test
    func aSaturatedIntervalAfterAFirstDeadlineFiresOnce() {
        for move in Move.allCases {
            Self().aSaturatedIntervalAfterAFirstDeadlineFiresOnce(move)
        }
    }

    func aSaturatedIntervalAfterAFirstDeadlineFiresOnce(_ move: Move) {
        let time = VirtualTime()
        let calls = Calls()
        let ticker = time.run {
            Ticker.schedule(.every(Self.endOfTime, after: .seconds(1)), on: .precise(label: "TimerKitTests.saturated"))
            {
                _ in calls.record()
            }
        }
        calls.watch(ticker)
        Self.move(move, time)
        #expect(calls.total == 1, "move \(move)")
        #expect(ticker.fireCount == 1, "move \(move)")
        #expect(time.nextDeadline == nil, "move \(move)")
        ticker.cancel()
    }

    /// The end of time is reachable for everything else: a `fire()` on a saturated ticker is delivered,
    /// and a ticker due within the timeline still fires as the clock runs to its end.
    @Test func fireAndOrdinaryTickersStillRunAtTheEndOfTime() {
        let time = VirtualTime()
        let saturated = Calls()
        let ordinary = Calls()
        let context = TickerContext.precise(label: "TimerKitTests.saturated")
        let (never, soon) = time.run {
            (
                Ticker.schedule(.every(Self.endOfTime), on: context) { _ in saturated.record() },
                Ticker.schedule(.after(.seconds(5)), on: context) { _ in ordinary.record() }
            )
        }
        saturated.watch(never)
        never.fire()
        time.advance(by: Self.endOfTime)
        #expect(saturated.total == 1, "the fire() request, and nothing else")
        #expect(ordinary.total == 1)
        #expect(soon.state == .finished)
        #expect(never.state == .running)
        never.cancel()
    }

}
