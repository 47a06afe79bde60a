import Foundation
import Testing

@testable import TimerKit

/// Frame-rate snapping (pure math) and the clamps of frame-rate ranges and refresh rates.
@Suite struct FrameRateRangeTests {
    struct Snap: Sendable, CustomTestStringConvertible {
        let refreshRate: Double
        let range: FrameRateRange
        let frameInterval: Int
        let why: String

        var testDescription: String { "\(refreshRate) Hz, \(range) → every \(frameInterval): \(why)" }
    }

    static let snaps: [Snap] = [
        Snap(refreshRate: 60, range: .native, frameInterval: 1, why: "native is every refresh"),
        Snap(refreshRate: 60, range: FrameRateRange(preferred: 60), frameInterval: 1, why: "exact"),
        Snap(refreshRate: 60, range: FrameRateRange(preferred: 30), frameInterval: 2, why: "exact"),
        Snap(refreshRate: 60, range: FrameRateRange(preferred: 15), frameInterval: 4, why: "exact"),
        Snap(refreshRate: 60, range: FrameRateRange(preferred: 24), frameInterval: 3, why: "20 is 4 away, 30 is 6"),
        Snap(
            refreshRate: 60, range: FrameRateRange(minimum: 24, maximum: 60, preferred: 24), frameInterval: 2,
            why: "20 is below the minimum"),
        Snap(refreshRate: 60, range: FrameRateRange(preferred: 25), frameInterval: 2, why: "30 and 20 tie: faster"),
        Snap(refreshRate: 60, range: FrameRateRange(preferred: 45), frameInterval: 1, why: "60 and 30 tie: faster"),
        Snap(refreshRate: 60, range: FrameRateRange(preferred: 120), frameInterval: 1, why: "capped at the refresh"),
        Snap(
            refreshRate: 60, range: FrameRateRange(minimum: 40, maximum: 50), frameInterval: 1,
            why: "none in range; target 50: 60 is nearer than 30"),
        Snap(refreshRate: 60, range: FrameRateRange(minimum: 0, maximum: 30), frameInterval: 2, why: "fastest ≤ 30"),
        Snap(refreshRate: 60, range: FrameRateRange(minimum: 0, maximum: 25), frameInterval: 3, why: "fastest ≤ 25"),
        Snap(refreshRate: 60, range: FrameRateRange(preferred: 1), frameInterval: 60, why: "1 Hz"),
        Snap(refreshRate: 60, range: FrameRateRange(preferred: 0.1), frameInterval: 60, why: "never below 1 Hz"),
        Snap(refreshRate: 60, range: FrameRateRange(preferred: 1e-300), frameInterval: 60, why: "absurdly slow"),
        Snap(refreshRate: 120, range: FrameRateRange(preferred: 24), frameInterval: 5, why: "exact at 120"),
        Snap(refreshRate: 120, range: FrameRateRange(preferred: 48), frameInterval: 3, why: "40 is 8 away, 60 is 12"),
        Snap(
            refreshRate: 120, range: FrameRateRange(minimum: 50, maximum: 70), frameInterval: 2,
            why: "only 60 in range"),
        Snap(refreshRate: 144, range: FrameRateRange(preferred: 60), frameInterval: 2, why: "72 and 48 tie: faster"),
        Snap(refreshRate: 90, range: FrameRateRange(preferred: 60), frameInterval: 2, why: "45 is 15 away, 90 is 30"),
        Snap(
            refreshRate: 60, range: FrameRateRange(minimum: .infinity, maximum: .infinity), frameInterval: 1,
            why: "an unreachable minimum falls back to the nearest rate"),
    ]

    /// Snapping and clamping of rates and ranges. Each check runs on a fresh instance of the suite.
    @Test func ratesSnapAndClampAsDocumented() {
        Self().snapsToADivisorOfTheRefreshRate()
        Self().sourceReportsTheSnappedRate()
        Self().refreshRatesThatAreNotPositiveAndFiniteSnapToEveryRefresh()
        Self().rangeInputIsClampedAsDocumented()
        Self().refreshRateIsClampedAndItsIntervalRoundedToTheNanosecond()
    }

    func snapsToADivisorOfTheRefreshRate() {
        for snap in Self.snaps {
            Self().snapsToADivisorOfTheRefreshRate(snap)
        }
    }

    func snapsToADivisorOfTheRefreshRate(_ snap: Snap) {
        #expect(snap.range.frameInterval(forRefreshRate: snap.refreshRate) == snap.frameInterval, "snap \(snap)")
    }

