import Foundation
import Testing

@testable import TimerKit

/// The calendar math of wall-clock schedules against Foundation's `Calendar` and a brute-force reference
/// that walks the wall clock minute by minute.
@Suite struct CalendarMathTests {
    static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    @Test func civilDaysAgreeWithFoundationsGregorianCalendar() {
        // From 1600 to 2517: before October 1582 Foundation's Gregorian calendar counts Julian days, which
        // no wall-clock schedule reaches.
        for days in stride(from: Int64(-135_000), through: 200_000, by: 97) {
            let date = Date(timeIntervalSince1970: Double(days) * 86_400)
            let parts = Self.utc.dateComponents([.year, .month, .day, .weekday], from: date)
            let day = CivilTime.day(days)
            let ours: [Int] = [Int(day.year), day.month, day.day, day.weekday + 1]
            let foundation: [Int] = [parts.year!, parts.month!, parts.day!, parts.weekday!]
            #expect(ours == foundation, "day \(days)")
            #expect(CivilTime.days(year: day.year, month: day.month, day: day.day) == days, "day \(days)")
            let range = Self.utc.range(of: .day, in: .month, for: date)!
            #expect(CivilTime.daysInMonth(day.month, year: day.year) == range.count, "day \(days)")
        }
    }

    /// A local time of a zone, and the instant it resolves to.
    struct Resolution: CustomStringConvertible {
        let zone: String
        let local: String
        let instant: String
        var description: String { "\(local) in \(zone)" }
    }

    static let resolutions: [Resolution] = [
        // Gaps: the first instant after the gap.
        Resolution(zone: "America/New_York", local: "2026-03-08T02:30:00Z", instant: "2026-03-08T07:00:00Z"),
        Resolution(zone: "Australia/Sydney", local: "2026-10-04T02:30:00Z", instant: "2026-10-03T16:00:00Z"),
        Resolution(zone: "Australia/Lord_Howe", local: "2026-10-04T02:15:00Z", instant: "2026-10-03T15:30:00Z"),
        // Folds: the first occurrence.
        Resolution(zone: "America/New_York", local: "2026-11-01T01:30:00Z", instant: "2026-11-01T05:30:00Z"),
        Resolution(zone: "Australia/Sydney", local: "2026-04-05T02:30:00Z", instant: "2026-04-04T15:30:00Z"),
        Resolution(zone: "Australia/Lord_Howe", local: "2026-04-05T01:45:00Z", instant: "2026-04-04T14:45:00Z"),
        // Just outside: resolved as usual.
        Resolution(zone: "America/New_York", local: "2026-03-08T03:00:00Z", instant: "2026-03-08T07:00:00Z"),
        Resolution(zone: "America/New_York", local: "2026-11-01T02:00:00Z", instant: "2026-11-01T07:00:00Z"),
        Resolution(zone: "Australia/Lord_Howe", local: "2026-04-05T02:00:00Z", instant: "2026-04-04T15:30:00Z"),
    ]

    @Test func localTimesInGapsAndFoldsResolveByTheDocumentedRule() {
        for case let resolution in Self.resolutions {
            let zone = TimeZone(identifier: resolution.zone)!
            let local = Int64(Self.parse(resolution.local).timeIntervalSince1970)
            let instant = Int64(Self.parse(resolution.instant).timeIntervalSince1970)
            #expect(CivilTime.resolve(local: local, in: zone) == instant, "\(resolution)")
        }
    }

    static func parse(_ text: String) -> Date {
        let formatter = ISO8601DateFormatter()
        return formatter.date(from: text)!
    }

    // MARK: Against a brute-force reference

