import Foundation
import Synchronization
import Testing
import TimerKit
import TimerKitTesting

// Wall-clock and calendar schedules on virtual time, through the public API only: daylight saving in
// three zones (one southern, one with a 30-minute shift), aligned ticks, clock sets, zone changes,
// missed occurrences, the lifecycle, and the owner, actor and main-actor forms.

/// What a handler saw.
final class SeenTicks: Sendable {
    private let ticks = Mutex<[Tick]>([])
    func append(_ tick: Tick) { ticks.withLock { $0.append(tick) } }
    var all: [Tick] { ticks.withLock { $0 } }
    var dates: [Date] { all.compactMap(\.date) }
    var count: Int { all.count }
}

enum WallClockFixtures {
    static func date(_ text: String) -> Date {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        guard let date = formatter.date(from: text) else { preconditionFailure("bad fixture date \(text)") }
        return date
    }

    static func zone(_ identifier: String) -> TimeZone {
        guard let zone = TimeZone(identifier: identifier) else { preconditionFailure("no zone \(identifier)") }
        return zone
    }

    /// The local reading of `date` in `zone`, with its offset: "2026-03-08 03:00:00 -0400".
    static func local(_ date: Date, _ zone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss xx"
        return formatter.string(from: date)
    }

    /// The continuous time between consecutive ticks, in hours.
    static func hoursBetween(_ ticks: [Tick]) -> [Double] {
        zip(ticks, ticks.dropFirst()).map { Double($0.deadline.duration(to: $1.deadline).components.seconds) / 3_600 }
    }
}

@Suite struct WallClockScheduleTests {
    typealias F = WallClockFixtures
    let queue = DispatchQueue(label: "WallClockScheduleTests")

    /// Runs `schedule` on a queue from `start` for `days` days of virtual time; returns what it delivered.
    func run(_ schedule: @autoclosure () -> TickSchedule, from start: String, days: Int) -> [Tick] {
        let time = VirtualTime()
        time.setWallClock(to: F.date(start))
        let seen = SeenTicks()
        let ticker = time.run { Ticker.schedule(schedule(), on: .dispatch(queue)) { seen.append($0) } }
        time.advance(by: .seconds(days * 86_400))
        ticker.cancel()
        return seen.all
    }

    // MARK: Daylight saving, three zones, both transitions

    /// One daily schedule through one transition: the local readings it fired at, and the hours between.
    struct Transition: CustomStringConvertible {
        let zone: String
        let hour: Int
        let minute: Int
        let start: String
        let readings: [String]
        let hours: [Double]
        var description: String { "\(zone) daily \(hour):\(minute) from \(start)" }
    }

    static let transitions: [Transition] = [
        // New York, spring forward (02:00 EST → 03:00 EDT): 02:30 does not exist, fires at 03:00.
        Transition(
            zone: "America/New_York", hour: 2, minute: 30, start: "2026-03-06T12:00:00-05:00",
            readings: ["2026-03-07 02:30:00 -0500", "2026-03-08 03:00:00 -0400", "2026-03-09 02:30:00 -0400"],
            hours: [23.5, 23.5]),
        // New York, fall back (02:00 EDT → 01:00 EST): 01:30 occurs twice, fires once, at the first.
        Transition(
            zone: "America/New_York", hour: 1, minute: 30, start: "2026-10-30T12:00:00-04:00",
            readings: ["2026-10-31 01:30:00 -0400", "2026-11-01 01:30:00 -0400", "2026-11-02 01:30:00 -0500"],
            hours: [24, 25]),
        // Sydney (southern hemisphere), spring forward in October (02:00 AEST → 03:00 AEDT).
        Transition(
            zone: "Australia/Sydney", hour: 2, minute: 30, start: "2026-10-02T12:00:00+10:00",
            readings: ["2026-10-03 02:30:00 +1000", "2026-10-04 03:00:00 +1100", "2026-10-05 02:30:00 +1100"],
            hours: [23.5, 23.5]),
        // Sydney, fall back in April (03:00 AEDT → 02:00 AEST): 02:30 occurs twice.
        Transition(
            zone: "Australia/Sydney", hour: 2, minute: 30, start: "2026-04-03T12:00:00+11:00",
            readings: ["2026-04-04 02:30:00 +1100", "2026-04-05 02:30:00 +1100", "2026-04-06 02:30:00 +1000"],
            hours: [24, 25]),
        // Lord Howe Island, a 30-minute shift: 02:00 → 02:30 in October, so 02:15 fires at 02:30.
        Transition(
            zone: "Australia/Lord_Howe", hour: 2, minute: 15, start: "2026-10-02T12:00:00+10:30",
            readings: ["2026-10-03 02:15:00 +1030", "2026-10-04 02:30:00 +1100", "2026-10-05 02:15:00 +1100"],
            hours: [23.75, 23.75]),
        // Lord Howe, 02:00 → 01:30 in April: 01:45 occurs twice, fires at the first.
        Transition(
            zone: "Australia/Lord_Howe", hour: 1, minute: 45, start: "2026-04-03T12:00:00+11:00",
            readings: ["2026-04-04 01:45:00 +1100", "2026-04-05 01:45:00 +1100", "2026-04-06 01:45:00 +1030"],
            hours: [24, 24.5]),
    ]

