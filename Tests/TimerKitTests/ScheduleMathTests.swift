import Foundation
import Testing
import TimerKitTestSupport

@testable import TimerKit

/// `TickSchedule` is pure value math: factories, clamping rules, deadline offsets and the
/// "which deadline is due" computation, checked exhaustively against the rules documented in
/// Sources/TimerKit/Core/TickSchedule.swift.
@Suite struct ScheduleMathTests {
    init() { LogCapture.install() }

    static let second: Int64 = 1_000_000_000
    static let floor: Int64 = 100_000  // TickSchedule.minimumInterval in nanoseconds

    // MARK: Factories

    /// The factories (every, after, countdown) and what a schedule reports. Each check runs on a fresh instance of the suite.
    @Test func factoriesBuildTheDocumentedSchedules() {
        Self().minimumIntervalIsOneHundredMicroseconds()
        Self().everyDefaultsFirstDelayToOneInterval()
        Self().everyWithExplicitDelayToleranceAndCount()
        Self().everyWithZeroDelayHasItsFirstDeadlineAtTheStart()
        Self().afterIsAOneShotWhoseIntervalEqualsItsDelay()
        Self().afterZeroIsDueAtTheStart()
        Self().countdownIsACountedEverySchedule()
        Self().countdownDefaultsToOneSecond()
        Self().repeatsDependsOnlyOnTheCount()
        Self().unboundedScheduleNeverHasAFinalDeadline()
        Self().equalInputsMakeEqualSchedules()
    }

    func minimumIntervalIsOneHundredMicroseconds() {
        #expect(TickSchedule.minimumInterval == .microseconds(100))
        #expect(TickSchedule.minimumInterval.saturatingNanoseconds == Self.floor)
    }

    func everyDefaultsFirstDelayToOneInterval() {
        let schedule = TickSchedule.every(.seconds(1))
        #expect(schedule.firstDelayNanoseconds == Self.second)
        #expect(schedule.intervalNanoseconds == Self.second)
        #expect(schedule.toleranceNanoseconds == 0)
        #expect(schedule.count == nil)
        #expect(schedule.repeats)
        #expect(schedule.adjustments.isEmpty)
        #expect(schedule.firstDelay == .seconds(1))
        #expect(schedule.interval == .seconds(1))
        #expect(schedule.tolerance == .zero)
        #expect(schedule.description == "every \(Duration.seconds(1))")
    }

    func everyWithExplicitDelayToleranceAndCount() {
        let schedule = TickSchedule.every(
            .milliseconds(500), after: .milliseconds(20), tolerance: .milliseconds(5), count: 7)
        #expect(schedule.firstDelay == .milliseconds(20))
        #expect(schedule.interval == .milliseconds(500))
        #expect(schedule.tolerance == .milliseconds(5))
        #expect(schedule.count == 7)
        #expect(schedule.repeats)
        #expect(schedule.adjustments.isEmpty)
        #expect(schedule.description == "every \(Duration.milliseconds(500)) ×7")
    }

    func everyWithZeroDelayHasItsFirstDeadlineAtTheStart() {
        let schedule = TickSchedule.every(.seconds(1), after: .zero)
        #expect(schedule.firstDelayNanoseconds == 0)
        #expect(schedule.offset(ofDeadline: 1) == 0)
        #expect(schedule.lastIndex(dueBy: 0) == 1)
        #expect(schedule.adjustments.isEmpty)
    }

    func afterIsAOneShotWhoseIntervalEqualsItsDelay() {
        let schedule = TickSchedule.after(.seconds(2), tolerance: .milliseconds(10))
        #expect(schedule.firstDelayNanoseconds == 2 * Self.second)
        #expect(schedule.intervalNanoseconds == 2 * Self.second)
        #expect(schedule.tolerance == .milliseconds(10))
        #expect(schedule.count == 1)
        #expect(!schedule.repeats)
        #expect(schedule.adjustments.isEmpty)
        #expect(schedule.description == "after \(Duration.seconds(2))")
        #expect(schedule.isFinal(1))
    }

    func afterZeroIsDueAtTheStart() {
        let schedule = TickSchedule.after(.zero)
        #expect(schedule.adjustments.isEmpty)
        #expect(schedule.firstDelayNanoseconds == 0)
        #expect(schedule.intervalNanoseconds == 0)
        #expect(schedule.offset(ofDeadline: 1) == 0)
        #expect(schedule.lastIndex(dueBy: -1) == 0)
        #expect(schedule.lastIndex(dueBy: 0) == 1)
        #expect(schedule.lastIndex(dueBy: .max) == 1)
    }

