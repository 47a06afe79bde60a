import Foundation
import Testing
import TimerKit
import TimerKitTestSupport

@testable import TimerKitTesting

/// What the testing guide lists as not waited for: tasks sleeping on virtual time, and every consumer when
/// the synchronous `advance(by:)` moves time. Each case keeps the resumed task blocked at a gate after it
/// wakes: an advance that waited for it would wait out the grace period (real time) and log
/// its warning, so the absence of that warning — not a tight wall-clock bound — shows that it moved on. (A
/// resumed sleeper counts as running until its task gets past its `sleep` call: on a loaded machine that
/// can take longer than a shortened grace period, hence the default one here.)
@Suite struct WhatAdvancesDoNotWaitForTests {
    init() { LogCapture.install() }

    /// `VirtualTime.sleep` and `TickClock.sleep` under virtual time: the async advance resumes both
    /// sleepers and returns without waiting for what they do next.
    @Test func anAsyncAdvanceResumesSleepersWithoutWaitingForThem() async throws {
        // A minute of grace, not ten seconds: under ThreadSanitizer, with long synchronous tests holding
        // the cooperative pool's threads, a resumed sleeper once took more than ten seconds to get past
        // its `sleep` call. An advance that waited for what the sleepers do next would still log (later).
        let time = VirtualTime(consumerGrace: .seconds(60), deliveryNotice: VirtualTime.deliveryNotice)
        // An odd offset makes the instants a warning would name this test's own among tests run in parallel.
        await time.advance(by: .nanoseconds(5_432_109))
        let gate = Gate()
        let log = Log()
        let wake = time.now.advanced(by: .seconds(1))
        let sleepers = time.run {
            [
                Task {
                    try await time.sleep(until: wake)
                    log.append("virtual time sleeper woke")
                    await gate.wait()
                },
                Task {
                    try await TickClock.uptime.sleep(until: wake)
                    log.append("tick clock sleeper woke")
                    await gate.wait()
                },
            ]
        }
        #expect(await time.waitForPendingTickers(count: 2))
        let wakeUps = await time.advance(by: .seconds(2))
        #expect(wakeUps == 1, "both sleepers share one deadline")
        #expect(time.now == wake.advanced(by: .seconds(1)))
        #expect(
            LogCapture.lines(containing: "005432109 ns)").isEmpty,
            "an advance waited for a sleeper: \(LogCapture.lines(containing: "005432109 ns)"))")
        // They were resumed: both get past their sleep (a bounded wait for other threads, not a timing claim).
        #expect(await Self.eventually { log.all.count == 2 })
        #expect(Set(log.all) == ["virtual time sleeper woke", "tick clock sleeper woke"])
        gate.open()
        for sleeper in sleepers { try await sleeper.value }
    }

    /// The synchronous `advance(by:)`: it resumes a tick-sequence consumer and moves on to its target at
    /// once. What the consumer sees depends on when its task runs (usually after time has moved on: then
    /// its tick is the latest deadline, with the ones before counted as skipped, as in production); either
    /// way every deadline is accounted for exactly once.
    @Test func theSynchronousAdvanceResumesConsumersAndMovesOnAtOnce() async {
        let time = VirtualTime()
        await time.advance(by: .nanoseconds(3_210_987))
        let gate = Gate()
        let values = Log()
        let consumer = time.run {
            Task {
                for await tick in Ticker.ticks(.every(.seconds(1), count: 3)) {
                    values.append("\(tick.index - tick.skipped)...\(tick.index)")
                    await gate.wait()
                }
            }
        }
        #expect(await time.waitForPendingTickers())
        let start = time.now
        let wakeUps = Self.advanceSynchronously(time, by: .seconds(3))
        #expect(wakeUps == 1, "the consumer asked for no further deadline while time moved")
        #expect(time.now == start.advanced(by: .seconds(3)))
        #expect(
            LogCapture.lines(containing: "003210987 ns)").isEmpty,
            "the synchronous advance waited: \(LogCapture.lines(containing: "003210987 ns)"))")
        #expect(await Self.eventually { values.all.count == 1 })
        gate.open()
        await consumer.value
        // The deadlines each tick covers (its own and the ones it skipped) partition 1...3.
        #expect(["1...3"] == values.all || ["1...1", "2...3"] == values.all, "\(values.all)")
    }

    /// The synchronous form, as synchronous code reaches it.
    private static func advanceSynchronously(_ time: VirtualTime, by duration: Duration) -> Int {
        time.advance(by: duration)
    }

    /// Whether `condition` holds within ten seconds of real time, checked every 10 ms (a generous bound
    /// for work on other threads that is normally done at once).
    private static func eventually(_ condition: @Sendable () -> Bool) async -> Bool {
        for _ in 0..<1_000 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }
}
