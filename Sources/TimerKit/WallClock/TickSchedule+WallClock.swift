import Foundation

extension Set where Element == TickSchedule.Weekday {
    /// Monday to Friday: `.weekly(on: .weekdays, hour: 9)`.
    public static var weekdays: Set<TickSchedule.Weekday> { [.monday, .tuesday, .wednesday, .thursday, .friday] }
    /// Saturday and Sunday.
    public static var weekend: Set<TickSchedule.Weekday> { [.saturday, .sunday] }
}

extension TickSchedule {
    /// A day of the week, numbered as `Calendar`'s `weekday` component is (1 is Sunday).
    public enum Weekday: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// Sunday (`weekday` 1).
        case sunday = 1
        /// Monday (`weekday` 2).
        case monday
        /// Tuesday (`weekday` 3).
        case tuesday
        /// Wednesday (`weekday` 4).
        case wednesday
        /// Thursday (`weekday` 5).
        case thursday
        /// Friday (`weekday` 6).
        case friday
        /// Saturday (`weekday` 7).
        case saturday

        /// The English name, lowercased ("monday").
        public var description: String { "\(name)" }

        private var name: StaticString {
            switch self {
            case .sunday: "sunday"
            case .monday: "monday"
            case .tuesday: "tuesday"
            case .wednesday: "wednesday"
            case .thursday: "thursday"
            case .friday: "friday"
            case .saturday: "saturday"
            }
        }
    }

    /// What a wall-clock schedule does about occurrences that passed without a delivery: the device slept
    /// or the process was suspended across them, or the wall clock was set forward past them.
    ///
    /// - ``deliverOnce`` (the default, as for repeating tickers): one delivery as soon as the ticker can
    ///   run, standing for the latest occurrence passed; ``Tick/skipped`` counts the others. A daily
    ///   backup on a laptop that slept through three days runs once on wake, with `skipped == 2`.
    /// - ``skip``: an occurrence whose delivery would come more than a minute late is not delivered (the
    ///   ticker waits for the next one); the next tick's ``Tick/skipped`` counts it. Use
    ///   ``skip(after:)`` for another limit. For a reminder that only makes sense on time.
    public struct MissedOccurrences: Sendable, Hashable, CustomStringConvertible {
        /// How late a delivery may come before it is skipped; `nil`: never skipped.
        let graceNanoseconds: Int64?

        /// One delivery for the latest missed occurrence, with the others counted in ``Tick/skipped``.
        public static let deliverOnce = MissedOccurrences(graceNanoseconds: nil)

        /// Occurrences more than a minute late are not delivered (the limit cron-style schedulers such as
        /// Quartz use by default).
        public static let skip = skip(after: .seconds(60))

        /// Occurrences more than `grace` late are not delivered. A negative `grace` counts as zero: every
        /// late occurrence but one found exactly on time is skipped.
        public static func skip(after grace: Duration) -> MissedOccurrences {
            MissedOccurrences(graceNanoseconds: max(0, grace.saturatingNanoseconds))
        }

        /// "deliver once" or "skip after …".
        public var description: String {
            graceNanoseconds.map { "skip after \(Duration.nanoseconds($0))" } ?? "deliver once"
        }
    }

    // MARK: Aligned to the wall clock

    /// A repeating schedule whose deadlines fall on the wall clock's multiples of `interval`: on every
    /// whole second for `.seconds(1)`, on every whole minute for `.seconds(60)`, at :00, :15, :30 and :45
    /// for `.seconds(900)`. For a clock or a countdown label that must change exactly when the wall clock
    /// does.
    ///
    /// Each deadline is computed from the wall clock when the one before it is delivered, so the schedule
    /// never drifts from the wall clock, and it is computed again when the system clock is set (see the
    /// "Wall-clock schedules" article). Multiples are counted from 1970-01-01 00:00 UTC: for intervals that
    /// divide 15 minutes that is the local wall clock of every zone in use (their offsets are multiples of
    /// 15 minutes); for local hours use ``hourly(minute:second:in:tolerance:missed:file:line:)``.
    ///
    /// The handler runs on the ticker's context, never before the deadline by the wall clock;
    /// ``Tick/date`` is the wall-clock instant it stands for. Deadlines count on the continuous clock: a
    /// sleeping device misses them, and `missed` says what happens then.
    ///
    /// - Parameters:
    ///   - interval: positive; below ``minimumInterval`` it is clamped to it. Zero or less stops the program
    ///     with a message naming `file` and `line`.
    ///   - tolerance: lateness the engine may add to coalesce wake-ups; capped at half the interval.
    ///   - missed: what happens to deadlines that pass without a delivery (default ``MissedOccurrences/deliverOnce``).
    ///   - file: the caller's file, named by the message for a bad interval (filled in by the compiler).
    ///   - line: the caller's line (filled in by the compiler).
    public static func aligned(
        to interval: Duration, tolerance: Duration = .zero, missed: MissedOccurrences = .deliverOnce,
        file: StaticString = #fileID, line: UInt = #line
    ) -> TickSchedule {
        Diagnostics.require(interval > .zero, nonPositiveIntervalMessage("\(interval)"), file: file, line: line)
        var notes: [String] = []
        var step = interval.saturatingNanoseconds
        if step < minimumInterval.saturatingNanoseconds {
            notes.append("interval \(interval) is below the 100 µs minimum; clamped to 100 µs")
            step = minimumInterval.saturatingNanoseconds
        }
        let slack = wallTolerance(tolerance, cap: step / 2, capName: "half the interval", &notes)
        return TickSchedule(
            wall: WallSchedule(
                rule: .aligned(nanoseconds: step), timeZone: nil, missed: missed,
                summary: "aligned to \(Duration.nanoseconds(step))"),
            tolerance: slack, adjustments: notes)
    }

    // MARK: Calendar

    /// Every day at a local time of `timeZone`.
    ///
    /// Computed with the zone's calendar days, never by adding 86,400 s: a daily 09:00 stays at 09:00
    /// across daylight-saving changes. A local time that does not exist on a day (clocks go forward over
    /// it) fires once, at the first instant after the gap; a local time that occurs twice (clocks go
    /// back) fires once, at its first occurrence — as cron and Quartz do.
    ///
    /// The handler runs on the ticker's context; ``Tick/date`` is the occurrence's instant. Deadlines are
    /// computed again when the system clock is set or the zone changes (see the "Wall-clock schedules"
    /// article), and count on the continuous clock.
    ///
    /// - Parameters:
    ///   - hour: 0–23. Out of range, it stops the program with a message naming `file` and `line`.
    ///   - minute: 0–59 (default 0), likewise.
    ///   - second: 0–59 (default 0), likewise.
    ///   - timeZone: the zone whose local time is meant; `nil` (the default) is the current zone, followed
    ///     when it changes (under virtual time, the virtual zone).
    ///   - tolerance: lateness the engine may add to coalesce wake-ups (negative: zero; at most an hour).
    ///   - missed: what happens to occurrences that pass without a delivery (default ``MissedOccurrences/deliverOnce``).
    ///   - file: the caller's file, named by the message for bad input (filled in by the compiler).
    ///   - line: the caller's line (filled in by the compiler).
    public static func daily(
        hour: Int, minute: Int = 0, second: Int = 0, in timeZone: TimeZone? = nil, tolerance: Duration = .zero,
        missed: MissedOccurrences = .deliverOnce, file: StaticString = #fileID, line: UInt = #line
    ) -> TickSchedule {
        checkTime(hour: hour, minute: minute, second: second, file: file, line: line)
        return calendar(
            CalendarRule(
                seconds: [second], minutes: [minute], hours: [hour], days: CalendarRule.allDays,
                months: CalendarRule.allMonths, weekdays: CalendarRule.allWeekdays),
            summary: "daily at \(clockTime(hour, minute, second))", timeZone: timeZone, tolerance: tolerance,
            missed: missed)
    }

    /// On the chosen days of the week at a local time of `timeZone`: `.weekly(on: .weekdays, hour: 9)`.
    ///
    /// Daylight saving, clock changes and the handler's context are as for
    /// ``daily(hour:minute:second:in:tolerance:missed:file:line:)``. An empty set of weekdays, or a time
    /// out of range, stops the program with a message naming `file` and `line`.
    public static func weekly(
        on weekdays: Set<Weekday>, hour: Int, minute: Int = 0, second: Int = 0, in timeZone: TimeZone? = nil,
        tolerance: Duration = .zero, missed: MissedOccurrences = .deliverOnce, file: StaticString = #fileID,
        line: UInt = #line
    ) -> TickSchedule {
        Diagnostics.require(
            !weekdays.isEmpty, "TimerKit: a weekly schedule on no weekday never fires; name at least one day",
            file: file, line: line)
        checkTime(hour: hour, minute: minute, second: second, file: file, line: line)
        let bits = weekdays.reduce(UInt8(0)) { $0 | 1 << UInt8($1.rawValue - 1) }
        let names = Weekday.allCases.filter(weekdays.contains).map(\.description).joined(separator: ",")
        return calendar(
            CalendarRule(
                seconds: [second], minutes: [minute], hours: [hour], days: CalendarRule.allDays,
                months: CalendarRule.allMonths, weekdays: bits),
            summary: "weekly on \(names) at \(clockTime(hour, minute, second))", timeZone: timeZone,
            tolerance: tolerance, missed: missed)
    }

    /// Every month on a day of the month at a local time of `timeZone`.
    ///
    /// A month without that day (the 31st in a 30-day month, the 29th to 31st in February) is skipped, as
    /// cron skips it: `monthly(onDay: 31, hour: 9)` fires seven times a year. A day outside 1–31, or a
    /// time out of range, stops the program with a message naming `file` and `line`. Daylight saving,
    /// clock changes and the handler's context are as for
    /// ``daily(hour:minute:second:in:tolerance:missed:file:line:)``.
    public static func monthly(
        onDay day: Int, hour: Int, minute: Int = 0, second: Int = 0, in timeZone: TimeZone? = nil,
        tolerance: Duration = .zero, missed: MissedOccurrences = .deliverOnce, file: StaticString = #fileID,
        line: UInt = #line
    ) -> TickSchedule {
        Diagnostics.require(
            (1...31).contains(day),
            "TimerKit: day \(day) of the month is out of range; pass 1–31 (months without the day are skipped)",
            file: file, line: line)
        checkTime(hour: hour, minute: minute, second: second, file: file, line: line)
        return calendar(
            CalendarRule(
                seconds: [second], minutes: [minute], hours: [hour], days: 1 << UInt32(day),
                months: CalendarRule.allMonths, weekdays: CalendarRule.allWeekdays),
            summary: "monthly on day \(day) at \(clockTime(hour, minute, second))", timeZone: timeZone,
            tolerance: tolerance, missed: missed)
    }

    /// Every hour of `timeZone`'s local clock, at a minute and second past the hour.
    ///
    /// These are local hours: when clocks go back, the repeated hour's occurrence fires once (at its
    /// first occurrence, so two hours of elapsed time pass between two ticks); when they go forward, the
    /// skipped hour's occurrence fires at the end of the gap. For every hour of elapsed time, whatever
    /// the clocks do, use ``every(_:after:tolerance:count:clock:file:line:)`` with `.seconds(3_600)`.
    /// Minute or second outside 0–59 stops the program with a message naming `file` and `line`.
    public static func hourly(
        minute: Int = 0, second: Int = 0, in timeZone: TimeZone? = nil, tolerance: Duration = .zero,
        missed: MissedOccurrences = .deliverOnce, file: StaticString = #fileID, line: UInt = #line
    ) -> TickSchedule {
        checkTime(hour: 0, minute: minute, second: second, file: file, line: line)
        return calendar(
            CalendarRule(
                seconds: [second], minutes: [minute], hours: Array(0...23), days: CalendarRule.allDays,
                months: CalendarRule.allMonths, weekdays: CalendarRule.allWeekdays),
            summary: "hourly at :\(twoDigits(minute)):\(twoDigits(second))", timeZone: timeZone,
            tolerance: tolerance, missed: missed)
    }

    /// The local times a cron expression names, in `timeZone`: five fields, minute (0–59), hour (0–23),
    /// day of the month (1–31), month (1–12) and day of the week (0–7, 0 and 7 are Sunday), each `*`, a
    /// number, a range `a-b`, a list `a,b,c` or a step `*/n` / `a-b/n`. Names of months and days are not
    /// accepted. When both day fields are restricted, a day matching either fires (cron's rule).
    ///
    /// `"30 9 * * 1-5"` is 09:30 on weekdays. Daylight saving, clock changes and the handler's context are
    /// as for ``daily(hour:minute:second:in:tolerance:missed:file:line:)``.
    ///
    /// - Throws: ``CronExpressionError`` naming the field at fault, for an expression that is malformed,
    ///   out of range, or can never match (`"0 0 30 2 *"`).
    public static func cron(
        _ expression: String, in timeZone: TimeZone? = nil, tolerance: Duration = .zero,
        missed: MissedOccurrences = .deliverOnce
    ) throws(CronExpressionError) -> TickSchedule {
        let rule = try CronExpression.parse(expression)
        return calendar(
            rule, summary: "cron \"\(expression)\"", timeZone: timeZone, tolerance: tolerance, missed: missed)
    }

    // MARK: Shared

    private static func calendar(
        _ rule: CalendarRule, summary: String, timeZone: TimeZone?, tolerance: Duration, missed: MissedOccurrences
    ) -> TickSchedule {
        var notes: [String] = []
        let slack = wallTolerance(tolerance, cap: 3_600_000_000_000, capName: "an hour", &notes)
        let zone = timeZone.map { " \($0.identifier)" } ?? ""
        return TickSchedule(
            wall: WallSchedule(rule: .calendar(rule), timeZone: timeZone, missed: missed, summary: summary + zone),
            tolerance: slack, adjustments: notes)
    }

    private static func wallTolerance(
        _ tolerance: Duration, cap: Int64, capName: String, _ notes: inout [String]
    ) -> Int64 {
        var slack = tolerance.saturatingNanoseconds
        if slack < 0 {
            notes.append("tolerance \(tolerance) is negative; clamped to zero")
            slack = 0
        }
        if slack > cap {
            notes.append("tolerance \(tolerance) exceeds \(capName); capped at \(Duration.nanoseconds(cap))")
            slack = cap
        }
        return slack
    }

    private static func checkTime(hour: Int, minute: Int, second: Int, file: StaticString, line: UInt) {
        Diagnostics.require(
            (0...23).contains(hour) && (0...59).contains(minute) && (0...59).contains(second),
            "TimerKit: \(hour):\(minute):\(second) is not a time of day; pass an hour of 0–23 and a minute and "
                + "second of 0–59", file: file, line: line)
    }

    private static func clockTime(_ hour: Int, _ minute: Int, _ second: Int) -> String {
        "\(twoDigits(hour)):\(twoDigits(minute))" + (second == 0 ? "" : ":\(twoDigits(second))")
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