    func countdownIsACountedEverySchedule() {
        for count in [1, 2, 3, 10, 1_000] {
            Self().countdownIsACountedEverySchedule(count: count)
        }
    }

    func countdownIsACountedEverySchedule(count: Int) {
        let schedule = TickSchedule.countdown(from: count, every: .milliseconds(250))
        #expect(schedule == .every(.milliseconds(250), count: count), "count \(count)")
        #expect(schedule.count == count, "count \(count)")
        #expect(schedule.firstDelay == .milliseconds(250), "count \(count)")
        #expect(schedule.repeats == (count > 1), "count \(count)")
        #expect(schedule.adjustments.isEmpty, "count \(count)")
        #expect(!schedule.isFinal(count - 1), "count \(count)")
        #expect(schedule.isFinal(count), "count \(count)")
        #expect(schedule.isFinal(count + 1), "count \(count)")
    }

    func countdownDefaultsToOneSecond() {
        let schedule = TickSchedule.countdown(from: 3)
        #expect(schedule.interval == .seconds(1))
        #expect(schedule.firstDelay == .seconds(1))
        #expect(schedule.count == 3)
    }

    func repeatsDependsOnlyOnTheCount() {
        #expect(TickSchedule.every(.seconds(1)).repeats)
        #expect(TickSchedule.every(.seconds(1), count: 2).repeats)
        #expect(!TickSchedule.every(.seconds(1), count: 1).repeats)
        #expect(!TickSchedule.every(.seconds(1), count: 0).repeats)
        #expect(!TickSchedule.after(.seconds(1)).repeats)
    }

    func unboundedScheduleNeverHasAFinalDeadline() {
        let schedule = TickSchedule.every(.seconds(1))
        for index in [1, 2, 1_000_000, Int.max - 1, Int.max] {
            #expect(!schedule.isFinal(index))
        }
    }

    func equalInputsMakeEqualSchedules() {
        #expect(TickSchedule.every(.seconds(1)) == .every(.milliseconds(1_000)))
        #expect(TickSchedule.every(seconds: 1) == .every(.seconds(1)))
        #expect(TickSchedule.after(seconds: 0.25) == .after(.milliseconds(250)))
        #expect(TickSchedule.every(.seconds(1)) != .every(.seconds(1), count: 3))
        #expect(TickSchedule.every(.seconds(1)).hashValue == TickSchedule.every(.milliseconds(1_000)).hashValue)
    }

    // MARK: Deadline offsets

    /// Deadline offsets and the due-index computation. Each check runs on a fresh instance of the suite.
    @Test func offsetsAndLastIndexAreExactAndSaturate() {
        Self().offsetsAreFirstDelayPlusWholeIntervals()
        Self().offsetsSaturateInsteadOfOverflowing()
        Self().lastIndexDueByCountsDeadlinesAtOrBeforeTheElapsedTime()
        Self().lastIndexInvertsOffset()
        Self().lastIndexIsBoundedByTheCount()
        Self().lastIndexSaturatesWithHugeValues()
    }

    func offsetsAreFirstDelayPlusWholeIntervals() {
        let schedule = TickSchedule.every(.seconds(1), after: .milliseconds(250))
        for index in 1...100 {
            #expect(schedule.offset(ofDeadline: index) == 250_000_000 + Int64(index - 1) * Self.second)
        }
        let plain = TickSchedule.every(.nanoseconds(333_333_333))
        for index in 1...1_000 {
            #expect(plain.offset(ofDeadline: index) == Int64(index) * 333_333_333)
        }
    }

    func offsetsSaturateInsteadOfOverflowing() {
        let second = TickSchedule.every(.seconds(1))
        #expect(second.offset(ofDeadline: Int.max) == .max)
        #expect(second.offset(ofDeadline: 9_223_372_036) == 9_223_372_036 * Self.second)
        #expect(second.offset(ofDeadline: 9_223_372_037) == .max)
        let fastest = TickSchedule.every(.microseconds(100))
        #expect(fastest.offset(ofDeadline: Int.max) == .max)
        let huge = TickSchedule.every(.seconds(Int64.max))
        #expect(huge.offset(ofDeadline: 1) == .max)
        #expect(huge.offset(ofDeadline: 2) == .max)
        let lateStart = TickSchedule.every(.seconds(1), after: .nanoseconds(Int64.max - 10))
        #expect(lateStart.offset(ofDeadline: 1) == .max - 10)
        #expect(lateStart.offset(ofDeadline: 2) == .max)
    }

    // MARK: lastIndex(dueBy:)

