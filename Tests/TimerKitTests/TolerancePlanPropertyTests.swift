import Foundation
import Testing
import TimerKitTestSupport

@testable import TimerKit

/// The tolerance rule against a plain reference, on random sets of tickers: each wake-up is at the latest
/// deadline that falls before the earliest end of any pending window, serves every ticker due by then,
/// and nothing else wakes the context.
@Suite struct TolerancePlanPropertyTests {
    init() { LogCapture.install() }

    /// A ticker as the reference sees it: the schedule's own (clamped) numbers, in nanoseconds.
    struct Spec {
        let schedule: TickSchedule
        var first: Int64 { schedule.times.firstDelayNanoseconds }
        var interval: Int64 { schedule.times.intervalNanoseconds }
        var tolerance: Int64 { schedule.times.toleranceNanoseconds }
        var count: Int? { schedule.count }
    }

    /// Every ticker's (index, timestamp offset) deliveries and the number of wake-ups up to `horizon`, by
    /// the rule, each ticker created at its offset in `created` (0 by default). A wake-up due at the
    /// instant of a creation comes first (advancing to an instant runs what is due by it).
    static func reference(_ specs: [Spec], created: [Int64]? = nil, horizon: Int64) -> (
        ticks: [[(Int, Int64)]], wakes: Int
    ) {
        let origin = created ?? specs.map { _ in 0 }
        var next = specs.map { _ in 1 }
        var live = specs.map { $0.count.map { $0 > 0 } ?? true }
        var made = specs.map { _ in false }
        var ticks: [[(Int, Int64)]] = specs.map { _ in [] }
        var wakes = 0
        func deadline(_ i: Int) -> Int64 { origin[i] + specs[i].first + Int64(next[i] - 1) * specs[i].interval }
        for i in specs.indices where origin[i] == 0 { made[i] = true }
        while true {
            let pending = specs.indices.filter { made[$0] && live[$0] }
            let end = pending.map { deadline($0) + specs[$0].tolerance }.min()
            let wake = end.map { end in pending.map { deadline($0) }.filter { $0 <= end }.max()! }
            if let creation = specs.indices.filter({ !made[$0] }).map({ origin[$0] }).min(),
                wake.map({ creation < $0 }) ?? true
            {
                for i in specs.indices where origin[i] == creation { made[i] = true }
                continue
            }
            guard let wake, wake <= horizon else { break }
            wakes += 1
            for i in pending where deadline(i) <= wake {
                let due = specs[i].schedule.times.lastIndex(dueBy: wake - origin[i])
                let index = max(due, next[i])
                ticks[i].append((index, wake))
                next[i] = index + 1
                if let count = specs[i].count, index >= count { live[i] = false }
            }
        }
        return (ticks, wakes)
    }

    @Test
    func randomTickersAreServedByTheRule() {
        for seed in 0..<60 {
            Self().randomTickersAreServedByTheRule(seed: seed)
        }
    }

    func randomTickersAreServedByTheRule(seed: Int) {
        var random = ConcurrencyStressTests.SplitMix64(state: UInt64(seed) &* 0x9E37_79B9 &+ 11)
        func pick(_ values: [Int]) -> Int { values[Int(random.next() % UInt64(values.count))] }
        let specs = (0..<(1 + Int(random.next() % 24))).map { _ -> Spec in
            let tolerance = Duration.milliseconds(pick([0, 0, 1, 3, 5, 10, 40]))
            if random.next() % 3 == 0 {
                return Spec(schedule: .after(.milliseconds(pick([0, 5, 12, 20, 33, 50, 80])), tolerance: tolerance))
            }
            return Spec(
                schedule: .every(
                    .milliseconds(pick([7, 10, 16, 25, 40])), after: .milliseconds(pick([0, 3, 9, 18])),
                    tolerance: tolerance, count: [nil, 2, 5][Int(random.next() % 3)]))
        }
        // Odd seeds create some tickers later, while the alarm is armed for the others: the wake-up the
        // engine planned must then move (earlier, or later to take the newcomer into its batch).
        let created: [Int64] = specs.indices.map { index in
            seed % 2 == 1 && index > 0 && random.next() % 2 == 0 ? Int64(pick([1, 4, 11, 26, 47])) * 1_000_000 : 0
        }
        let time = VirtualTime()
        let start = time.now
        let recorded = specs.map { _ in Recorder<(Int, Int64)>() }
        var tickers: [Ticker] = []
        var wakes = 0
        for instant in Set(created).sorted() {
            wakes += time.advance(by: time.now.duration(to: start.advanced(by: .nanoseconds(instant))))
            tickers += time.run {
                specs.indices.filter { created[$0] == instant }.map { i in
                    Ticker.schedule(specs[i].schedule, on: ContractContext.dispatch.context) { tick in
                        recorded[i].append((tick.index, start.duration(to: tick.timestamp).saturatingNanoseconds))
                    }
                }
            }
        }
        let horizon: Int64 = 300_000_000
        wakes += time.advance(by: time.now.duration(to: start.advanced(by: .nanoseconds(horizon))))
        let expected = Self.reference(specs, created: created, horizon: horizon)
        for i in specs.indices {
            let got = recorded[i].values
            let what = "ticker \(i) \(specs[i].schedule) tolerance \(specs[i].schedule.tolerance) made at \(created[i])"
            #expect(
                got.map(\.0) == expected.ticks[i].map(\.0) && got.map(\.1) == expected.ticks[i].map(\.1),
                "\(what): got \(got), expected \(expected.ticks[i]); seed \(seed)")
        }
        #expect(wakes == expected.wakes, "seed \(seed)")
        tickers.forEach { $0.cancel() }
    }
}
