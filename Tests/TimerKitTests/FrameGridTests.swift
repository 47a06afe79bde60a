import Foundation
import Testing

@testable import TimerKit

/// Refresh instants come from the start of the grid (refresh k at k × 10⁹ / rate ns, each rounded on its
/// own), so that rounding never adds up: n seconds of R Hz are exactly n·R refreshes, however long the run.
/// All under virtual time.
@Suite struct FrameGridTests {
    static let rates: [Int64] = [1, 7, 24, 30, 60, 90, 120, 144, 240, 1_000]

    // MARK: Whole sources

    /// Frame counts and refresh offsets on the exact grid. Each check runs on a fresh instance of the suite.
    @Test func framesStayOnTheExactGrid() {
        Self().twoSecondsOfVirtualTimeAreExactlyTwiceTheRateInFrames()
        Self().subscribersAtEveryDivisorGetTheirShareOfTheExactGrid()
        Self().tenMinutesAtSixtyHertzEndOnTheSecond()
        Self().aRateThatIsNotAWholeNumberStaysOnItsGrid()
        Self().theNominalIntervalIsPublicButDoesNotDriveTheGrid()
        Self().refreshOffsetsAreRoundedEachOnTheirOwn()
        Self().theLatestRefreshIsFoundAtEveryBoundary()
    }

    func twoSecondsOfVirtualTimeAreExactlyTwiceTheRateInFrames() {
        for rate in Self.rates {
            Self().twoSecondsOfVirtualTimeAreExactlyTwiceTheRateInFrames(rate: rate)
        }
    }