    func lastIndexDueByCountsDeadlinesAtOrBeforeTheElapsedTime() {
        let schedule = TickSchedule.every(.seconds(1))
        let table: [(Int64, Int)] = [
            (.min, 0), (-1, 0), (0, 0), (999_999_999, 0),
            (1_000_000_000, 1), (1_500_000_000, 1), (1_999_999_999, 1),
            (2_000_000_000, 2), (3_500_000_000, 3), (3_600 * 1_000_000_000, 3_600),
            (.max, Int(Int64.max / Self.second)),
        ]
        for (elapsed, expected) in table {
            #expect(schedule.lastIndex(dueBy: elapsed) == expected, "elapsed \(elapsed)")
        }
    }

    func lastIndexInvertsOffset() {
        for schedule in [
            TickSchedule.every(.seconds(1)),
            .every(.seconds(1), after: .zero),
            .every(.milliseconds(7), after: .milliseconds(3)),
            .every(.microseconds(100)),
            .every(.nanoseconds(333_333_333), after: .seconds(5)),
            .every(.seconds(1), count: 40),
            .countdown(from: 12, every: .milliseconds(40)),
        ] {
            Self().lastIndexInvertsOffset(schedule: schedule)
        }
    }

    func lastIndexInvertsOffset(schedule: TickSchedule) {
        let last = schedule.count ?? 60
        for index in 1...last {
            let offset = schedule.offset(ofDeadline: index)
            #expect(schedule.lastIndex(dueBy: offset) == index, "schedule \(schedule)")
            #expect(schedule.lastIndex(dueBy: offset - 1) == index - 1, "schedule \(schedule)")
            if index < last {
                #expect(
                    schedule.lastIndex(dueBy: schedule.offset(ofDeadline: index + 1) - 1) == index,
                    "schedule \(schedule)")
            }
        }
    }

    func lastIndexIsBoundedByTheCount() {
        let schedule = TickSchedule.every(.seconds(1), count: 5)
        #expect(schedule.lastIndex(dueBy: 4 * Self.second) == 4)
        #expect(schedule.lastIndex(dueBy: 5 * Self.second) == 5)
        #expect(schedule.lastIndex(dueBy: 60 * Self.second) == 5)
        #expect(schedule.lastIndex(dueBy: .max) == 5)
        let oneShot = TickSchedule.after(.seconds(2))
        #expect(oneShot.lastIndex(dueBy: 2 * Self.second - 1) == 0)
        #expect(oneShot.lastIndex(dueBy: 2 * Self.second) == 1)
        #expect(oneShot.lastIndex(dueBy: 100 * Self.second) == 1)
        #expect(oneShot.lastIndex(dueBy: .max) == 1)
    }

    func lastIndexSaturatesWithHugeValues() {
        // The smallest repeating step, at the end of time: no overflow, no trap.
        let fastest = TickSchedule.every(.microseconds(100))
        #expect(fastest.lastIndex(dueBy: .max) == Int((Int64.max - Self.floor) / Self.floor) + 1)
        // A one-shot with a 1 ns delay has a 1 ns "interval": the step count reaches the saturation bound
        // (Int.max − 1) before the count bounds it.
        let tiny = TickSchedule.after(.nanoseconds(1))
        #expect(tiny.lastIndex(dueBy: .max) == 1)
        // A saturated schedule: its first deadline sits at the end of time.
        let never = TickSchedule.every(.seconds(Int64.max))
        #expect(never.lastIndex(dueBy: .max - 1) == 0)
        #expect(never.lastIndex(dueBy: .max) == 1)
        #expect(TickSchedule.every(.seconds(1), count: 0).lastIndex(dueBy: .max) == 0)
    }

    // MARK: Clamping

    /// The clamping rules and the adjustments they note. Each check runs on a fresh instance of the suite.
    @Test func outOfRangeInputIsClampedAndNoted() {
        Self().intervalBelowTheMinimumIsClampedAndNoted()
        Self().intervalAtTheMinimumIsNotClamped()
        Self().negativeFirstDelayIsClampedToZero()
        Self().negativeOneShotDelayIsClampedToZero()
        Self().negativeToleranceIsClampedToZero()
        Self().repeatingToleranceIsCappedAtHalfTheInterval()
        Self().oneShotToleranceIsCappedAtItsDelay()
        Self().nonPositiveCountMakesAScheduleWithoutDeadlines()
        Self().positiveCountsAreKeptAsGiven()
        Self().everyClampIsNotedSeparately()
        Self().adjustmentsAreNotedExactlyWhenClamped()
    }

    /// A positive interval below the minimum is clamped; so is any interval below it, zero and negative
    /// ones included, in the clamping form the `Foundation.Timer` look-alikes use (`.every` itself stops
    /// the program on those: see the exit tests).
    func intervalBelowTheMinimumIsClampedAndNoted() {
        for (interval, migrationOnly) in [
            (Duration.nanoseconds(1), false), (.nanoseconds(99_999), false), (.microseconds(20), false),
            (.zero, true), (.microseconds(-1), true), (.seconds(-1), true), (.seconds(Int64.min), true),
        ] as [(Duration, Bool)] {
            Self().intervalBelowTheMinimumIsClampedAndNoted(interval: interval, migrationOnly: migrationOnly)
        }
    }

    func intervalBelowTheMinimumIsClampedAndNoted(interval: Duration, migrationOnly: Bool) {
        var schedules = [TickSchedule.clampingEvery(interval)]
        if !migrationOnly { schedules.append(.every(interval)) }
        for schedule in schedules {
            #expect(schedule.intervalNanoseconds == Self.floor, "interval \(interval), migrationOnly \(migrationOnly)")
            #expect(
                schedule.firstDelayNanoseconds == Self.floor,
                "the default first delay is the clamped interval; interval \(interval), migrationOnly \(migrationOnly)")
            #expect(schedule.adjustments.count == 1, "interval \(interval), migrationOnly \(migrationOnly)")
            #expect(
                schedule.adjustments.first?.contains("interval") == true,
                "interval \(interval), migrationOnly \(migrationOnly)")
            #expect(
                schedule.adjustments.first?.contains("100 µs") == true,
                "interval \(interval), migrationOnly \(migrationOnly)")
        }
    }

    func intervalAtTheMinimumIsNotClamped() {
        let schedule = TickSchedule.every(.microseconds(100))
        #expect(schedule.intervalNanoseconds == Self.floor)
        #expect(schedule.adjustments.isEmpty)
        #expect(TickSchedule.every(.nanoseconds(100_001)).adjustments.isEmpty)
    }

    func negativeFirstDelayIsClampedToZero() {
        let schedule = TickSchedule.every(.seconds(1), after: .seconds(-3))
        #expect(schedule.firstDelayNanoseconds == 0)
        #expect(schedule.intervalNanoseconds == Self.second)
        #expect(schedule.adjustments.count == 1)
        #expect(schedule.adjustments.first?.contains("first delay") == true)
    }

    func negativeOneShotDelayIsClampedToZero() {
        for delay in [Duration.nanoseconds(-1), .seconds(-2), .seconds(Int64.min)] {
            Self().negativeOneShotDelayIsClampedToZero(delay: delay)
        }
    }

    func negativeOneShotDelayIsClampedToZero(delay: Duration) {
        let schedule = TickSchedule.after(delay)
        #expect(schedule.firstDelayNanoseconds == 0, "delay \(delay)")
        #expect(schedule.intervalNanoseconds == 0, "delay \(delay)")
        #expect(schedule.count == 1, "delay \(delay)")
        #expect(schedule.adjustments.count == 1, "delay \(delay)")
        #expect(schedule.adjustments.first?.contains("negative") == true, "delay \(delay)")
    }

    func negativeToleranceIsClampedToZero() {
        let repeating = TickSchedule.every(.seconds(1), tolerance: .milliseconds(-5))
        #expect(repeating.toleranceNanoseconds == 0)
        #expect(repeating.adjustments.count == 1)
        #expect(repeating.adjustments.first?.contains("tolerance") == true)
        let oneShot = TickSchedule.after(.seconds(1), tolerance: .milliseconds(-5))
        #expect(oneShot.toleranceNanoseconds == 0)
        #expect(oneShot.adjustments.count == 1)
    }

    func repeatingToleranceIsCappedAtHalfTheInterval() {
        let atHalf = TickSchedule.every(.seconds(1), tolerance: .milliseconds(500))
        #expect(atHalf.tolerance == .milliseconds(500))
        #expect(atHalf.adjustments.isEmpty)

        let above = TickSchedule.every(.seconds(1), tolerance: .nanoseconds(500_000_001))
        #expect(above.tolerance == .milliseconds(500))
        #expect(above.adjustments.count == 1)
        #expect(above.adjustments.first?.contains("half the interval") == true)

        let huge = TickSchedule.every(.seconds(1), tolerance: .seconds(Int64.max))
        #expect(huge.tolerance == .milliseconds(500))
        #expect(huge.adjustments.count == 1)

        // The cap applies to the clamped interval: 100 µs → 50 µs.
        let clamped = TickSchedule.every(.nanoseconds(1), tolerance: .milliseconds(1))
        #expect(clamped.tolerance == .microseconds(50))
        #expect(clamped.adjustments.count == 2)

        // An odd interval rounds the cap down.
        let odd = TickSchedule.every(.nanoseconds(100_001), tolerance: .seconds(1))
        #expect(odd.toleranceNanoseconds == 50_000)
    }

    func oneShotToleranceIsCappedAtItsDelay() {
        let schedule = TickSchedule.after(.seconds(1), tolerance: .seconds(10))
        #expect(schedule.tolerance == .seconds(1))
        #expect(!schedule.adjustments.isEmpty)
        let within = TickSchedule.after(.seconds(10), tolerance: .seconds(1))
        #expect(within.tolerance == .seconds(1))
        #expect(within.adjustments.isEmpty)
    }

    func nonPositiveCountMakesAScheduleWithoutDeadlines() {
        for count in [0, -1, -100, Int.min] {
            Self().nonPositiveCountMakesAScheduleWithoutDeadlines(count: count)
        }
    }

    func nonPositiveCountMakesAScheduleWithoutDeadlines(count: Int) {
        for schedule in [TickSchedule.every(.seconds(1), count: count), .countdown(from: count)] {
            #expect(schedule.count == 0, "count \(count)")
            #expect(!schedule.repeats, "count \(count)")
            #expect(schedule.lastIndex(dueBy: .max) == 0, "count \(count)")
            #expect(schedule.adjustments.count == 1, "count \(count)")
            #expect(schedule.adjustments.first?.contains("count") == true, "count \(count)")
        }
    }

    func positiveCountsAreKeptAsGiven() {
        for count in [1, 2, 1_000, Int.max] {
            let schedule = TickSchedule.every(.seconds(1), count: count)
            #expect(schedule.count == count)
            #expect(schedule.adjustments.isEmpty)
        }
    }

    func everyClampIsNotedSeparately() {
        let schedule = TickSchedule.every(.nanoseconds(1), after: .seconds(-1), tolerance: .seconds(-1), count: 0)
        #expect(schedule.intervalNanoseconds == Self.floor)
        #expect(schedule.firstDelayNanoseconds == 0)
        #expect(schedule.toleranceNanoseconds == 0)
        #expect(schedule.count == 0)
        #expect(schedule.adjustments.count == 4)
        let oneShot = TickSchedule.after(.seconds(-1), tolerance: .seconds(-1))
        #expect(oneShot.adjustments.count == 2)
    }

    /// `adjustments` is non-empty exactly when one of the clamping rules changed the input.
    func adjustmentsAreNotedExactlyWhenClamped() {
        for (schedule, clamped) in [
            (TickSchedule.every(.seconds(1)), false),
            (.every(.microseconds(100), after: .zero, tolerance: .microseconds(50), count: 1), false),
            (.every(.seconds(1), tolerance: .milliseconds(500), count: Int.max), false),
            (.after(.zero), false),
            (.after(.seconds(5), tolerance: .seconds(60)), true),
            (.after(.seconds(60), tolerance: .seconds(5)), false),
            (.countdown(from: 1), false),
            (.every(seconds: 0.0001), false),
            (.every(.microseconds(99)), true),
            (.every(.seconds(1), after: .nanoseconds(-1)), true),
            (.every(.seconds(1), tolerance: .nanoseconds(-1)), true),
            (.every(.seconds(1), tolerance: .nanoseconds(500_000_001)), true),
            (.every(.seconds(1), count: 0), true),
            (.after(.nanoseconds(-1)), true),
            (.after(.zero, tolerance: .nanoseconds(-1)), true),
            (.countdown(from: 0), true),
            (.every(seconds: 0.00009), true),
            (.every(seconds: 1e-300), true),
            (.after(seconds: -1), true),
        ] as [(TickSchedule, Bool)] {
            Self().adjustmentsAreNotedExactlyWhenClamped(schedule: schedule, clamped: clamped)
        }
    }

    func adjustmentsAreNotedExactlyWhenClamped(schedule: TickSchedule, clamped: Bool) {
        #expect(
            schedule.adjustments.isEmpty == !clamped,
            "\(schedule): \(schedule.adjustments); schedule \(schedule), clamped \(clamped)")
    }

    // MARK: Huge and infinite input

    /// Saturation of huge and infinite durations, and seconds conversion. Each check runs on a fresh instance of the suite.
    @Test func hugeInfiniteAndTinyDurationsSaturateOrClamp() {
        Self().hugeDurationsSaturateToTheEndOfTime()
        Self().saturatingNanosecondsAgreesWithComponents()
        Self().infiniteSecondsSaturate()
        Self().saturationIsNotedInAdjustments()
        Self().oneShotWithInfiniteToleranceStillFires()
        Self().secondsConvertToWholeNanosecondsRounded()
        Self().tinySecondsAreClampedLikeDurations()
    }

    func hugeDurationsSaturateToTheEndOfTime() {
        let interval = TickSchedule.every(.seconds(Int64.max))
        #expect(interval.intervalNanoseconds == .max)
        #expect(interval.firstDelayNanoseconds == .max)
        let delay = TickSchedule.every(.seconds(1), after: .seconds(1_000_000_000_000))
        #expect(delay.firstDelayNanoseconds == .max)
        #expect(delay.intervalNanoseconds == Self.second)
        let oneShot = TickSchedule.after(.seconds(Int64.max))
        #expect(oneShot.firstDelayNanoseconds == .max)
        // 292 years and a bit: just past Int64 nanoseconds.
        #expect(TickSchedule.after(.seconds(9_223_372_037)).firstDelayNanoseconds == .max)
        #expect(TickSchedule.after(.seconds(9_223_372_036)).firstDelayNanoseconds == 9_223_372_036 * Self.second)
    }

    /// `saturatingNanoseconds` divides the stored attoseconds once; it agrees with the arithmetic on
    /// `components` (truncating toward zero, saturating at ±292 years) on both sides of every boundary.
    func saturatingNanosecondsAgreesWithComponents() {
        func reference(_ duration: Duration) -> Int64 {
            let (seconds, attoseconds) = duration.components
            let limit = Int64.max / 1_000_000_000
            if seconds > limit { return .max }
            if seconds < -limit { return .min }
            return (seconds * 1_000_000_000).addingSaturating(attoseconds / 1_000_000_000)
        }
        var durations: [Duration] = [
            .zero, .nanoseconds(1), .nanoseconds(-1), .nanoseconds(Int64.max), .nanoseconds(Int64.min),
            .seconds(Int64.max), .seconds(Int64.min), .seconds(9_223_372_036), .seconds(-9_223_372_036),
            .seconds(9_223_372_037), .seconds(-9_223_372_037), .seconds(60), .milliseconds(-1_500),
            Duration(secondsComponent: 9_223_372_036, attosecondsComponent: 854_775_807_999_999_999),
            Duration(secondsComponent: 9_223_372_036, attosecondsComponent: 854_775_808_000_000_000),
            Duration(secondsComponent: -9_223_372_036, attosecondsComponent: -854_775_808_999_999_999),
            Duration(secondsComponent: -9_223_372_036, attosecondsComponent: -854_775_809_000_000_000),
            Duration(secondsComponent: 0, attosecondsComponent: 999_999_999),
            Duration(secondsComponent: 0, attosecondsComponent: -999_999_999),
            Duration(secondsComponent: 1, attosecondsComponent: -1),
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            durations.append(
                Duration(
                    secondsComponent: .random(in: -20_000_000_000...20_000_000_000, using: &generator),
                    attosecondsComponent: .random(
                        in: -999_999_999_999_999_999...999_999_999_999_999_999, using: &generator)))
        }
        for duration in durations {
            #expect(duration.saturatingNanoseconds == reference(duration), "\(duration)")
        }
    }

    func infiniteSecondsSaturate() {
        let every = TickSchedule.every(seconds: .infinity)
        #expect(every.intervalNanoseconds == .max)
        #expect(every.firstDelayNanoseconds == .max)
        #expect(TickSchedule.every(seconds: 1e300).intervalNanoseconds == .max)
        #expect(TickSchedule.after(seconds: .infinity).firstDelayNanoseconds == .max)
        #expect(TickSchedule.after(seconds: .greatestFiniteMagnitude).firstDelayNanoseconds == .max)
        // A negative infinite delay is "negative": clamped, with a note (a negative interval stops the
        // program: see the exit tests below).
        let negativeDelay = TickSchedule.after(seconds: -.infinity)
        #expect(negativeDelay.firstDelayNanoseconds == 0)
        #expect(!negativeDelay.adjustments.isEmpty)
        // An infinite tolerance on a repeating schedule is capped at half the interval.
        let tolerance = TickSchedule.every(seconds: 1, tolerance: .infinity)
        #expect(tolerance.tolerance == .milliseconds(500))
        #expect(!tolerance.adjustments.isEmpty)
    }

    /// Saturation is a clamp like the others: an infinite or absurd interval or delay is noted in
    /// `adjustments` (and so warned about in debug builds), not silently turned into "never".
    func saturationIsNotedInAdjustments() {
        #expect(!TickSchedule.every(seconds: .infinity).adjustments.isEmpty)
        #expect(!TickSchedule.every(.seconds(Int64.max)).adjustments.isEmpty)
        #expect(!TickSchedule.after(seconds: .infinity).adjustments.isEmpty)
    }

    /// The engine arms for the end of a ticker's tolerance window (so that other deadlines can join the
    /// wake-up), so a one-shot alone is delivered at deadline + tolerance; its tolerance is capped at its
    /// delay (and noted), so even an infinite tolerance fires.
    func oneShotWithInfiniteToleranceStillFires() {
        let time = VirtualTime()
        let ticks = Recorder<Tick>()
        let start = time.now
        let (hour, never) = time.run {
            (
                Ticker.schedule(.after(seconds: 1, tolerance: 3_600), on: ContractContext.dispatch.context) {
                    ticks.append($0)
                },
                Ticker.schedule(.after(seconds: 1, tolerance: .infinity), on: .dispatch(.global())) {
                    ticks.append($0)
                }
            )
        }
        time.advance(by: .seconds(365 * 86_400))
        #expect(hour.state == .finished)
        #expect(ticks.values.first?.timestamp == start.advanced(by: .seconds(1)), "alone: at its deadline")
        #expect(never.state == .finished)
        #expect(!TickSchedule.after(seconds: 1, tolerance: .infinity).adjustments.isEmpty)
    }

    // MARK: TimeInterval conversions

    func secondsConvertToWholeNanosecondsRounded() {
        #expect(TickSchedule.every(seconds: 0.25).intervalNanoseconds == 250_000_000)
        #expect(TickSchedule.every(seconds: 0.1).intervalNanoseconds == 100_000_000)
        #expect(TickSchedule.every(seconds: 0.3).intervalNanoseconds == 300_000_000)
        #expect(TickSchedule.every(seconds: 1.0000000004).intervalNanoseconds == Self.second)
        #expect(TickSchedule.every(seconds: 1.0000000006).intervalNanoseconds == Self.second + 1)
        #expect(
            TickSchedule.every(seconds: 2, tolerance: 0.001, count: 3)
                == .every(.seconds(2), tolerance: .milliseconds(1), count: 3))
        #expect(
            TickSchedule.after(seconds: 1.5, tolerance: 0.5)
                == .after(.milliseconds(1_500), tolerance: .milliseconds(500)))
    }

    func tinySecondsAreClampedLikeDurations() {
        let schedule = TickSchedule.every(seconds: 1e-7)
        #expect(schedule.intervalNanoseconds == Self.floor)
        #expect(schedule.adjustments.count == 1)
        // Below a nanosecond rounds to zero, which is not positive: that stops the program (exit tests).
        #expect(TickSchedule.every(seconds: 1e-9).intervalNanoseconds == Self.floor)
    }

    // MARK: Traps (exit tests): NaN, and a repeating interval of zero or less

    /// Exit tests: NaN seconds and non-positive repeating intervals stop the program with their messages; finite seconds do not. Each check runs on a fresh instance of the suite.
    @Test func badSecondsAndIntervalsStopTheProgramWithTheirMessages() async throws {
        try await Self().nanIntervalStopsTheProgramWithAMessage()
        try await Self().nanToleranceStopsTheProgramWithAMessage()
        try await Self().nanDelayStopsTheProgramWithAMessage()
        await Self().finiteSecondsDoNotStopTheProgram()
        try await Self().aRepeatingIntervalOfZeroOrLessStopsTheProgramNamingTheCaller()
        try await Self().theIntervalMessageNamesTheCallSiteByDefault()
    }

    func nanIntervalStopsTheProgramWithAMessage() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = TickSchedule.every(seconds: .nan)
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("TimerKit: interval is NaN"))
    }

    func nanToleranceStopsTheProgramWithAMessage() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = TickSchedule.every(seconds: 1, tolerance: .nan)
        }
        #expect(String(decoding: result.standardErrorContent, as: UTF8.self).contains("TimerKit: tolerance is NaN"))
    }

    func nanDelayStopsTheProgramWithAMessage() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = TickSchedule.after(seconds: -.nan)
        }
        #expect(String(decoding: result.standardErrorContent, as: UTF8.self).contains("TimerKit: delay is NaN"))
        await #expect(processExitsWith: .failure) {
            _ = TickSchedule.after(seconds: 1, tolerance: .signalingNaN)
        }
    }

    func finiteSecondsDoNotStopTheProgram() async {
        await #expect(processExitsWith: .success) {
            _ = TickSchedule.every(seconds: .infinity, tolerance: -.infinity, count: Int.min)
            _ = TickSchedule.after(seconds: -.infinity, tolerance: .infinity)
            _ = TickSchedule.every(.nanoseconds(1))
            _ = TickSchedule.after(.seconds(-1))
            _ = TickSchedule.countdown(from: 3, every: .nanoseconds(1), ticksAtStart: true)
        }
    }

    /// A repeating interval of zero or less stops the program in every build, with a message naming the
    /// caller's file and line: clamped, as in 1.0, it made a 10 kHz ticker that burned a core silently in a
    /// release build. (The `TimerKitMigration` look-alikes keep Foundation's clamp: MigrationBadInputTests.)
    func aRepeatingIntervalOfZeroOrLessStopsTheProgramNamingTheCaller() async throws {
        for form in [0, 1, 2, 3, 4, 5] {
            try await Self().aRepeatingIntervalOfZeroOrLessStopsTheProgramNamingTheCaller(form: form)
        }
    }

    func aRepeatingIntervalOfZeroOrLessStopsTheProgramNamingTheCaller(form: Int) async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent], "form \(form)")
        {
            [form] in
            switch form {
            case 0: _ = TickSchedule.every(.zero, file: "App/Poller.swift", line: 8)
            case 1: _ = TickSchedule.every(.seconds(-1), file: "App/Poller.swift", line: 8)
            case 2: _ = TickSchedule.every(seconds: -1, file: "App/Poller.swift", line: 8)
            case 3: _ = TickSchedule.every(seconds: 0, file: "App/Poller.swift", line: 8)
            case 4: _ = TickSchedule.countdown(from: 60, every: .zero, file: "App/Poller.swift", line: 8)
            default:
                _ = TickSchedule.countdown(
                    from: 60, every: .seconds(-1), ticksAtStart: true, file: "App/Poller.swift", line: 8)
            }
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(
            message.contains("App/Poller.swift:8: Fatal error: TimerKit: a repeating interval of "),
            "\(message); form \(form)")
        #expect(message.contains("is not positive"), "\(message); form \(form)")
    }

    /// Without `file:` and `line:`, the message names the call's own site (the compiler fills them in).
    func theIntervalMessageNamesTheCallSiteByDefault() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = TickSchedule.every(.seconds(-1))
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("TimerKitTests/ScheduleMathTests.swift:"), "\(message)")
        #expect(!message.contains("TickSchedule.swift"), "\(message)")
    }

    // MARK: Schedules on a ticker (virtual time)

    /// A count of zero, a clamped tiny interval and a saturated interval on an engine. Each check runs on a fresh instance of the suite.
    @Test func edgeSchedulesBehaveOnAnEngine() {
        Self().countZeroTickerFinishesAtOnceWithoutCalling()
        Self().clampedTinyIntervalIsNotABusyLoop()
        Self().saturatedIntervalNeverFires()
    }

    func countZeroTickerFinishesAtOnceWithoutCalling() {
        let time = VirtualTime()
        let calls = Recorder<Int>()
        let ticker = time.run {
            Ticker.schedule(.every(.seconds(1), count: 0), on: ContractContext.dispatch.context) { _ in calls.append(1)
            }
        }
        #expect(ticker.state == .finished)
        #expect(ticker.nextDeadline == nil)
        ticker.start()
        ticker.resume()
        ticker.fire()
        time.advance(by: .seconds(10))
        #expect(calls.count == 0)
        #expect(ticker.state == .finished)
    }

    func clampedTinyIntervalIsNotABusyLoop() {
        let time = VirtualTime()
        let calls = Recorder<Tick>()
        let ticker = time.run {
            Ticker.schedule(.every(.nanoseconds(1)), on: ContractContext.dispatch.context) { calls.append($0) }
        }
        let wakes = time.advance(by: .milliseconds(1))
        #expect(calls.count == 10)
        #expect(wakes == 10)
        #expect(calls.values.map(\.index) == Array(1...10))
        ticker.cancel()
    }

    func saturatedIntervalNeverFires() {
        let time = VirtualTime()
        let calls = Recorder<Tick>()
        let ticker = time.run {
            Ticker.schedule(.every(seconds: .infinity), on: ContractContext.dispatch.context) { calls.append($0) }
        }
        #expect(ticker.nextDeadline == .distantFuture)
        time.advance(by: .seconds(200 * 365 * 86_400))  // two centuries
        #expect(calls.count == 0)
        #expect(ticker.state == .running)
        ticker.cancel()
    }
}