    @Test func dailySchedulesFireOnceThroughBothTransitionsOfThreeZones() {
        for transition in Self.transitions {
            let zone = F.zone(transition.zone)
            let ticks = run(
                .daily(hour: transition.hour, minute: transition.minute, in: zone), from: transition.start, days: 3)
            #expect(ticks.compactMap(\.date).map { F.local($0, zone) } == transition.readings, "\(transition)")
            #expect(F.hoursBetween(ticks) == transition.hours, "\(transition)")
            #expect(ticks.map(\.index) == [1, 2, 3], "\(transition)")
            #expect(ticks.allSatisfy { $0.skipped == 0 && $0.lateness == .zero }, "\(transition)")
        }
    }

    @Test func localHoursSkipTheRepeatedHourAndMergeTheMissingOne() {
        let zone = F.zone("America/New_York")
        let fallBack = hourly(in: zone, from: "2026-11-01T00:00:00-04:00", hours: 5)
        #expect(
            fallBack.map { F.local($0.date!, zone) } == [
                "2026-11-01 00:30:00 -0400", "2026-11-01 01:30:00 -0400", "2026-11-01 02:30:00 -0500",
                "2026-11-01 03:30:00 -0500",
            ])
        let springForward = hourly(in: zone, from: "2026-03-08T00:00:00-05:00", hours: 3)
        #expect(
            springForward.map { F.local($0.date!, zone) } == [
                "2026-03-08 00:30:00 -0500", "2026-03-08 01:30:00 -0500", "2026-03-08 03:00:00 -0400",
                "2026-03-08 03:30:00 -0400",
            ])
    }

    private func hourly(in zone: TimeZone, from start: String, hours: Int) -> [Tick] {
        let time = VirtualTime()
        time.setWallClock(to: F.date(start))
        let seen = SeenTicks()
        let ticker = time.run {
            Ticker.schedule(.hourly(minute: 30, in: zone), on: .dispatch(queue)) { seen.append($0) }
        }
        time.advance(by: .seconds(hours * 3_600))
        ticker.cancel()
        return seen.all
    }

    @Test func everyHourOfElapsedTimeStaysElapsedAcrossDaylightSaving() {
        let time = VirtualTime()
        time.timeZone = F.zone("America/New_York")
        time.setWallClock(to: F.date("2026-11-01T00:00:00-04:00"))
        let seen = SeenTicks()
        let ticker = time.run {
            Ticker.schedule(.every(.seconds(3_600), clock: .continuous), on: .dispatch(queue)) { seen.append($0) }
        }
        time.advance(by: .seconds(4 * 3_600))
        #expect(seen.all.map(\.index) == [1, 2, 3, 4])
        #expect(F.hoursBetween(seen.all) == [1, 1, 1])
        ticker.cancel()
    }

    // MARK: Weekly, monthly, cron

    @Test func weeklyMonthlyAndCronPickTheirDays() throws {
        let zone = F.zone("Europe/Paris")
        // 2026-06-01 is a Monday.
        let weekly = run(
            .weekly(on: [.monday, .friday], hour: 9, in: zone), from: "2026-06-01T10:00:00+02:00", days: 10)
        #expect(
            weekly.compactMap(\.date).map { F.local($0, zone) } == [
                "2026-06-05 09:00:00 +0200", "2026-06-08 09:00:00 +0200",
            ])
        // Day 31: months without it are skipped, as cron skips them.
        let monthly = run(.monthly(onDay: 31, hour: 8, in: zone), from: "2026-03-31T12:00:00+02:00", days: 125)
        #expect(
            monthly.compactMap(\.date).map { F.local($0, zone) } == [
                "2026-05-31 08:00:00 +0200", "2026-07-31 08:00:00 +0200",
            ])
        let weekdays = try TickSchedule.cron("30 9 * * 1-5", in: zone)
        let cron = run(weekdays, from: "2026-06-05T10:00:00+02:00", days: 3)
        #expect(
            cron.compactMap(\.date).map { F.local($0, zone) } == [
                "2026-06-08 09:30:00 +0200"
            ])
    }

    @Test func badCronExpressionsNameTheirField() {
        let cases: [(String, String)] = [
            ("* * *", "expression"), ("60 * * * *", "minute"), ("0 24 * * *", "hour"),
            ("0 0 0 * *", "day of the month"),
            ("0 0 * 13 *", "month"), ("0 0 * * 8", "day of the week"), ("0 0 30 2 *", "expression"),
            ("*/0 * * * *", "minute"), ("5-1 * * * *", "minute"), ("a * * * *", "minute"),
        ]
        for (expression, field) in cases {
            #expect(throws: CronExpressionError.self, "\(expression)") { try TickSchedule.cron(expression) }
            do {
                _ = try TickSchedule.cron(expression)
            } catch {
                #expect(error.field == field, "\(expression): \(error)")
                #expect(error.description.hasPrefix("cron \"\(expression)\": \(field): "), "\(error)")
            }
        }
    }

    // MARK: Aligned ticks

    @Test func alignedTicksFallOnWholeSecondsAndRealignWhenTheClockIsSet() {
        let time = VirtualTime()
        time.setWallClock(to: F.date("2026-12-03T10:00:00Z").addingTimeInterval(0.3))
        let seen = SeenTicks()
        let ticker = time.run { Ticker.schedule(.aligned(to: .seconds(1)), on: .dispatch(queue)) { seen.append($0) } }
        time.advance(by: .milliseconds(3_000))
        let whole = F.date("2026-12-03T10:00:00Z")
        #expect(seen.dates == [1, 2, 3].map { whole.addingTimeInterval($0) })
        #expect(seen.all.first?.deadline == VirtualTime.start.advanced(by: .milliseconds(700)))
        // Time synchronisation sets the clock back 0.4 s (it reads 10:00:02.9): the next tick is at 10:00:04
        // by the wall clock, 1.1 s from now; 10:00:03, delivered already, is not delivered again.
        time.moveWallClock(by: .milliseconds(-400))
        time.advance(by: .milliseconds(1_099))
        #expect(seen.count == 3)
        time.advance(by: .milliseconds(1))
        #expect(seen.dates.last == whole.addingTimeInterval(4))
        #expect(seen.all.map(\.index) == [1, 2, 3, 4])
        ticker.cancel()
    }

    // MARK: The clock is set, the zone changes

    @Test func aClockSetForwardPastAnOccurrenceIsAMissedOccurrence() {
        for missed in [TickSchedule.MissedOccurrences.deliverOnce, .skip] {
            let time = VirtualTime()
            time.setWallClock(to: F.date("2026-12-03T08:00:00Z"))
            let (seen, uptime) = (SeenTicks(), SeenTicks())
            let (daily, hourly) = time.run {
                (
                    Ticker.schedule(.daily(hour: 9, missed: missed), on: .dispatch(queue)) { seen.append($0) },
                    Ticker.schedule(.every(.seconds(3_600)), on: .dispatch(queue)) { uptime.append($0) }
                )
            }
            time.moveWallClock(by: .seconds(2 * 3_600))  // now 10:00 by the wall clock
            time.runDue()
            if missed == .deliverOnce {
                #expect(seen.dates == [F.date("2026-12-03T09:00:00Z")], "\(missed)")
                #expect(seen.all.first?.lateness == .seconds(3_600), "\(missed)")
            } else {
                #expect(seen.count == 0, "\(missed)")
            }
            time.advance(by: .seconds(23 * 3_600))  // 09:00 the next day
            #expect(seen.dates.last == F.date("2026-12-04T09:00:00Z"), "\(missed)")
            #expect(seen.all.last?.skipped == (missed == .skip ? 1 : 0), "\(missed)")
            #expect(seen.all.last?.index == 2, "\(missed)")
            // Uptime tickers are never moved: one tick per hour of the virtual timeline.
            #expect(uptime.count == 23, "\(missed)")
            #expect(uptime.all.allSatisfy { $0.lateness == .zero }, "\(missed)")
            daily.cancel()
            hourly.cancel()
        }
    }

    @Test func aClockSetBackNeverDeliversAnOccurrenceTwice() {
        let time = VirtualTime()
        time.setWallClock(to: F.date("2026-12-03T08:59:00Z"))
        let seen = SeenTicks()
        let ticker = time.run { Ticker.schedule(.daily(hour: 9), on: .dispatch(queue)) { seen.append($0) } }
        time.advance(by: .seconds(60))
        #expect(seen.dates == [F.date("2026-12-03T09:00:00Z")])
        // Set back an hour: 09:00 today comes again by the wall clock, and is not delivered again.
        time.moveWallClock(by: .seconds(-3_600))
        time.advance(by: .seconds(2 * 3_600))
        #expect(seen.count == 1)
        // The wall clock reads 10:00: the next is 09:00 tomorrow.
        #expect(ticker.nextDeadline == time.now.advanced(by: .seconds(23 * 3_600)))
        // Set back two days: the schedule follows the wall clock again (09:00 of the day before yesterday).
        time.setWallClock(to: F.date("2026-12-01T08:00:00Z"))
        time.advance(by: .seconds(3_600))
        #expect(seen.dates.last == F.date("2026-12-01T09:00:00Z"))
        ticker.cancel()
    }

    @Test func aZoneChangeMovesSchedulesOfTheCurrentZoneOnly() {
        let time = VirtualTime()
        time.setWallClock(to: F.date("2026-12-03T06:00:00Z"))
        let (current, fixed) = (SeenTicks(), SeenTicks())
        let tickers = time.run {
            [
                Ticker.schedule(.daily(hour: 9), on: .dispatch(queue)) { current.append($0) },
                Ticker.schedule(.daily(hour: 9, in: F.zone("UTC")), on: .dispatch(queue)) { fixed.append($0) },
            ]
        }
        // The device moves to Tokyo (UTC+9): 09:00 there is 00:00 UTC tomorrow.
        time.timeZone = F.zone("Asia/Tokyo")
        time.advance(by: .seconds(24 * 3_600))
        #expect(current.dates == [F.date("2026-12-04T00:00:00Z")])
        #expect(fixed.dates == [F.date("2026-12-03T09:00:00Z")])
        tickers.forEach { $0.cancel() }
    }

    // MARK: Missed occurrences

    @Test func aSuspendedProcessGetsOneDeliveryOrNoneByItsPolicy() {
        for missed in [TickSchedule.MissedOccurrences.deliverOnce, .skip, .skip(after: .seconds(7_200))] {
            let time = VirtualTime()
            time.setWallClock(to: F.date("2026-12-03T08:00:00Z"))
            let seen = SeenTicks()
            let ticker = time.run {
                Ticker.schedule(.daily(hour: 9, missed: missed), on: .dispatch(queue)) { seen.append($0) }
            }
            // Asleep from 08:00 to 10:00 three days later: 09:00 passed four times.
            time.suspend(for: .seconds(3 * 86_400 + 2 * 3_600))
            switch missed {
            case .skip:
                #expect(seen.count == 0, "\(missed)")
            default:
                #expect(seen.dates == [F.date("2026-12-06T09:00:00Z")], "\(missed)")
                #expect(seen.all.first?.skipped == 3, "\(missed)")
                #expect(seen.all.first?.index == 4, "\(missed)")
                #expect(seen.all.first?.lateness == .seconds(3_600), "\(missed)")
            }
            time.advance(by: .seconds(23 * 3_600))
            #expect(seen.dates.last == F.date("2026-12-07T09:00:00Z"), "\(missed)")
            #expect(seen.all.last?.index == 5, "\(missed)")
            #expect(seen.all.last?.skipped == (missed == .skip ? 4 : 0), "\(missed)")
            #expect(ticker.fireCount == seen.count, "\(missed)")
            ticker.cancel()
        }
    }

    // MARK: Lifecycle

    @Test func pauseResumeRestartAndFireFollowTheWallClock() {
        let time = VirtualTime()
        time.setWallClock(to: F.date("2026-12-03T08:00:00Z"))
        let seen = SeenTicks()
        let ticker = time.run {
            Ticker.schedule(.daily(hour: 9), on: .dispatch(queue), startsImmediately: false) { seen.append($0) }
        }
        #expect(ticker.state == .idle)
        #expect(ticker.nextDeadline == nil)
        #expect(ticker.timeRemaining == nil)
        ticker.start()
        #expect(ticker.nextDeadline == time.now.advanced(by: .seconds(3_600)))
        #expect(ticker.timeRemaining == .seconds(3_600))
        time.advance(by: .seconds(3_600))
        #expect(seen.all.map(\.index) == [1])
        // Paused over two occurrences: neither is delivered; resumed, the next is tomorrow's.
        ticker.pause()
        #expect(ticker.timeRemaining == nil)
        time.advance(by: .seconds(2 * 86_400))
        ticker.resume()
        #expect(ticker.nextDeadline == time.now.advanced(by: .seconds(86_400)))
        time.advance(by: .seconds(86_400))
        #expect(seen.dates.last == F.date("2026-12-06T09:00:00Z"))
        // A manual fire is out of schedule: no date, the schedule stays.
        ticker.fire()
        time.runDue()
        #expect(seen.all.last?.isManual == true)
        #expect(seen.all.last?.date == nil)
        #expect(ticker.nextDeadline == time.now.advanced(by: .seconds(86_400)))
        // Restarted: counted from 1 again.
        time.advance(by: .seconds(3_600))
        ticker.restart()
        time.advance(by: .seconds(86_400))
        #expect(seen.all.last?.index == 1)
        #expect(seen.dates.last == F.date("2026-12-07T09:00:00Z"))
        #expect(ticker.fireCount == seen.count)
        ticker.cancel()
        #expect(ticker.state == .cancelled)
    }

    @Test func describesItsSchedule() {
        #expect("\(TickSchedule.daily(hour: 9, minute: 30))" == "daily at 09:30")
        #expect("\(TickSchedule.daily(hour: 9, in: F.zone("Europe/Paris")))" == "daily at 09:00 Europe/Paris")
        #expect(
            "\(TickSchedule.weekly(on: .weekdays, hour: 7, second: 5))"
                == "weekly on monday,tuesday,wednesday,thursday,friday at 07:00:05")
        #expect("\(TickSchedule.aligned(to: .seconds(1)))" == "aligned to 1.0 seconds")
        #expect(TickSchedule.hourly().followsWallClock)
        #expect(!TickSchedule.every(.seconds(1)).followsWallClock)
        let time = VirtualTime()
        let ticker = time.run { Ticker.schedule(.monthly(onDay: 1, hour: 0), on: .dispatch(queue)) { _ in } }
        #expect(ticker.snapshot?.schedule.description == "monthly on day 1 at 00:00")
        ticker.cancel()
    }
}

