import Foundation
import Testing

@testable import TimerKit

/// How a tick sequence ends in real time, and what its ticks carry, on both system clocks; and that a
/// clock of another type is never served by the engine, even when its instants are a system clock's.
/// Timing only enters through generous bounds: deadlines an hour away that only the event under test can
/// end the wait before, and conditions polled for seconds. Each test runs on the system time base, its
/// consumer on a thread of its own (see `TickSequenceRealTimeTests`).
@Suite struct TickSequenceRealTimeEndingTests {
    /// Polls `condition` every few milliseconds, suspending in between (the consumer may share the
    /// thread), until it holds or `seconds` have passed.
    static func eventually(seconds: Double = 10, _ condition: () -> Bool) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(seconds))
        while clock.now < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return condition()
    }

    /// Cancelling the consumer's task ends its wait at once: the first wait (which starts the ticker) and a
    /// later one (served by the ticker already running, which learns of the cancellation from the
    /// waiter's state). Serialized: the cases look for their ticker by its line of code.
    @Test
    func cancellingTheTaskEndsTheWaitAtOnce() async {
        for afterATick in [false, true] {
            await Self().cancellingTheTaskEndsTheWaitAtOnce(afterATick: afterATick)
        }
    }

    func cancellingTheTaskEndsTheWaitAtOnce(afterATick: Bool) async {
        await TickSequenceRealTimeTests.inRealTimeOnOwnThread {
            let schedule = TickSchedule.every(.seconds(3600), after: afterATick ? .milliseconds(1) : .seconds(3600))
            let received = Locked<[Int]>.make([])
            let ended = Locked<Bool>.make(false)
            // On a thread of its own too: an unstructured task does not inherit the executor preference.
            let executor = ThreadExecutor()
            defer { executor.stop() }
            let line = #line + 2
            let consumer = Task(executorPreference: executor) {
                for await tick in Ticker.ticks(schedule) { received.withLock { $0.append(tick.index) } }
                ended.withLock { $0 = true }
            }
            let expected = afterATick ? [1] : []
            let waiting = await Self.eventually {
                received.withLock { $0 } == expected && !TickSequenceRealTimeTests.tickers(at: line).isEmpty
            }
            #expect(waiting, "the consumer never waited with a ticker running; afterATick \(afterATick)")
            // Time to suspend on the wait (a cancellation just before it must end the wait too).
            try? await Task.sleep(for: .milliseconds(20))
            consumer.cancel()
            #expect(
                await Self.eventually { ended.withLock { $0 } },
                "the wait outlived the cancellation; afterATick \(afterATick)")
            #expect(received.withLock { $0 } == expected, "afterATick \(afterATick)")
            #expect(
                await Self.eventually { TickSequenceRealTimeTests.tickers(at: line).isEmpty },
                "afterATick \(afterATick)")
        }
    }

    /// A task cancelled outside a wait (no cancellation handler was registered to hear of it) gets `nil`
    /// from its next `next()` at once, and from every later one: before its first wait and between two
    /// ticks (the ticker that served the first is left running by the cancellation, and stops when the
    /// sequence ends). The deadlines are an hour apart: only the cancellation can end a wait within the
    /// bound polled for. Serialized: the cases look for their ticker by its line of code.
    @Test
    func aTaskCancelledOutsideAWaitEndsAtItsNextCall() async {
        for afterATick in [false, true] {
            await Self().aTaskCancelledOutsideAWaitEndsAtItsNextCall(afterATick: afterATick)
        }
    }

    func aTaskCancelledOutsideAWaitEndsAtItsNextCall(afterATick: Bool) async {
        await TickSequenceRealTimeTests.inRealTimeOnOwnThread {
            let schedule = TickSchedule.every(.seconds(3600), after: afterATick ? .milliseconds(1) : .seconds(3600))
            let executor = ThreadExecutor()
            defer { executor.stop() }
            let line = #line + 2
            // Polled rather than awaited: a wait the cancellation failed to end would hang the test.
            let result = Locked<[Int?]?>.make(nil)
            _ = Task(executorPreference: executor) {
                var iterator = Ticker.ticks(schedule).makeAsyncIterator()
                var indices: [Int?] = []
                if afterATick { indices.append(await iterator.next()?.index) }
                withUnsafeCurrentTask { $0?.cancel() }
                indices.append(await iterator.next()?.index)
                indices.append(await iterator.next()?.index)
                result.withLock { $0 = indices }
            }
            #expect(
                await Self.eventually { result.withLock { $0 } != nil },
                "a wait outlived the cancellation; afterATick \(afterATick)")
            #expect(result.withLock { $0 } == (afterATick ? [1, nil, nil] : [nil, nil]), "afterATick \(afterATick)")
            #expect(
                await Self.eventually { TickSequenceRealTimeTests.tickers(at: line).isEmpty },
                "afterATick \(afterATick)")
        }
    }

    /// A sequence bound to an owner ends at the first deadline after the owner has gone.
    @Test func theSequenceEndsAtTheFirstDeadlineAfterItsOwnerIsGone() async {
        final class Owner: Sendable {}
        await TickSequenceRealTimeTests.inRealTimeOnOwnThread {
            var owner: Owner? = Owner()
            var iterator = Ticker.ticks(.every(.milliseconds(20)), owner: owner).makeAsyncIterator()
            // A tick, whatever its index (on a loaded machine the first deadlines may be skipped).
            #expect(await iterator.next() != nil)
            owner = nil
            #expect(await iterator.next() == nil)
            #expect(await iterator.next() == nil)
        }
    }

    /// Each tick carries its deadline on the sequence's own clock (`start + firstDelay + (k − 1)·interval`,
    /// `start` being read when iteration begins), a timestamp between that deadline and the consumer's
    /// reading, and the deadlines left.
    @Test func ticksCarryTheirDeadlinesOnTheSequencesClock() async {
        await TickSequenceRealTimeTests.inRealTimeOnOwnThread {
            await Self.checkTicks(on: ContinuousClock())
            await Self.checkTicks(on: SuspendingClock())
        }
    }

    static func checkTicks<C: Clock>(on clock: C) async where C.Duration == Duration {
        let (first, interval, count) = (Duration.milliseconds(5), Duration.milliseconds(20), 4)
        let before = clock.now
        var iterator = Ticker.ticks(.every(interval, after: first, count: count), clock: clock).makeAsyncIterator()
        let after = clock.now
        var previous = 0
        while let tick = await iterator.next() {
            let offset = first + interval * (tick.index - 1)
            #expect(before.advanced(by: offset) <= tick.deadline && tick.deadline <= after.advanced(by: offset))
            #expect(tick.deadline <= tick.timestamp && tick.timestamp <= clock.now)
            #expect(tick.index == previous + 1 + tick.skipped)
            #expect(tick.remaining == count - tick.index)
            previous = tick.index
        }
        #expect(previous == count, "\(C.self)")
    }

    /// A clock whose instants are `ContinuousClock`'s but which is not `ContinuousClock`.
    struct LookalikeClock: Clock {
        var now: ContinuousClock.Instant { ContinuousClock.now }
        var minimumResolution: Duration { ContinuousClock().minimumResolution }

        func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
            try await ContinuousClock().sleep(until: deadline, tolerance: tolerance)
        }
    }

    /// Only the system clocks themselves are served by the engine: a clock of another type is slept on as
    /// given, whatever its instants.
    @Test func aClockThatOnlySharesASystemClocksInstantsIsSleptOnDirectly() async {
        await TickSequenceRealTimeTests.inRealTimeOnOwnThread {
            let line = #line + 1
            var iterator = Ticker.ticks(.every(.milliseconds(20), count: 3), clock: LookalikeClock())
                .makeAsyncIterator()
            var indices: [Int] = []
            while let tick = await iterator.next() {
                indices.append(tick.index)
                #expect(TickSequenceRealTimeTests.tickers(at: line).isEmpty)
            }
            #expect(indices.last == 3)
        }
    }
}
