import Foundation
import Testing
import TimerKit
import TimerKitTesting

/// Virtual time drives both clocks and schedules at a date, through the public API only.
@Suite struct VirtualClocksTests {
    @Test func aDateScheduleAndTheClocksRunOnOneVirtualTimeline() {
        let time = VirtualTime()
        let log = Log()
        let queue = DispatchQueue(label: "VirtualClocksTests")
        let (expiry, lap) = time.run {
            (
                Ticker.schedule(.at(TickClock.date + 90), on: .dispatch(queue)) { tick in
                    log.append("expired \(tick.deadline == TickClock.continuous.now)")
                },
                Ticker.schedule(.every(.seconds(30), clock: .continuous), on: .dispatch(queue)) { tick in
                    log.append("lap \(TickClock.uptime.now == tick.timestamp)")
                }
            )
        }
        #expect(time.run { TickClock.date } == Date(timeIntervalSinceReferenceDate: 1))
        time.advance(by: .seconds(89))
        #expect(log.all == ["lap true", "lap true"])
        time.advance(by: .seconds(1))
        // Both on the continuous clock of one queue, so one engine: at 90 s the expiry, scheduled first,
        // comes before the lap (rescheduled after its 60 s tick).
        #expect(log.all == ["lap true", "lap true", "expired true", "lap true"])
        #expect(expiry.state == .finished)
        #expect(time.now == VirtualTime.start.advanced(by: .seconds(90)))
        lap.cancel()
    }

    @Test func tickClockSleepWaitsForTheTestToAdvance() async throws {
        let time = VirtualTime()
        let sleeper = Task {
            try await time.run { try await TickClock.uptime.sleep(for: .seconds(10)) }
            return time.now
        }
        for _ in 0..<100_000 where time.pendingTickers.isEmpty { await Task.yield() }
        await time.advance(by: .seconds(10))
        #expect(try await sleeper.value == VirtualTime.start.advanced(by: .seconds(10)))
    }
}