// MARK: Owner, actor and main-actor forms

/// A store that backs itself up every night, as an actor.
private actor NightlyBackup {
    private(set) var backups: [Date] = []
    private var job: Ticker?

    func schedule() {
        job = Ticker.schedule(.daily(hour: 2), owner: self) { backup, tick in
            backup.backups.append(tick.date!)
        }
    }
}

/// A clock label: shows the wall clock's time, changed on every whole second.
@MainActor private final class ClockLabel {
    private(set) var shown: [Date] = []
    private var ticker: Ticker?

    func start() {
        ticker = Ticker.schedule(.aligned(to: .seconds(1)), owner: self) { label, tick in
            label.shown.append(tick.date!)
        }
    }
}

/// An owner on a queue.
private final class Reminder: Sendable {
    let seen = SeenTicks()
}

@Suite(.virtualTime) @MainActor struct WallClockFormsTests {
    let time = VirtualTime.current!
    typealias F = WallClockFixtures

    @Test func anActorsNightlyJobRunsIsolatedToIt() async {
        time.setWallClock(to: F.date("2026-12-03T12:00:00Z"))
        let backup = NightlyBackup()
        await backup.schedule()
        await time.advance(by: .seconds(2 * 86_400))
        #expect(await backup.backups == [F.date("2026-12-04T02:00:00Z"), F.date("2026-12-05T02:00:00Z")])
    }

    @Test func aMainActorClockLabelFlipsOnTheSecond() async {
        time.setWallClock(to: F.date("2026-12-03T12:00:00Z").addingTimeInterval(0.25))
        let label = ClockLabel()
        label.start()
        await time.advance(by: .seconds(2))
        #expect(label.shown == [1, 2].map { F.date("2026-12-03T12:00:00Z").addingTimeInterval($0) })
    }

    @Test func anOwnerBoundScheduleStopsWithItsOwner() async throws {
        time.setWallClock(to: F.date("2026-12-03T12:00:00Z"))
        var reminder: Reminder? = Reminder()
        weak let weakReminder = reminder
        let seen = try #require(reminder?.seen)
        let ticker = Ticker.schedule(
            .hourly(), on: .dispatch(DispatchQueue(label: "WallClockFormsTests")), owner: reminder!
        ) { reminder, tick in reminder.seen.append(tick) }
        await time.advance(by: .seconds(3_600))
        #expect(seen.count == 1)
        reminder = nil
        #expect(weakReminder == nil)
        await time.advance(by: .seconds(3_600))
        #expect(seen.count == 1)
        #expect(ticker.state == .cancelled)
    }
}
