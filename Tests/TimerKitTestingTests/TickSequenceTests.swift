import Foundation
import Testing
import TimerKit
import TimerKitTesting

@Suite struct TickSequenceTests {
    final class Owner: Sendable {}

    /// Ticks follow the schedule drift-free, a stall is skipped, and a counted sequence ends when late too. Each check
    /// runs on a fresh instance of the suite.
    @Test func aSequenceTicksOnItsScheduleAndItsClock() async {
        await Self().ticksFollowTheScheduleDriftFreeUnderVirtualTime()
        await Self().aStallIsSkippedNotBurst()
        await Self().aCountedSequenceEndsAfterItsLastDeadlineEvenWhenLate()
    }

    func ticksFollowTheScheduleDriftFreeUnderVirtualTime() async {
        let time = VirtualTime()
        var iterator = time.run { Ticker.ticks(.every(.seconds(1))) }.makeAsyncIterator()
        var ticks: [ClockTick<ContinuousClock>] = []
        for _ in 0..<5 {
            await time.advance(by: .milliseconds(1_000))
            if let tick = await iterator.next() { ticks.append(tick) }
        }
        #expect(ticks.map(\.index) == [1, 2, 3, 4, 5])
        #expect(ticks.allSatisfy { $0.lateness == .zero && $0.skipped == 0 })
        let first = ticks[0].deadline
        #expect(ticks.enumerated().allSatisfy { $0.element.deadline == first.advanced(by: .seconds($0.offset)) })
    }

    func aStallIsSkippedNotBurst() async {
        let time = VirtualTime()
        var iterator = time.run { Ticker.ticks(.every(.seconds(1))) }.makeAsyncIterator()
        await time.advance(by: .milliseconds(3_500))
        let late = await iterator.next()
        #expect(late?.index == 3)
        #expect(late?.skipped == 2)
        #expect(late?.lateness == .milliseconds(500))
        // The schedule did not slide: the next deadline is 4 s after the start, half a second away.
        await time.advance(by: .milliseconds(500))
        let next = await iterator.next()
        #expect(next?.index == 4)
        #expect(next?.skipped == 0)
        #expect(next?.lateness == .zero)
    }

    func aCountedSequenceEndsAfterItsLastDeadlineEvenWhenLate() async {
        let time = VirtualTime()
        var iterator = time.run { Ticker.ticks(.countdown(from: 3, every: .seconds(1))) }.makeAsyncIterator()
        await time.advance(by: .seconds(10))
        let last = await iterator.next()
        #expect(last?.index == 3)
        #expect(last?.remaining == 0)
        #expect(last?.isLast == true)
        #expect(await iterator.next() == nil)
    }

    /// A waiting consumer shows as pending, and sequences whose tolerance windows overlap share one wake-up. Each check
    /// runs on a fresh instance of the suite.
    @Test func waitingConsumersArePendingTickers() async {
        await Self().aConsumerTaskWaitsOnVirtualTimeAndShowsAsPending()
        await Self().sequencesWhoseToleranceWindowsOverlapShareOneWakeUp()
    }

    func aConsumerTaskWaitsOnVirtualTimeAndShowsAsPending() async {
        let time = VirtualTime()
        let sequence = time.run { Ticker.ticks(.every(.seconds(2), count: 3)) }
        let consumer = Task { () -> [Int] in
            var indices: [Int] = []
            for await tick in sequence { indices.append(tick.index) }
            return indices
        }
        for _ in 0..<3 {
            await waitUntil { time.pendingTickers.count == 1 }  // the consumer is suspended on its deadline
            await time.advance(by: .seconds(2))
        }
        #expect(await consumer.value == [1, 2, 3])
        #expect(time.pendingTickers.isEmpty)
    }

    /// The waits count on the sequence's clock, whichever it is: a manual test clock, the real continuous clock. Each
    /// check runs on a fresh instance of the suite.
    @Test func aSequenceWaitsOnItsOwnClock() async {
        await Self().theWaitsCountOnTheClockOfTheSequence()
        await Self().anyClockWorksIncludingAManualTestClock()
        await Self().realContinuousClockTicks()
    }