    func twoSecondsOfVirtualTimeAreExactlyTwiceTheRateInFrames(rate: Int64) {
        let time = VirtualTime()
        let frames = Recorder<FrameTick>()
        let origin = time.now
        let subscription = time.run {
            FrameSource.software(refreshRate: Double(rate), on: FrameTestSupport.context).subscribe {
                frames.append($0)
            }
        }
        time.advance(by: .seconds(2))
        let values = frames.values
        #expect(values.count == Int(2 * rate), "rate \(rate)")
        #expect(frameRefreshes(values, origin: origin, refreshRate: rate) == Array(1...(2 * rate)), "rate \(rate)")
        #expect(
            values.last?.deadline == origin.advanced(by: .seconds(2)),
            "the last refresh is at exactly 2 s; rate \(rate)")
        #expect(values.allSatisfy { $0.timestamp == $0.deadline && $0.droppedFrames == 0 }, "rate \(rate)")
        // Durations are the exact grid's: they add up to the elapsed time, with no remainder.
        let total = values.dropLast().reduce(Duration.zero) { $0 + $1.duration }
        #expect(total == values[0].deadline.duration(to: values.last!.deadline), "rate \(rate)")
        subscription.cancel()
    }

    func subscribersAtEveryDivisorGetTheirShareOfTheExactGrid() {
        for rate in [60, 120, 144] as [Int64] {
            Self().subscribersAtEveryDivisorGetTheirShareOfTheExactGrid(rate: rate)
        }
    }

    func subscribersAtEveryDivisorGetTheirShareOfTheExactGrid(rate: Int64) {
        let time = VirtualTime()
        let origin = time.now
        // The divisors of 2·rate up to 12: each gets exactly 2·rate / n frames in 2 s.
        let divisors = (1...12).filter { (2 * rate) % Int64($0) == 0 }
        let recorders = divisors.map { _ in Recorder<FrameTick>() }
        let subscriptions = time.run {
            let source = FrameSource.software(refreshRate: Double(rate), on: FrameTestSupport.context)
            return zip(divisors, recorders).map { divisor, recorder in
                source.subscribe(FrameRateRange(preferred: Double(rate) / Double(divisor))) { recorder.append($0) }
            }
        }
        #expect(subscriptions.map(\.frameInterval) == divisors, "rate \(rate)")
        time.advance(by: .seconds(2))
        for (divisor, recorder) in zip(divisors, recorders) {
            let n = Int64(divisor)
            let refreshes = frameRefreshes(recorder.values, origin: origin, refreshRate: rate)
            #expect(
                refreshes == Array(stride(from: n, through: 2 * rate, by: divisor)), "every \(divisor); rate \(rate)")
            for (frame, refresh) in zip(recorder.values, refreshes) {
                #expect(
                    frame.targetDeadline == frameGridInstant(refresh + n, origin: origin, refreshRate: rate),
                    "rate \(rate)")
            }
        }
        subscriptions.forEach { $0.cancel() }
    }

    func tenMinutesAtSixtyHertzEndOnTheSecond() {
        let run = Self.longRun(refreshRate: 60, seconds: 600)
        #expect(run.count == 36_000)
        #expect(run.last?.deadline == run.origin.advanced(by: .seconds(600)))
        #expect(run.last?.index == 36_000)
    }

    func aRateThatIsNotAWholeNumberStaysOnItsGrid() {
        // 59.94 Hz: refresh 5,994 is at exactly 100 s.
        let run = Self.longRun(refreshRate: 59.94, seconds: 100)
        #expect(run.count == 5_994)
        #expect(run.last?.deadline == run.origin.advanced(by: .seconds(100)))
    }

    /// Runs one every-refresh subscriber for `seconds` of virtual time; returns the frames it got, its last
    /// frame and the grid's origin.
    private static func longRun(refreshRate: Double, seconds: Int64) -> (
        count: Int, last: FrameTick?, origin: TickInstant
    ) {
        let time = VirtualTime()
        let seen = Locked<(count: Int, last: FrameTick?)>.make((0, nil))
        let origin = time.now
        let subscription = time.run {
            FrameSource.software(refreshRate: refreshRate, on: FrameTestSupport.context).subscribe { frame in
                seen.withLock { $0 = ($0.count + 1, frame) }
            }
        }
        time.advance(by: .seconds(seconds))
        subscription.cancel()
        let (count, last) = seen.withLock { $0 }
        return (count, last, origin)
    }

    func theNominalIntervalIsPublicButDoesNotDriveTheGrid() {
        let source = VirtualTime().run { FrameSource.software(on: FrameTestSupport.context) }
        #expect(source.refreshInterval == .nanoseconds(16_666_667))
        #expect(source.refreshInterval * 120 > .seconds(2), "120 nominal intervals overshoot 2 s by 40 ns")
    }

    // MARK: The grid's math

    func refreshOffsetsAreRoundedEachOnTheirOwn() {
        let grid = RefreshGrid(refreshRate: 60)
        #expect((0...4).map { grid.offset(ofRefresh: $0) } == [0, 16_666_667, 33_333_333, 50_000_000, 66_666_667])
        #expect(grid.offset(ofRefresh: 120) == 2_000_000_000)
        #expect(grid.offset(ofRefresh: 216_000) == 3_600_000_000_000, "one hour")
        #expect(grid.offset(ofRefresh: -3) == -50_000_000)
        #expect(grid.nominalIntervalNanoseconds == 16_666_667)
        #expect(RefreshGrid(refreshRate: 7).offset(ofRefresh: 1) == 142_857_143)
        #expect(RefreshGrid(refreshRate: 7).offset(ofRefresh: 7) == 1_000_000_000)
        // About 146 years saturates instead of overflowing.
        #expect(RefreshGrid(refreshRate: 1).offset(ofRefresh: 5_000_000_000) == .max)
        #expect(RefreshGrid(refreshRate: 1_000).offset(ofRefresh: 4_000_000_000_000) == 4_000_000_000_000_000_000)
    }

    func theLatestRefreshIsFoundAtEveryBoundary() {
        for rate in [1.0, 7, 59.94, 60, 144, 1_000] {
            Self().theLatestRefreshIsFoundAtEveryBoundary(rate: rate)
        }
    }

    func theLatestRefreshIsFoundAtEveryBoundary(rate: Double) {
        let grid = RefreshGrid(refreshRate: rate)
        #expect(grid.latestRefresh(atOrBefore: -1) == -1, "rate \(rate)")
        #expect(grid.latestRefresh(atOrBefore: 0) == 0, "rate \(rate)")
        for index in [1, 2, 3, 119, 120, 121, 10_007, 216_000, 1_000_000_007] as [Int64] {
            let instant = grid.offset(ofRefresh: index)
            #expect(grid.latestRefresh(atOrBefore: instant) == index, "rate \(rate)")
            #expect(grid.latestRefresh(atOrBefore: instant - 1) == index - 1, "rate \(rate)")
            #expect(grid.latestRefresh(atOrBefore: grid.offset(ofRefresh: index + 1) - 1) == index, "rate \(rate)")
        }
    }
}
