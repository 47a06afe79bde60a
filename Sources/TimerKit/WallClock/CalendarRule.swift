import Foundation

/// Which local times of a zone's calendar a calendar schedule fires at: the seconds, minutes and hours
/// of the day, and the days it fires on (day of the month, month, weekday), as cron fields are.
///
/// When both the days of the month and the weekdays are restricted, a day matches either (cron's rule:
/// `0 9 1 * 1` is "09:00 on the 1st and on every Monday").
struct CalendarRule: Sendable, Hashable {
    /// Seconds, minutes and hours of the day, each sorted and without repeats.
    let seconds: [Int]
    let minutes: [Int]
    let hours: [Int]
    /// Days of the month (bit d for day d, 1–31), months (bit m, 1–12), weekdays (bit w, 0 = Sunday).
    let days: UInt32
    let months: UInt16
    let weekdays: UInt8

    static let allDays: UInt32 = 0xFFFF_FFFE
    static let allMonths: UInt16 = 0x1FFE
    static let allWeekdays: UInt8 = 0x7F

    init(seconds: [Int], minutes: [Int], hours: [Int], days: UInt32, months: UInt16, weekdays: UInt8) {
        self.seconds = Array(Set(seconds)).sorted()
        self.minutes = Array(Set(minutes)).sorted()
        self.hours = Array(Set(hours)).sorted()
        self.days = days
        self.months = months
        self.weekdays = weekdays
    }

    /// Whether the calendar day `day` is one the rule fires on.
    func matches(_ day: CivilTime.Day) -> Bool {
        guard months & (1 << UInt16(day.month)) != 0 else { return false }
        let dayMatches = days & (1 << UInt32(day.day)) != 0
        let weekdayMatches = weekdays & (1 << UInt8(day.weekday)) != 0
        switch (days == Self.allDays, weekdays == Self.allWeekdays) {
        case (true, true): return true
        case (true, false): return weekdayMatches
        case (false, true): return dayMatches
        case (false, false): return dayMatches || weekdayMatches
        }
    }

    /// Whether some day of some year matches: false for a rule such as "the 30th of February".
    var canMatch: Bool {
        guard !seconds.isEmpty, !minutes.isEmpty, !hours.isEmpty, weekdays != 0 || days != 0 else { return false }
        if weekdays != Self.allWeekdays, weekdays != 0 { return months != 0 }
        for month in 1...12 where months & (1 << UInt16(month)) != 0 {
            let longest = CivilTime.daysInMonth(month, year: 2000)  // a leap year: February has 29 days
            if (1...longest).contains(where: { days & (1 << UInt32($0)) != 0 }) { return true }
        }
        return false
    }

    /// Days searched ahead for the next match: more than four years, so that "29 February" is found.
    static let searchedDays: Int64 = 4 * 366 + 2

    /// The first instant (UTC seconds since 1970) strictly after `seconds` at which the zone's wall clock
    /// reads a local time of this rule, resolved as ``CivilTime/resolve(local:in:)`` says (a skipped local
    /// time at the end of its gap, a repeated one at its first occurrence); `nil` when none falls within
    /// ``searchedDays`` (a rule that cannot match is refused when the schedule is made).
    func next(after seconds: Int64, in zone: TimeZone) -> Int64? {
        let localNow = CivilTime.local(seconds, in: zone)
        // Resolving is monotonic (a later local time never maps to an earlier instant), and the local time
        // now resolves to now or, in a repeated hour, to its first occurrence: a local time up to now's
        // never maps to an instant after now, so those candidates are skipped without resolving them.
        var dayNumber = CivilTime.floorDivide(localNow, CivilTime.secondsPerDay)
        let lastDay = dayNumber + Self.searchedDays
        while dayNumber <= lastDay {
            defer { dayNumber += 1 }
            let day = CivilTime.day(dayNumber)
            guard matches(day) else { continue }
            let midnight = dayNumber * CivilTime.secondsPerDay
            for hour in hours {
                for minute in minutes {
                    for second in self.seconds {
                        let local = midnight + Int64(hour * 3_600 + minute * 60 + second)
                        if local <= localNow { continue }
                        let instant = CivilTime.resolve(local: local, in: zone)
                        if instant > seconds { return instant }
                    }
                }
            }
        }
        return nil
    }
}