    /// The waits count on the engine clock that counts like the sequence's clock, so that after the device
    /// sleeps the engine and the consumer agree on which deadlines passed (a suspend cannot be simulated:
    /// the pending one-shot's clock is checked here, the repeating ticker's in the real-time tests).
    func theWaitsCountOnTheClockOfTheSequence() async {
        let time = VirtualTime()
        let continuous = time.run { Ticker.ticks(.every(.seconds(1), count: 1)) }
        let suspending = time.run { Ticker.ticks(.every(.seconds(1), count: 1), clock: SuspendingClock()) }
        let consumers = [
            Task { () -> Int? in
                for await tick in continuous { return tick.index }
                return nil
            },
            Task { () -> Int? in
                for await tick in suspending { return tick.index }
                return nil
            },
        ]
        await waitUntil { time.pendingTickers.count == 2 }
        #expect(time.pendingTickers.map(\.schedule.clock.description).sorted() == ["continuous", "uptime"])
        await time.advance(by: .seconds(1))
        for consumer in consumers { #expect(await consumer.value == 1) }
    }

    func sequencesWhoseToleranceWindowsOverlapShareOneWakeUp() async {
        let time = VirtualTime()
        // Three consumers whose first deadlines are 1.0 s, 1.1 s and 1.2 s away, each with 0.5 s of
        // tolerance: the engine wakes once, at the latest deadline inside the earliest window (1.2 s), and
        // serves all three.
        let sequences = (0..<3).map { index in
            time.run {
                Ticker.ticks(
                    .every(.seconds(1), after: .milliseconds(1_000 + 100 * index), tolerance: .milliseconds(500)))
            }
        }
        let consumers = sequences.map { sequence in
            Task { () -> ClockTick<ContinuousClock>? in
                var iterator = sequence.makeAsyncIterator()
                return await iterator.next()
            }
        }
        await waitUntil { time.pendingTickers.count == 3 }
        // Exactly to the batch's wake-up: later, the consumers (which run after the advance) would see the
        // next deadlines pass too and report those instead.
        #expect(await time.advance(by: .milliseconds(1_200)) == 1, "one wake-up")
        #expect(time.pendingTickers.isEmpty, "every waiting sequence was served")
        if !time.pendingTickers.isEmpty { consumers.forEach { $0.cancel() } }  // fail, do not hang
        var ticks: [ClockTick<ContinuousClock>] = []
        for consumer in consumers {
            if let tick = await consumer.value { ticks.append(tick) }
        }
        // Each sequence counts from its own start, so the same wake-up (1.2 s) is 200, 100 and 0 ms late.
        #expect(ticks.map(\.lateness) == [.milliseconds(200), .milliseconds(100), .zero])
    }

    /// A sequence ends when its task is cancelled, its virtual time goes away, or its owner goes. Each check runs on a
    /// fresh instance of the suite.
    @Test func aSequenceEndsWithItsTaskItsTimeOrItsOwner() async {
        await Self().cancellingTheTaskEndsTheSequencePromptly()
        await Self().aSuspendedConsumerEndsWhenItsVirtualTimeGoesAway()
        await Self().theOwnerBoundFormEndsWhenTheOwnerGoes()
    }

    func cancellingTheTaskEndsTheSequencePromptly() async {
        let time = VirtualTime()
        let sequence = time.run { Ticker.ticks(.every(.seconds(3_600))) }
        let consumer = Task { () -> Int in
            var count = 0
            for await _ in sequence { count += 1 }
            return count
        }
        await waitUntil { time.pendingTickers.count == 1 }
        consumer.cancel()
        #expect(await consumer.value == 0)
        #expect(time.pendingTickers.isEmpty, "the wait's ticker was not cancelled")
    }

    func aSuspendedConsumerEndsWhenItsVirtualTimeGoesAway() async {
        var time: VirtualTime? = VirtualTime()
        let sequence = time!.run { Ticker.ticks(.every(.seconds(3_600))) }
        let consumer = Task { () -> Int in
            var count = 0
            for await _ in sequence { count += 1 }
            return count
        }
        await waitUntil { time!.pendingTickers.count == 1 }
        time = nil  // cancels what it was driving: the suspended wait must end, not hang
        #expect(await consumer.value == 0)
    }

    func theOwnerBoundFormEndsWhenTheOwnerGoes() async {
        let time = VirtualTime()
        var owner: Owner? = Owner()
        var iterator = time.run { Ticker.ticks(.every(.seconds(1)), owner: owner!) }.makeAsyncIterator()
        await time.advance(by: .seconds(1))
        #expect(await iterator.next()?.index == 1)
        owner = nil
        await time.advance(by: .seconds(1))
        #expect(await iterator.next() == nil)
    }

    func anyClockWorksIncludingAManualTestClock() async {
        let clock = ManualClock()
        let sequence = Ticker.ticks(.every(.seconds(1), count: 4), clock: clock)
        let consumer = Task { () -> [ClockTick<ManualClock>] in
            var ticks: [ClockTick<ManualClock>] = []
            for await tick in sequence { ticks.append(tick) }
            return ticks
        }
        await waitUntil { clock.sleeperCount == 1 }
        clock.advance(by: .seconds(1))
        await waitUntil { clock.sleeperCount == 1 }
        clock.advance(by: .milliseconds(2_500))  // a stall: deadline 2 is skipped, 3 delivered late
        await waitUntil { clock.sleeperCount == 1 }
        clock.advance(by: .milliseconds(500))
        let ticks = await consumer.value
        #expect(ticks.map(\.index) == [1, 3, 4])
        #expect(ticks.map(\.skipped) == [0, 1, 0])
        #expect(ticks[1].lateness == .milliseconds(500))
    }

    func realContinuousClockTicks() async {
        var ticks: [ClockTick<ContinuousClock>] = []
        for await tick in Ticker.ticks(.every(.milliseconds(5), count: 3)) {
            ticks.append(tick)
            #expect(tick.timestamp >= tick.deadline)
        }
        // On a loaded machine deadlines may be skipped (they count towards the three): every deadline is
        // accounted for once, and the last one is always delivered.
        #expect(ticks.last?.index == 3)
        #expect(ticks.count + ticks.map(\.skipped).reduce(0, +) == 3)
    }
}

/// Yields until `condition` holds (bounded): for waiting on a consumer task to reach its suspension.
func waitUntil(_ condition: () -> Bool) async {
    for _ in 0..<100_000 {
        if condition() { return }
        await Task.yield()
    }
    Issue.record("condition never held")
}
