import Foundation
import Testing
import TimerKit
import TimerKitMigration

/// The look-alikes follow Foundation for intervals (zero or less becomes 0.1 ms, where TimerKit's own
/// `.every` stops with a message) except NaN, which stops
/// the program with its message, in debug and release builds (`scripts/release-messages.sh` runs this
/// suite with `-c release`).
@Suite struct MigrationBadInputTests {
    enum Entry: String, CaseIterable, Codable, Sendable, CustomTestStringConvertible {
        case blockTimer
        case targetAction
        case targetActionWithTicker

        var testDescription: String { rawValue }

        /// Makes the call; it must not return.
        @MainActor
        func call() {
            let owner = MigrationOwner()
            switch self {
            case .blockTimer:
                Timer.scheduledTimer(withTimeInterval: .nan, repeats: true, owner: owner) { _, _ in }
            case .targetAction:
                Timer.scheduledTimer(timeInterval: .nan, target: owner, action: MigrationOwner.fireNow, repeats: false)
            case .targetActionWithTicker:
                Timer.scheduledTimer(timeInterval: .nan, target: owner, action: MigrationOwner.fire, repeats: true)
            }
        }
    }

    @Test
    func aNaNIntervalStopsTheProgramWithItsMessage() async throws {
        for entry in Entry.allCases {
            try await Self().aNaNIntervalStopsTheProgramWithItsMessage(entry: entry)
        }
    }

    func aNaNIntervalStopsTheProgramWithItsMessage(entry: Entry) async throws {
        let result = try await #require(
            processExitsWith: .failure, observing: [\.standardErrorContent], "entry \(entry)"
        ) {
            [entry] in
            await entry.call()
        }
        let output = String(decoding: result.standardErrorContent, as: UTF8.self)
        // The message names the caller's site (this file), not the look-alike's.
        #expect(
            output.contains("TimerKit: timer interval is NaN at ")
                && output.contains("/MigrationBadInputTests.swift:"),
            "\(output); entry \(entry)")
        #expect(output.contains("; pass a finite number of seconds"), "\(output); entry \(entry)")
    }

    @Test func zeroAndInfiniteIntervalsReturn() async {
        await #expect(processExitsWith: .success) {
            await MainActor.run {
                let owner = MigrationOwner()
                Timer.scheduledTimer(withTimeInterval: 0, repeats: true, owner: owner) { _, _ in }.cancel()
                Timer.scheduledTimer(
                    timeInterval: .infinity, target: owner, action: MigrationOwner.fireNow, repeats: true
                )
                .cancel()
            }
        }
    }
}

/// An owner and target for the calls above.
final class MigrationOwner: Sendable {
    func fireNow() {}
    func fire(_ ticker: Ticker) {}
}