    /// The reference: walking the wall clock minute by minute from `start`, the first instant at which it
    /// reaches a local time of `matches` that it has never read before (so a repeated hour's times are
    /// not reached twice, and a skipped time is reached when the clock jumps past it).
    static func referenceNext(after start: Int64, in zone: TimeZone, matches: (DateComponents) -> Bool) -> Int64? {
        var highest = CivilTime.local(start, in: zone)
        var instant = (start / 60 + 1) * 60
        for _ in 0..<(40 * 24 * 60) {
            let reading = instant + Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant))))
            if reading > highest {
                // Every local minute passed in (highest, reading]: one, or a gap's worth.
                var minute = (highest / 60 + 1) * 60
                while minute <= reading {
                    let parts = utc.dateComponents(
                        [.month, .day, .weekday, .hour, .minute], from: Date(timeIntervalSince1970: Double(minute)))
                    if matches(parts) { return instant }
                    minute += 60
                }
                highest = reading
            }
            instant += 60
        }
        return nil
    }

    /// Rules (at whole minutes) and what they match, for the reference.
    static let rules: [(name: String, rule: CalendarRule, matches: @Sendable (DateComponents) -> Bool)] = [
        ("daily 02:30", rule(minutes: [30], hours: [2]), { $0.hour == 2 && $0.minute == 30 }),
        ("daily 01:45", rule(minutes: [45], hours: [1]), { $0.hour == 1 && $0.minute == 45 }),
        ("daily 02:00", rule(minutes: [0], hours: [2]), { $0.hour == 2 && $0.minute == 0 }),
        ("hourly :30", rule(minutes: [30], hours: Array(0...23)), { $0.minute == 30 }),
        ("hourly :00", rule(minutes: [0], hours: Array(0...23)), { $0.minute == 0 }),
        (
            "sundays 02:15 and 03:00", rule(minutes: [0, 15], hours: [2, 3], weekdays: 1),
            { $0.weekday == 1 && [2, 3].contains($0.hour!) && [0, 15].contains($0.minute!) }
        ),
        (
            "the 31st at 00:00", rule(minutes: [0], hours: [0], days: 1 << 31),
            { $0.day == 31 && $0.hour == 0 && $0.minute == 0 }
        ),
    ]

    static func rule(
        minutes: [Int], hours: [Int], days: UInt32 = CalendarRule.allDays, weekdays: UInt8 = CalendarRule.allWeekdays
    )
        -> CalendarRule
    {
        CalendarRule(
            seconds: [0], minutes: minutes, hours: hours, days: days, months: CalendarRule.allMonths, weekdays: weekdays
        )
    }

    @Test func nextOccurrencesMatchTheReferenceAroundEveryTransitionOfThreeZones() {
        let starts: [(String, [String])] = [
            (
                "America/New_York",
                ["2026-03-07T18:00:00Z", "2026-03-08T06:10:00Z", "2026-10-31T20:00:00Z", "2026-11-01T05:45:00Z"]
            ),
            (
                "Australia/Sydney",
                ["2026-04-04T10:00:00Z", "2026-04-04T15:40:00Z", "2026-10-03T09:00:00Z", "2026-10-03T15:50:00Z"]
            ),
            (
                "Australia/Lord_Howe",
                ["2026-04-04T09:00:00Z", "2026-04-04T14:50:00Z", "2026-10-03T08:00:00Z", "2026-10-03T15:20:00Z"]
            ),
        ]
        for (identifier, dates) in starts {
            let zone = TimeZone(identifier: identifier)!
            for date in dates {
                for (name, rule, matches) in Self.rules {
                    var cursor = Int64(Self.parse(date).timeIntervalSince1970)
                    // Six occurrences in a row from each start, each from the one before.
                    for step in 0..<6 {
                        let expected = Self.referenceNext(after: cursor, in: zone, matches: matches)
                        let found = rule.next(after: cursor, in: zone)
                        guard expected != nil else {
                            // Beyond the reference's 40 days (the 31st, after a 30-day month).
                            #expect(found.map { $0 > cursor + 40 * 86_400 } == true, "\(name) from \(date)")
                            break
                        }
                        #expect(found == expected, "\(name) in \(identifier) from \(date), step \(step)")
                        guard let found else { break }
                        cursor = found
                    }
                }
            }
        }
    }

    @Test func aRuleThatCannotMatchIsToldApart() {
        #expect(!Self.rule(minutes: [0], hours: [0], days: 1 << 30).onlyIn(months: [2]).canMatch)
        #expect(Self.rule(minutes: [0], hours: [0], days: 1 << 29).onlyIn(months: [2]).canMatch)
        #expect(Self.rule(minutes: [0], hours: [0], days: 1 << 31).onlyIn(months: [4, 6, 9, 11]).canMatch == false)
        // The 29th of February is found, more than three years ahead.
        let leap = Self.rule(minutes: [0], hours: [12], days: 1 << 29).onlyIn(months: [2])
        let utc = TimeZone(identifier: "UTC")!
        let found = leap.next(after: Int64(Self.parse("2024-03-01T00:00:00Z").timeIntervalSince1970), in: utc)
        #expect(found == Int64(Self.parse("2028-02-29T12:00:00Z").timeIntervalSince1970))
    }

    @Test func alignedOccurrencesAreMultiplesOfTheirInterval() {
        let second: Int64 = 1_000_000_000
        let schedule = WallSchedule(
            rule: .aligned(nanoseconds: second), timeZone: nil, missed: .deliverOnce, summary: "")
        let utc = TimeZone(identifier: "UTC")!
        #expect(schedule.next(after: 5 * second + 300, in: utc) == 6 * second)
        #expect(schedule.next(after: 6 * second, in: utc) == 7 * second)
        #expect(schedule.next(after: -second / 2, in: utc) == 0)
        let due = schedule.due(after: 6 * second, through: 10 * second + 1, excluding: nil, in: utc)
        #expect(due?.latest == 10 * second)
        #expect(due?.count == 4)
        #expect(schedule.due(after: 6 * second, through: 6 * second + 999, excluding: nil, in: utc) == nil)
        let excluded = schedule.due(after: 6 * second, through: 8 * second, excluding: 7 * second, in: utc)
        #expect(excluded?.latest == 8 * second)
        #expect(excluded?.count == 1)
    }
}

extension CalendarRule {
    /// This rule restricted to `months`.
    func onlyIn(months: [Int]) -> CalendarRule {
        CalendarRule(
            seconds: seconds, minutes: minutes, hours: hours, days: days,
            months: months.reduce(0) { $0 | 1 << UInt16($1) }, weekdays: weekdays)
    }
}