    func sourceReportsTheSnappedRate() {
        let time = VirtualTime()
        let source = time.run { FrameSource.software(refreshRate: 60, on: FrameTestSupport.context) }
        #expect(source.frameRate(for: FrameRateRange(preferred: 24)) == 20)
        #expect(source.frameRate(for: FrameRateRange(minimum: 24, maximum: 60, preferred: 24)) == 30)
        #expect(source.frameRate(for: .native) == 60)
    }

    func refreshRatesThatAreNotPositiveAndFiniteSnapToEveryRefresh() {
        for rate in [0, -60, .infinity, .nan] {
            #expect(FrameRateRange(preferred: 30).frameInterval(forRefreshRate: rate) == 1)
        }
    }

    // MARK: Clamps

    func rangeInputIsClampedAsDocumented() {
        let negative = FrameRateRange(minimum: -5, maximum: 60)
        #expect(negative.minimum == 0)
        #expect(negative.adjustments.count == 1)

        let unbounded = FrameRateRange(minimum: 10, maximum: 0)
        #expect(unbounded.maximum == .infinity, "zero means no upper bound, as in CAFrameRateRange")
        #expect(unbounded.adjustments.isEmpty)

        let inverted = FrameRateRange(minimum: 50, maximum: 20)
        #expect(inverted.maximum == 50)
        #expect(inverted.adjustments.count == 1)

        let outside = FrameRateRange(minimum: 20, maximum: 40, preferred: 90)
        #expect(outside.preferred == 40)
        #expect(outside.adjustments.count == 1)

        #expect(FrameRateRange(minimum: 0, maximum: 60, preferred: 0).preferred == nil)
        #expect(FrameRateRange(minimum: 0, maximum: 60, preferred: -1).preferred == nil)
        #expect(FrameRateRange.native.adjustments.isEmpty)
        #expect(FrameRateRange(preferred: 30) == FrameRateRange(minimum: 0, maximum: .infinity, preferred: 30))
    }

    func refreshRateIsClampedAndItsIntervalRoundedToTheNanosecond() {
        let time = VirtualTime()
        let context = FrameTestSupport.context
        time.run {
            let sixty = FrameSource.software(on: context)
            #expect(sixty.refreshRate == 60)
            #expect(sixty.refreshInterval == .nanoseconds(16_666_667))
            #expect(FrameSource.software(refreshRate: 0, on: context).refreshRate == FrameSource.minimumRefreshRate)
            #expect(FrameSource.software(refreshRate: -3, on: context).refreshInterval == .seconds(1))
            #expect(FrameSource.software(refreshRate: .infinity, on: context).refreshRate == 1_000)
            #expect(FrameSource.software(refreshRate: 5_000, on: context).refreshInterval == .milliseconds(1))
        }
    }

    // MARK: NaN traps (exit tests)

    /// Exit tests for NaN ranges and refresh rates. Each check runs on a fresh instance of the suite.
    @Test func nanRatesStopTheProgramWithAMessage() async throws {
        try await Self().nanRangeStopsTheProgramWithAMessage()
        try await Self().nanRefreshRateStopsTheProgramWithAMessage()
    }

    func nanRangeStopsTheProgramWithAMessage() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = FrameRateRange(minimum: 0, maximum: 60, preferred: .nan)
        }
        #expect(String(decoding: result.standardErrorContent, as: UTF8.self).contains("FrameRateRange bound is NaN"))
        await #expect(processExitsWith: .failure) {
            _ = FrameRateRange(minimum: .nan, maximum: 60)
        }
    }

    func nanRefreshRateStopsTheProgramWithAMessage() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = FrameSource.software(refreshRate: .nan, on: .dispatch(DispatchQueue(label: "nan")))
        }
        #expect(String(decoding: result.standardErrorContent, as: UTF8.self).contains("refresh rate is NaN"))
    }
}

@Suite struct FrameRateRangeHugeRateTests {
    @Test
    func aHugeFiniteRefreshRateIsTreatedAsTheMaximum() {
        for rate in [1e20, Double(Int.max), 1e300] {
            Self().aHugeFiniteRefreshRateIsTreatedAsTheMaximum(rate: rate)
        }
    }

    func aHugeFiniteRefreshRateIsTreatedAsTheMaximum(rate: Double) {
        #expect(FrameRateRange.native.frameInterval(forRefreshRate: rate) == 1, "rate \(rate)")
        #expect(FrameRateRange(preferred: 500).frameInterval(forRefreshRate: rate) == 2, "rate \(rate)")
    }
}
