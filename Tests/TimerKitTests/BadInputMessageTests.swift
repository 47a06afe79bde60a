import Foundation
import Testing
import TimerKit

/// Every entry point documented as "stops the program with a message" does so with its message, naming the
/// caller's file and line, in debug and in release builds (`Diagnostics.require` traps with `fatalError`,
/// which keeps the message under `-O`; `precondition` would print a bare "precondition failure").
/// `scripts/release-messages.sh` runs this suite (and the migration module's) in a release build, from the
/// package in scripts/release-messages, which compiles these two files (linked there) and not the whole
/// test suite: keep them to TimerKit's public API.
@Suite struct BadInputMessageTests {
    /// One call with bad input, and the message it must print.
    enum Entry: String, CaseIterable, Codable, Sendable, CustomTestStringConvertible {
        case everySecondsInterval
        case everySecondsTolerance
        case afterSecondsDelay
        case afterSecondsTolerance
        case frameRateRangeMinimum
        case frameRateRangeMaximum
        case frameRateRangePreferred
        case frameRateRangePreferredOnly
        case softwareRefreshRate
        case displayRefreshRate
        case everyZeroInterval
        case everyNegativeSeconds
        case countdownNegativeInterval
        case atNaNDate
        case dailyHour25
        case dailyMinute60
        case monthlyDay32
        case weeklyOnNoDay
        case alignedToZero
        case ticksOnAWallClockSchedule

        var testDescription: String { rawValue }

        var message: String {
            switch self {
            case .everySecondsInterval: "TimerKit: interval is NaN; pass a finite number of seconds"
            case .everySecondsTolerance, .afterSecondsTolerance:
                "TimerKit: tolerance is NaN; pass a finite number of seconds"
            case .afterSecondsDelay: "TimerKit: delay is NaN; pass a finite number of seconds"
            case .frameRateRangeMinimum, .frameRateRangeMaximum, .frameRateRangePreferred, .frameRateRangePreferredOnly:
                "TimerKit: a FrameRateRange bound is NaN; pass rates in hertz"
            case .softwareRefreshRate, .displayRefreshRate:
                "TimerKit: the refresh rate is NaN; pass refreshes per second"
            case .everyZeroInterval:
                "TimerKit: a repeating interval of 0.0 seconds is not positive; a ticker on it would call its "
                    + "handler without pause"
            case .everyNegativeSeconds:
                "TimerKit: a repeating interval of -1.0 seconds is not positive"
            case .countdownNegativeInterval:
                "TimerKit: a repeating interval of -1.0 seconds is not positive"
            case .atNaNDate: "TimerKit: the date is NaN; pass a real date"
            case .dailyHour25:
                "TimerKit: 25:0:0 is not a time of day; pass an hour of 0–23 and a minute and second of 0–59"
            case .dailyMinute60: "TimerKit: 9:60:0 is not a time of day"
            case .monthlyDay32:
                "TimerKit: day 32 of the month is out of range; pass 1–31 (months without the day are skipped)"
            case .weeklyOnNoDay: "TimerKit: a weekly schedule on no weekday never fires; name at least one day"
            case .alignedToZero: "TimerKit: a repeating interval of 0.0 seconds is not positive"
            case .ticksOnAWallClockSchedule:
                "a tick sequence counts on a Clock, not on the wall clock; for the wall-clock schedule daily at 09:00"
            }
        }

        /// Makes the call; it must not return.
        @MainActor
        func call() {
            switch self {
            case .everySecondsInterval: _ = TickSchedule.every(seconds: .nan)
            case .everySecondsTolerance: _ = TickSchedule.every(seconds: 1, tolerance: .nan)
            case .afterSecondsDelay: _ = TickSchedule.after(seconds: -.nan)
            case .afterSecondsTolerance: _ = TickSchedule.after(seconds: 1, tolerance: .signalingNaN)
            case .frameRateRangeMinimum: _ = FrameRateRange(minimum: .nan, maximum: 60)
            case .frameRateRangeMaximum: _ = FrameRateRange(minimum: 0, maximum: .nan)
            case .frameRateRangePreferred: _ = FrameRateRange(minimum: 0, maximum: 60, preferred: .nan)
            case .frameRateRangePreferredOnly: _ = FrameRateRange(preferred: .nan)
            case .softwareRefreshRate:
                _ = FrameSource.software(refreshRate: .nan, on: .dispatch(DispatchQueue(label: "nan")))
            case .displayRefreshRate: _ = FrameSource.display(refreshRate: .nan)
            case .everyZeroInterval: _ = TickSchedule.every(.zero)
            case .everyNegativeSeconds: _ = TickSchedule.every(seconds: -1)
            case .countdownNegativeInterval: _ = TickSchedule.countdown(from: 60, every: .seconds(-1))
            case .atNaNDate: _ = TickSchedule.at(Date(timeIntervalSinceReferenceDate: .nan))
            case .dailyHour25: _ = TickSchedule.daily(hour: 25)
            case .dailyMinute60: _ = TickSchedule.daily(hour: 9, minute: 60)
            case .monthlyDay32: _ = TickSchedule.monthly(onDay: 32, hour: 9)
            case .weeklyOnNoDay: _ = TickSchedule.weekly(on: [], hour: 9)
            case .alignedToZero: _ = TickSchedule.aligned(to: .zero)
            case .ticksOnAWallClockSchedule: _ = Ticker.ticks(.daily(hour: 9))
            }
        }
    }

    @Test
    func badInputStopsTheProgramWithItsMessage() async throws {
        for entry in Entry.allCases {
            try await Self().badInputStopsTheProgramWithItsMessage(entry: entry)
        }
    }

    func badInputStopsTheProgramWithItsMessage(entry: Entry) async throws {
        let result = try await #require(
            processExitsWith: .failure, observing: [\.standardErrorContent], "entry \(entry)"
        ) {
            [entry] in
            await entry.call()
        }
        let output = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(output.contains(entry.message), "\(output); entry \(entry)")
        // The stop names the call in this file, not the line in TimerKit that checks the input.
        #expect(output.contains("/BadInputMessageTests.swift:"), "\(output); entry \(entry)")
    }

    @Test func theSameCallsWithGoodInputReturn() async {
        await #expect(processExitsWith: .success) {
            await MainActor.run {
                let owner = BadInputOwner()
                _ = TickSchedule.every(seconds: .infinity, tolerance: -.infinity)
                _ = TickSchedule.after(seconds: -.infinity, tolerance: .infinity)
                _ = FrameRateRange(minimum: -.infinity, maximum: .infinity, preferred: -.infinity)
                _ = FrameSource.software(refreshRate: .infinity, on: .dispatch(DispatchQueue(label: "inf")))
                _ = FrameSource.display(refreshRate: -.infinity)
                FrameSource.subscribe(owner: owner) { _, _ in }.cancel()
            }
        }
    }
}

/// An owner for the calls above.
final class BadInputOwner: Sendable {}
