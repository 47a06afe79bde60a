import Foundation
import Testing
import TimerKit
import TimerKitTestSupport
import TimerKitTesting

/// The async advance delivers each deadline and lets the consumers it resumed run until they wait again
/// or end, before time moves on: a consumer task sees the same values on every run.
@Suite struct DeterministicAsyncTests {
    /// Runs of the example: 50 in CI; `TIMERKIT_VIRTUAL_RUNS=1000` for the long mode.
    static let runs: Int = {
        if let value = ProcessInfo.processInfo.environment["TIMERKIT_VIRTUAL_RUNS"], let runs = Int(value), runs > 0 {
            return runs
        }
        return 50
    }()

    /// The example: a task consuming `Ticker.ticks(.every(.seconds(1), count: 3))`, started, then one
    /// advance of five seconds. Every deadline is delivered in turn: `[1, 2, 3]`, never `[3]` or `[1, 3]`.
    @Test func aTaskConsumingTicksSeesEveryDeadlineOnEveryRun() async {
        var outcomes: [[Int]: Int] = [:]
        for _ in 0..<Self.runs {
            outcomes[await Self.runTheExample(), default: 0] += 1
        }
        #expect(outcomes == [[1, 2, 3]: Self.runs])
    }

    static func runTheExample() async -> [Int] {
        let time = VirtualTime()
        let values = Log()
        let consumer = time.run {
            Task {
                for await tick in Ticker.ticks(.every(.seconds(1), count: 3)) { values.append("\(tick.index)") }
            }
        }
        await time.waitForPendingTickers()  // let it start: the consumer waits for its first deadline
        await time.advance(by: .seconds(5))
        // The consumer has already ended: this await only reads its result.
        await consumer.value
        return values.all.compactMap { Int($0) }
    }

    @Test func theAsyncAdvanceReturnsOnlyAfterTheConsumerWaitsAgain() async {
        let time = VirtualTime()
        let values = Log()
        let consumer = time.run {
            Task {
                for await tick in Ticker.ticks(.every(.seconds(1))) {
                    values.append("\(tick.index)@\(time.now.nanoseconds / 1_000_000_000)")
                }
            }
        }
        await time.waitForPendingTickers()
        await time.advance(by: .milliseconds(2_500))
        // Each tick was handled at its own instant, and the consumer is waiting for deadline 3.
        #expect(values.all == ["1@2", "2@3"])
        #expect(time.pendingTickers.count == 1)
        await time.advance(by: .milliseconds(500))
        #expect(values.all == ["1@2", "2@3", "3@4"])
        consumer.cancel()
        await consumer.value
    }

    @Test func runUntilIdleRunsACountedConsumerToItsEnd() async {
        let time = VirtualTime()
        let values = Log()
        let consumer = time.run {
            Task {
                for await tick in Ticker.ticks(.countdown(from: 4, every: .seconds(10))) {
                    values.append("\(tick.remaining ?? -1)")
                }
            }
        }
        await time.waitForPendingTickers()
        let wakeUps = await time.runUntilIdle()
        #expect(values.all == ["3", "2", "1", "0"])
        #expect(wakeUps == 4)
        #expect(time.now == VirtualTime.start.advanced(by: .seconds(40)))
        await consumer.value
    }

    @Test func twoConsumersAreBothServedAtEachDeadline() async {
        let time = VirtualTime()
        let values = Log()
        let consumers = time.run {
            ["a", "b"].map { name in
                Task {
                    for await tick in Ticker.ticks(.every(.seconds(1), count: 2)) {
                        values.append("\(name)\(tick.index)")
                    }
                }
            }
        }
        await time.waitForPendingTickers(count: 2)
        await time.advance(by: .seconds(1))
        // Within one deadline the two tasks run in either order; both ran before time moved on.
        #expect(Set(values.all) == ["a1", "b1"])
        await time.advance(by: .seconds(1))
        #expect(Set(values.all) == ["a1", "b1", "a2", "b2"])
        for consumer in consumers { await consumer.value }
    }

    /// The poller: an actor polls with a tick sequence and, on a failed poll, leaves the loop and
    /// starts a new sequence at twice the interval. One advance of 15 s sees the same polls on every run:
    /// the advance lets the actor run from the tick it resumed until the new sequence waits.
    @Test func aPollerThatBacksOffWithANewSequenceSeesTheSamePollsOnEveryRun() async {
        var outcomes: [[String]: Int] = [:]
        for _ in 0..<Self.runs {
            outcomes[await Self.runThePoller(), default: 0] += 1
        }
        #expect(outcomes == [["2s@2", "2s@4 failed", "4s@8", "4s@12 failed"]: Self.runs])
    }

    static func runThePoller() async -> [String] {
        let time = VirtualTime()
        let poller = BackoffPoller(failing: [2, 4])
        let task = time.run { Task { await poller.run() } }
        await time.waitForPendingTickers()
        await time.advance(by: .seconds(15))
        task.cancel()
        await task.value
        return await poller.log
    }

    /// The same poller iterating from a nonisolated task: nothing can tell when that task, having left a
    /// sequence, waits again, so the advance does not wait for it. When time has moved on meanwhile, the
    /// new sequence's first wait logs a warning that names the fix.
    @Test func aNonisolatedConsumerThatStartsAnotherSequenceLateIsWarnedAbout() async {
        LogCapture.install()
        let time = VirtualTime()
        let (gate, open) = AsyncStream<Void>.makeStream()
        let task = time.run {
            Task {
                for await _ in Ticker.ticks(.every(.seconds(1))) { break }
                for await _ in gate { break }  // stands for other work that takes a while
                for await _ in Ticker.ticks(.every(.seconds(1))) { break }
            }
        }
        await time.waitForPendingTickers()
        await time.advance(by: .seconds(1))  // the consumer takes tick 1 and leaves the sequence
        await time.advance(by: .seconds(3))  // time moves on meanwhile
        open.yield()
        await time.waitForPendingTickers()  // the second sequence waits, 3 s late
        await time.advance(by: .seconds(1))
        await task.value
        let warnings = LogCapture.lines(containing: "left a tick sequence")
        #expect(warnings.count == 1, "\(warnings)")
        #expect(warnings.first?.contains("isolated to an actor") == true)
    }
}

/// Polls on a tick sequence; a failed poll (the `failing` poll numbers) ends the loop, and polling starts
/// again on a new sequence at twice the interval, up to 8 s.
actor BackoffPoller {
    private(set) var log: [String] = []
    private let failing: Set<Int>
    private var polls = 0

    init(failing: Set<Int>) { self.failing = failing }

    func run() async {
        let start = TickClock.uptime.now
        var interval = 2
        while !Task.isCancelled, interval <= 8 {
            for await _ in Ticker.ticks(.every(.seconds(interval))) {
                polls += 1
                let now = start.duration(to: TickClock.uptime.now).components.seconds
                if failing.contains(polls) {
                    log.append("\(interval)s@\(now) failed")
                    break
                }
                log.append("\(interval)s@\(now)")
            }
            interval *= 2
        }
    }
}
