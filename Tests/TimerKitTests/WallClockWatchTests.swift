import Foundation
import Testing

@testable import TimerKit

/// Noticing that the system clock was set or the zone changed, on system time. The system clock cannot
/// be set here (that takes privileges), so the watch is given the readings a set clock would give; a zone
/// change is made for real, in a child process (`TZ`), where it moves a daily schedule.
@Suite struct WallClockWatchTests {
    @Test func aMovedWallClockRecomputesAndASlewDoesNot() {
        let ticker = Ticker.schedule(.daily(hour: 3), on: .dispatch(DispatchQueue(label: "WallClockWatchTests"))) {
            _ in
        }
        defer { ticker.cancel() }
        let before = WallClockWatch.systemRecomputations
        let continuous = Platform.continuousNanoseconds()
        let wall = TimeBase.Source.system.wallNanoseconds()
        // Set an hour forward, then back: two recomputes. A 5 ms slew is below the threshold: none.
        WallClockWatch.check(continuous: continuous, wall: wall + 3_600_000_000_000)
        WallClockWatch.check(continuous: continuous, wall: wall)
        WallClockWatch.check(continuous: continuous, wall: wall + 5_000_000)
        // Other tests may recompute meanwhile (never fewer).
        #expect(WallClockWatch.systemRecomputations - before >= 2)
        #expect(ticker.state == .running)
        let remaining = try? #require(ticker.nextDeadline).nanoseconds - TickClock.continuous.now.nanoseconds
        #expect(remaining.map { $0 > 0 && $0 <= 86_400_000_000_000 } == true)
    }

    @Test func aChangedZoneMovesADailyScheduleOfTheCurrentZone() async {
        await #expect(processExitsWith: .success) {
            setenv("TZ", "UTC", 1)
            NSTimeZone.resetSystemTimeZone()
            let ticker = Ticker.schedule(.daily(hour: 12), on: .precise) { _ in }
            let now = Date()
            // TZ moves the process to Tokyo: noticed at the next wake-up that looks at the zone (one a few
            // seconds later: both clocks read ahead by twice the interval between looks).
            setenv("TZ", "Asia/Tokyo", 1)
            let ahead = WallClockWatch.zoneCheckInterval * 2
            WallClockWatch.check(
                continuous: Platform.continuousNanoseconds() + ahead,
                wall: TimeBase.Source.system.wallNanoseconds() + ahead)
            #expect(TimeZone.current.identifier == "Asia/Tokyo")
            var tokyo = Calendar(identifier: .gregorian)
            tokyo.timeZone = TimeZone(identifier: "Asia/Tokyo")!
            let noon = tokyo.nextDate(
                after: now, matching: DateComponents(hour: 12, minute: 0, second: 0), matchingPolicy: .nextTime)!
            let expected = noon.timeIntervalSince(now)
            let deadline = ticker.nextDeadline!.nanoseconds - TickClock.continuous.now.nanoseconds
            #expect(abs(Double(deadline) / 1e9 - expected) < 5, "\(deadline) ns, expected \(expected) s")
            ticker.cancel()
        }
    }
}
