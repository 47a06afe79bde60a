import Foundation
import Testing
import TimerKitTestSupport

@testable import TimerKit

/// Contract 4 (drift-free; skip, never burst, never slide), counted and one-shot endings, tolerance
/// coalescing and ordering — all under virtual time, where a delivery's timestamp is exactly the virtual
/// instant its wake-up ran at.
@Suite struct DriftAndSkipTests {
    init() { LogCapture.install() }

    let time = VirtualTime()
    let context = ContractContext.dispatch.context

    // MARK: Drift-free deadlines

    /// Deadlines stay on the start-plus-intervals grid. Each check runs on a fresh instance of the suite.
    @Test func deadlinesNeverDrift() {
        Self().deadlinesAreStartPlusWholeIntervals()
        Self().firstDelayShiftsOnlyTheFirstDeadline()
        Self().oddIntervalsDoNotAccumulateError()
    }

    func deadlinesAreStartPlusWholeIntervals() {
        for kind in ContractContext.allCases {
            Self().deadlinesAreStartPlusWholeIntervals(kind: kind)
        }
    }

    func deadlinesAreStartPlusWholeIntervals(kind: ContractContext) {
        let ticks = Recorder<Tick>()
        let start = time.now
        let ticker = time.run {
            Ticker.schedule(.every(.milliseconds(250)), on: kind.context) { ticks.append($0) }
        }
        // Irregular steps, one big jump: every deadline is still served at its own instant.
        for step in [37, 250, 1, 512, 100, 3_000] {
            time.advance(by: .milliseconds(step))
        }
        let values = ticks.values
        #expect(values.count == 15, "kind \(kind)")  // 3 900 ms / 250 ms
        for (offset, tick) in values.enumerated() {
            let k = offset + 1
            #expect(tick.index == k, "kind \(kind)")
            #expect(tick.deadline == start.advanced(by: .milliseconds(250) * k), "kind \(kind)")
            #expect(tick.timestamp == tick.deadline, "kind \(kind)")
            #expect(tick.lateness == .zero, "kind \(kind)")
            #expect(tick.skipped == 0, "kind \(kind)")
            #expect(tick.remaining == nil, "kind \(kind)")
            #expect(tick.fireCount == k, "kind \(kind)")
            #expect(!tick.isManual, "kind \(kind)")
        }
        #expect(ticker.nextDeadline == start.advanced(by: .milliseconds(250) * 16), "kind \(kind)")
        ticker.cancel()
    }

    func firstDelayShiftsOnlyTheFirstDeadline() {
        let ticks = Recorder<Tick>()
        let start = time.now
        let ticker = time.run {
            Ticker.schedule(.every(.seconds(1), after: .milliseconds(250)), on: context) { ticks.append($0) }
        }
        time.advance(by: .milliseconds(4_300))
        #expect(ticks.values.map(\.deadline) == (0..<5).map { start.advanced(by: .milliseconds(250) + .seconds($0)) })
        #expect(ticks.values.allSatisfy { $0.lateness == .zero })
        ticker.cancel()
    }

    func oddIntervalsDoNotAccumulateError() {
        // 1/3 s is not a whole number of nanoseconds; deadlines are computed from the start, not from the
        // previous deadline, so deadline k is start + k·333 333 333 ns, every time.
        let ticks = Recorder<Tick>()
        let start = time.now
        let ticker = time.run {
            Ticker.schedule(.every(seconds: 1.0 / 3.0), on: context) { ticks.append($0) }
        }
        time.advance(by: .seconds(100))
        #expect(ticks.count == 300)
        for tick in ticks.values {
            #expect(tick.deadline.nanoseconds == start.nanoseconds + Int64(tick.index) * 333_333_333)
            #expect(tick.lateness == .zero)
        }
        ticker.cancel()
    }

    // MARK: Skip, never burst, never slide

    /// A stalled context skips missed deadlines in one delivery. Each check runs on a fresh instance of the suite.
    @Test func stallsSkipToTheLatestDeadline() {
        Self().slowHandlerSkipsMissedDeadlinesInOneDelivery()
        Self().stallOfExactlyThreeIntervalsDeliversTheLatestDeadlineOnTime()
        Self().stallCausedByAnotherTickerOnTheContextSkipsToo()
        Self().longStallIsOneDeliveryNotAThousand()
        Self().countedTickerEndsOnTimeAfterSkipping()
        Self().stallPastTheEndStillDeliversTheLastTick()
    }

