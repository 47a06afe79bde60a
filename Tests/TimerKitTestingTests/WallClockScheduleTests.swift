import Foundation
import Synchronization
import Testing
import TimerKit
import TimerKitTesting

/// Wall-clock and calendar schedules on virtual time: daylight saving in three zones, clock sets, zone
/// changes and missed occurrences, through the public API only.
@Suite struct WallClockScheduleTests {
    /// What a handler saw: each tick's occurrence date, skipped count and index.
    final class Seen: Sendable {
        private let ticks = Mutex<[Tick]>([])
        func append(_ tick: Tick) { ticks.withLock { $0.append(tick) } }
        var all: [Tick] { ticks.withLock { $0 } }
        var dates: [Date] { all.compactMap(\.date) }
    }

    static func date(_ text: String) -> Date {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)!
    }

    static func zone(_ identifier: String) -> TimeZone { TimeZone(identifier: identifier)! }

    /// The local reading of `date` in `zone`: "2026-03-08 03:00 -0400".
    static func local(_ date: Date, _ zone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss xx"
        return formatter.string(from: date)
    }

    @Test func aDailyScheduleWalksThroughSpringForwardInNewYork() {
        let time = VirtualTime()
        let zone = Self.zone("America/New_York")
        time.setWallClock(to: Self.date("2026-03-06T12:00:00-05:00"))
        let seen = Seen()
        let queue = DispatchQueue(label: "WallClockScheduleTests")
        let ticker = time.run {
            Ticker.schedule(.daily(hour: 2, minute: 30, in: zone), on: .dispatch(queue)) { seen.append($0) }
        }
        time.advance(by: .seconds(4 * 86_400))
        #expect(
            seen.dates.map { Self.local($0, zone) } == [
                "2026-03-07 02:30:00 -0500", "2026-03-08 03:00:00 -0400", "2026-03-09 02:30:00 -0400",
                "2026-03-10 02:30:00 -0400",
            ])
        ticker.cancel()
    }
}
