import Foundation

/// Calendar days and local times of the proleptic Gregorian calendar (the one `Calendar(identifier:
/// .gregorian)` uses), and how a local time of a `TimeZone` maps to an instant.
///
/// A wall-clock schedule is computed in local calendar days of its zone, never by adding 86,400 s to an
/// instant: a local time is turned into an instant through the zone's offsets, which is where daylight
/// saving is decided (see ``resolve(local:in:)``). Days are counted from 1 January 1970; local times are
/// "local seconds": seconds since 1970-01-01 00:00 *as read on the zone's wall clock*.
enum CivilTime {
    static let secondsPerDay: Int64 = 86_400

    /// A day of the calendar: its year, month (1–12), day of the month (1–31) and weekday (0 = Sunday).
    struct Day: Equatable {
        let year: Int64
        let month: Int
        let day: Int
        let weekday: Int
    }

    /// The calendar day `days` days after 1 January 1970 (negative: before).
    static func day(_ days: Int64) -> Day {
        // Howard Hinnant's `civil_from_days`: eras of 400 years, years starting on 1 March.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        // 1 January 1970 was a Thursday (4).
        let weekday = Int(((days % 7) + 11) % 7)
        return Day(year: year, month: Int(month), day: Int(day), weekday: weekday)
    }

    /// The number of days from 1 January 1970 to `year`-`month`-`day`.
    static func days(year: Int64, month: Int, day: Int) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The number of days in `month` of `year`.
    static func daysInMonth(_ month: Int, year: Int64) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func isLeap(_ year: Int64) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// `value / divisor` rounded towards negative infinity.
    @inline(__always)
    static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }

    /// The zone's offset from UTC, in seconds, at the instant `seconds` after 1970 (UTC).
    @inline(__always)
    static func offset(at seconds: Int64, in zone: TimeZone) -> Int64 {
        Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds))))
    }

    /// The local seconds the zone's wall clock reads at the instant `seconds` (UTC, since 1970).
    static func local(_ seconds: Int64, in zone: TimeZone) -> Int64 {
        seconds + offset(at: seconds, in: zone)
    }

    /// The instant (UTC seconds since 1970) at which the zone's wall clock reads `local`:
    ///
    /// - a local time that occurs once maps to that instant;
    /// - a local time that occurs twice (the hour repeated when clocks go back) maps to its **first**
    ///   occurrence;
    /// - a local time that does not exist (skipped when clocks go forward) maps to the first instant after
    ///   the gap: the transition itself.
    ///
    /// The zone's offsets one day either side of `local` are the candidates (transitions of a zone are
    /// further apart than that).
    static func resolve(local: Int64, in zone: TimeZone) -> Int64 {
        let earlier = offset(at: local - secondsPerDay, in: zone)
        let later = offset(at: local + secondsPerDay, in: zone)
        // The earlier instant first: for a repeated local time that is the first occurrence.
        let first = local - max(earlier, later)
        let second = local - min(earlier, later)
        if offset(at: first, in: zone) == max(earlier, later) { return first }
        if offset(at: second, in: zone) == min(earlier, later) { return second }
        // In a gap: between `first` and `second` the offset changes from `earlier` to `later`; the
        // transition is the first second with the later offset (transitions fall on whole seconds).
        var low = first
        var high = second
        while low < high {
            let middle = low + (high - low) / 2
            if offset(at: middle, in: zone) == earlier { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