    func slowHandlerSkipsMissedDeadlinesInOneDelivery() {
        let ticks = Recorder<Tick>()
        let start = time.now
        let time = self.time
        let ticker = time.run {
            Ticker.schedule(.every(.seconds(1)), on: context) { tick in
                ticks.append(tick)
                // The first call takes 3.5 intervals: deadlines 2, 3 and 4 pass meanwhile.
                if tick.index == 1 { time.clock.advance(by: .milliseconds(3_500)) }
            }
        }
        time.advance(by: .seconds(1))
        #expect(time.now == start.advanced(by: .milliseconds(4_500)))
        #expect(ticks.values.map(\.index) == [1, 4], "one late delivery for deadline 4, no burst")
        let late = ticks.values[1]
        #expect(late.skipped == 2, "deadlines 2 and 3 had no delivery of their own")
        #expect(late.deadline == start.advanced(by: .seconds(4)))
        #expect(late.timestamp == start.advanced(by: .milliseconds(4_500)))
        #expect(late.lateness == .milliseconds(500))
        #expect(late.fireCount == 2)
        // The schedule did not slide: deadline 5 is still start + 5 s.
        #expect(ticker.nextDeadline == start.advanced(by: .seconds(5)))
        time.advance(by: .milliseconds(1_500))
        #expect(ticks.values.map(\.index) == [1, 4, 5, 6])
        #expect(
            ticks.values.suffix(2).map(\.deadline) == [
                start.advanced(by: .seconds(5)), start.advanced(by: .seconds(6)),
            ])
        #expect(ticks.values.suffix(2).allSatisfy { $0.skipped == 0 && $0.lateness == .zero })
        #expect(ticker.snapshot?.skippedCount == 2)
        ticker.cancel()
    }

    func stallOfExactlyThreeIntervalsDeliversTheLatestDeadlineOnTime() {
        let ticks = Recorder<Tick>()
        let start = time.now
        let time = self.time
        let ticker = time.run {
            Ticker.schedule(.every(.seconds(1)), on: context) { tick in
                ticks.append(tick)
                if tick.index == 1 { time.clock.advance(by: .seconds(3)) }
            }
        }
        time.advance(by: .seconds(1))
        #expect(ticks.values.map(\.index) == [1, 4])
        #expect(ticks.values[1].skipped == 2)
        #expect(ticks.values[1].lateness == .zero)
        #expect(ticks.values[1].timestamp == start.advanced(by: .seconds(4)))
        ticker.cancel()
    }

    func stallCausedByAnotherTickerOnTheContextSkipsToo() {
        let ticks = Recorder<Tick>()
        let start = time.now
        let time = self.time
        let (steady, slow) = time.run {
            let steady = Ticker.schedule(.every(.seconds(1)), on: context) { ticks.append($0) }
            let slow = Ticker.schedule(.after(.milliseconds(500)), on: context) { _ in
                time.clock.advance(by: .milliseconds(2_700))  // a handler that blocks the context for 2.7 s
            }
            return (steady, slow)
        }
        time.advance(by: .seconds(4))
        #expect(ticks.values.map(\.index) == [3, 4])
        #expect(ticks.values[0].skipped == 2)
        #expect(ticks.values[0].timestamp == start.advanced(by: .milliseconds(3_200)))
        #expect(ticks.values[1].timestamp == start.advanced(by: .seconds(4)))
        #expect(slow.state == .finished)
        steady.cancel()
    }

    func longStallIsOneDeliveryNotAThousand() {
        let ticks = Recorder<Tick>()
        let time = self.time
        let ticker = time.run {
            Ticker.schedule(.every(.milliseconds(10)), on: context) { tick in
                ticks.append(tick)
                if tick.index == 2 { time.clock.advance(by: .seconds(10)) }
            }
        }
        time.advance(by: .milliseconds(20))
        #expect(ticks.values.map(\.index) == [1, 2, 1_002])
        #expect(ticks.values.last?.skipped == 999)
        #expect(ticks.values.last?.lateness == .zero)
        ticker.cancel()
    }

    // MARK: Counted schedules end on time

    func countedTickerEndsOnTimeAfterSkipping() {
        let ticks = Recorder<Tick>()
        let start = time.now
        let time = self.time
        let ticker = time.run {
            Ticker.schedule(.every(.seconds(1), count: 5), on: context) { tick in
                ticks.append(tick)
                if tick.index == 1 { time.clock.advance(by: .milliseconds(2_500)) }
            }
        }
        time.advance(by: .milliseconds(4_999))
        #expect(ticker.state == .running)
        #expect(ticks.values.map(\.index) == [1, 3, 4])
        time.advance(by: .milliseconds(1))
        #expect(ticker.state == .finished)
        #expect(time.now == start.advanced(by: .seconds(5)))
        let values = ticks.values
        #expect(values.map(\.index) == [1, 3, 4, 5])
        #expect(values.map(\.skipped) == [0, 1, 0, 0])
        #expect(values.map(\.remaining) == [4, 2, 1, 0])
        #expect(values.map(\.isLast) == [false, false, false, true])
        #expect(values.last?.deadline == start.advanced(by: .seconds(5)))
        #expect(ticker.nextDeadline == nil)
        time.advance(by: .seconds(10))
        #expect(ticks.count == 4)
        #expect(ticker.fireCount == 4)
    }

    func stallPastTheEndStillDeliversTheLastTick() {
        let ticks = Recorder<Tick>()
        let start = time.now
        let time = self.time
        let ticker = time.run {
            Ticker.schedule(.every(.seconds(1), count: 5), on: context) { tick in
                ticks.append(tick)
                if tick.index == 2 { time.clock.advance(by: .seconds(10)) }
            }
        }
        time.advance(by: .seconds(2))
        let values = ticks.values
        #expect(values.map(\.index) == [1, 2, 5])
        #expect(values.last?.skipped == 2)
        #expect(values.last?.remaining == 0)
        #expect(values.last?.deadline == start.advanced(by: .seconds(5)))
        #expect(values.last?.timestamp == start.advanced(by: .seconds(12)))
        #expect(ticker.state == .finished)
        time.advance(by: .seconds(10))
        #expect(ticks.count == 3)
    }

    /// Countdowns and one-shots end when their schedule says. Each check runs on a fresh instance of the suite.
    @Test func countedAndOneShotTickersEndOnTime() {
        Self().countdownReportsRemainingDownToZeroThenFinishes()
        Self().oneShotFiresOnceThenFinishes()
        Self().negativeDelayOneShotFiresAtOnce()
    }

    func countdownReportsRemainingDownToZeroThenFinishes() {
        for count in [1, 2, 3, 10] {
            Self().countdownReportsRemainingDownToZeroThenFinishes(count: count)
        }
    }

    func countdownReportsRemainingDownToZeroThenFinishes(count: Int) {
        let ticks = Recorder<Tick>()
        let start = time.now
        let ticker = time.run {
            Ticker.schedule(.countdown(from: count, every: .milliseconds(100)), on: context) { ticks.append($0) }
        }
        time.advance(by: .milliseconds(100) * (count - 1))
        #expect(ticker.state == .running, "count \(count)")
        time.advance(by: .milliseconds(100))
        #expect(ticker.state == .finished, "count \(count)")
        #expect(ticks.values.map(\.remaining) == (0..<count).reversed().map { Optional($0) }, "count \(count)")
        #expect(ticks.values.map(\.index) == Array(1...count), "count \(count)")
        #expect(ticks.values.last?.deadline == start.advanced(by: .milliseconds(100) * count), "count \(count)")
        time.advance(by: .seconds(5))
        #expect(ticks.count == count, "count \(count)")
    }

    func oneShotFiresOnceThenFinishes() {
        let ticks = Recorder<Tick>()
        let start = time.now
        let ticker = time.run {
            Ticker.schedule(.after(.seconds(2)), on: context) { ticks.append($0) }
        }
        #expect(ticker.state == .running)
        #expect(ticker.nextDeadline == start.advanced(by: .seconds(2)))
        time.advance(by: .milliseconds(1_999))
        #expect(ticks.count == 0)
        time.advance(by: .milliseconds(1))
        #expect(ticks.count == 1)
        let tick = ticks.values[0]
        #expect(tick.index == 1)
        #expect(tick.remaining == 0)
        #expect(tick.isLast)
        #expect(tick.deadline == start.advanced(by: .seconds(2)))
        #expect(tick.lateness == .zero)
        #expect(ticker.state == .finished)
        #expect(ticker.nextDeadline == nil)
        time.advance(by: .seconds(60))
        #expect(ticks.count == 1)
    }

    func negativeDelayOneShotFiresAtOnce() {
        let ticks = Recorder<Tick>()
        let start = time.now
        let ticker = time.run {
            Ticker.schedule(.after(.seconds(-5)), on: context) { ticks.append($0) }
        }
        #expect(ticks.count == 0, "never on the calling thread")
        time.advance(by: .zero)
        #expect(ticks.values.map(\.timestamp) == [start])
        #expect(ticker.state == .finished)
    }

    // MARK: Tolerance

    /// Tolerance windows and wake-ups. Each check runs on a fresh instance of the suite.
    @Test func toleranceWindowsShareWakeUpsButNeverDeliverEarlyOrLate() {
        Self().overlappingToleranceWindowsShareOneWakeUp()
        Self().withoutToleranceTheSameDeadlinesNeedTwoWakeUps()
        Self().disjointToleranceWindowsAreServedSeparatelyAtTheirDeadlines()
        Self().deliveriesAreNeverEarlyAndNeverLaterThanTheirTolerance()
    }

    func overlappingToleranceWindowsShareOneWakeUp() {
        // A: deadline 1.0 s, window [1.0, 1.2]. B: deadline 1.1 s, window [1.1, 1.3]. B's deadline falls
        // in the earliest-ending window (A's), so the engine wakes once, at the latest deadline in it
        // (1.1 s), and serves both there: A 100 ms late, B on time.
        let ticks = Recorder<(String, Tick)>()
        let start = time.now
        let (a, b) = time.run {
            (
                Ticker.schedule(.every(.seconds(1), tolerance: .milliseconds(200)), on: context) {
                    ticks.append(("A", $0))
                },
                Ticker.schedule(
                    .every(.seconds(1), after: .milliseconds(1_100), tolerance: .milliseconds(200)), on: context
                ) {
                    ticks.append(("B", $0))
                }
            )
        }
        let wakes = time.advance(by: .milliseconds(1_100))
        #expect(wakes == 1)
        #expect(ticks.values.map(\.0) == ["A", "B"])
        #expect(ticks.values.allSatisfy { $0.1.timestamp == start.advanced(by: .milliseconds(1_100)) })
        #expect(ticks.values.allSatisfy { $0.1.timestamp >= $0.1.deadline })
        #expect(ticks.values.map(\.1.lateness) == [.milliseconds(100), .zero])
        a.cancel()
        b.cancel()
    }

    func withoutToleranceTheSameDeadlinesNeedTwoWakeUps() {
        let ticks = Recorder<Tick>()
        let (a, b) = time.run {
            (
                Ticker.schedule(.every(.seconds(1)), on: context) { ticks.append($0) },
                Ticker.schedule(.every(.seconds(1), after: .milliseconds(1_100)), on: context) { ticks.append($0) }
            )
        }
        #expect(time.advance(by: .milliseconds(1_250)) == 2)
        #expect(ticks.values.allSatisfy { $0.lateness == .zero })
        a.cancel()
        b.cancel()
    }

    func disjointToleranceWindowsAreServedSeparatelyAtTheirDeadlines() {
        // A ticker whose window holds no other deadline costs nothing for its tolerance: it is delivered
        // at its deadline (advancing exactly to it is enough).
        let ticks = Recorder<(String, Tick)>()
        let start = time.now
        let (a, b) = time.run {
            (
                Ticker.schedule(.every(.seconds(1), tolerance: .milliseconds(100)), on: context) {
                    ticks.append(("A", $0))
                },
                Ticker.schedule(
                    .every(.seconds(1), after: .milliseconds(1_300), tolerance: .milliseconds(100)), on: context
                ) {
                    ticks.append(("B", $0))
                }
            )
        }
        #expect(time.advance(by: .milliseconds(1_000)) == 1)
        #expect(time.advance(by: .milliseconds(300)) == 1)
        #expect(ticks.values.map(\.0) == ["A", "B"])
        #expect(
            ticks.values.map(\.1.timestamp) == [
                start.advanced(by: .milliseconds(1_000)), start.advanced(by: .milliseconds(1_300)),
            ])
        a.cancel()
        b.cancel()
    }

    func deliveriesAreNeverEarlyAndNeverLaterThanTheirTolerance() {
        struct Spec { let name: String; let interval: Int; let delay: Int; let tolerance: Int }
        let specs = [
            Spec(name: "a", interval: 100, delay: 100, tolerance: 0),
            Spec(name: "b", interval: 130, delay: 70, tolerance: 40),
            Spec(name: "c", interval: 170, delay: 10, tolerance: 80),
            Spec(name: "d", interval: 250, delay: 250, tolerance: 120),
            Spec(name: "e", interval: 330, delay: 33, tolerance: 165),
        ]
        let ticks = Recorder<(Spec, Tick)>()
        let tickers = time.run {
            specs.map { spec in
                Ticker.schedule(
                    .every(
                        .milliseconds(spec.interval), after: .milliseconds(spec.delay),
                        tolerance: .milliseconds(spec.tolerance)),
                    on: context
                ) { ticks.append((spec, $0)) }
            }
        }
        let wakes = time.advance(by: .seconds(20))
        let values = ticks.values
        for (spec, tick) in values {
            #expect(tick.timestamp >= tick.deadline, "\(spec.name) \(tick)")
            #expect(tick.lateness <= .milliseconds(spec.tolerance), "\(spec.name) \(tick)")
            #expect(tick.skipped == 0, "\(spec.name) \(tick)")
        }
        for spec in specs {
            let indices = values.filter { $0.0.name == spec.name }.map(\.1.index)
            #expect(indices == Array(1...indices.count), "\(spec.name): every deadline exactly once")
        }
        #expect(wakes < values.count, "overlapping windows were coalesced (\(wakes) wakes, \(values.count) ticks)")
        tickers.forEach { $0.cancel() }
    }

    // MARK: Ordering

    /// Order of deadlines that coincide. Each check runs on a fresh instance of the suite.
    @Test func coincidingDeadlinesRunInADeterministicOrder() {
        Self().coincidingDeadlinesRunInCreationOrder()
        Self().aFloodOfCoincidingDeadlinesIsServedAtOneInstantInCreationOrder()
        Self().coincidingDeadlinesOnDifferentContextsRunInFirstUseOrder()
        Self().mixedSchedulesCoincideDeterministically()
    }

    func coincidingDeadlinesRunInCreationOrder() {
        for kind in ContractContext.allCases {
            Self().coincidingDeadlinesRunInCreationOrder(kind: kind)
        }
    }

    func coincidingDeadlinesRunInCreationOrder(kind: ContractContext) {
        let order = Recorder<Int>()
        let tickers = time.run {
            (0..<6).map { n in Ticker.schedule(.every(.seconds(1)), on: kind.context) { _ in order.append(n) } }
        }
        time.advance(by: .seconds(3))
        #expect(order.values == Array(repeating: Array(0..<6), count: 3).flatMap { $0 }, "kind \(kind)")
        tickers.forEach { $0.cancel() }
    }

    func aFloodOfCoincidingDeadlinesIsServedAtOneInstantInCreationOrder() {
        // More due tickers than one wake-up serves (TickerEngine.deliveriesPerWake): the engine yields and
        // re-arms for "now"; every tick still comes at its deadline, in creation order.
        let count = TickerEngine.deliveriesPerWake * 2 + 100
        let order = Recorder<Int>()
        let start = time.now
        let tickers = time.run {
            (0..<count).map { n in
                Ticker.schedule(.after(.seconds(1)), on: context) { tick in
                    order.append(tick.timestamp == start.advanced(by: .seconds(1)) ? n : -1)
                }
            }
        }
        let wakes = time.advance(by: .seconds(2))
        #expect(order.values == Array(0..<count))
        #expect(wakes == 3)
        #expect(tickers.allSatisfy { $0.state == .finished })
    }

    func coincidingDeadlinesOnDifferentContextsRunInFirstUseOrder() {
        let order = Recorder<String>()
        let first = DispatchQueue(label: "TimerKitTests.order.first")
        let second = DispatchQueue(label: "TimerKitTests.order.second")
        let tickers = time.run {
            [
                Ticker.schedule(.every(.seconds(1)), on: .dispatch(second)) { _ in order.append("second") },
                Ticker.schedule(.every(.seconds(1)), on: .dispatch(first)) { _ in order.append("first") },
            ]
        }
        time.advance(by: .seconds(2))
        #expect(order.values == ["second", "first", "second", "first"])
        tickers.forEach { $0.cancel() }
    }

    /// Ticks of schedules with different intervals that coincide run in a deterministic order: by
    /// latest-acceptable time, then by the order in which each ticker was (re)queued — which is not
    /// necessarily creation order (see the report). The same scenario always yields the same sequence.
    func mixedSchedulesCoincideDeterministically() {
        func run() -> [String] {
            let time = VirtualTime()
            let order = Recorder<String>()
            let specs: [(String, TickSchedule)] = [
                ("1s", .every(.seconds(1))), ("2s", .every(.seconds(2))), ("500ms", .every(.milliseconds(500))),
                ("3s", .every(.seconds(3), tolerance: .zero)), ("after2s", .after(.seconds(2))),
            ]
            let tickers = time.run {
                specs.map { name, schedule in
                    Ticker.schedule(schedule, on: ContractContext.dispatch.context) { tick in
                        order.append("\(name)#\(tick.index)")
                    }
                }
            }
            time.advance(by: .seconds(6))
            tickers.forEach { $0.cancel() }
            return order.values
        }
        let first = run()
        #expect(first.count == 6 + 3 + 12 + 2 + 1)
        for _ in 0..<5 {
            #expect(run() == first)
        }
    }
}
