import Dispatch
import Foundation
import TimerKit
import TimerKitTesting

/// One virtual-time measurement: how long advancing takes in real time.
struct VirtualResult: Codable, Sendable {
    var name: String
    var tickers: Int
    var ticksEach: Int
    /// Real seconds of each repetition.
    var seconds: [Double]

    var median: Double { seconds.sorted()[seconds.count / 2] }
    var deliveries: Int { tickers * ticksEach }
}

/// The limit on 10,000 virtual ticks of one ticker, in release builds.
let virtualTenThousandLimitSeconds = 0.050

/// Repetitions of each virtual-time measurement (the report shows the median).
let virtualRepetitions = 7

extension TimerKitBench {
    static let virtualSteps = 3

    /// Virtual time's speed: 10,000 ticks of one ticker (on a dispatch queue, each delivered on the queue
    /// while the advance waits); 1,000 tickers × 100 ticks, each ticker with its own phase so that every
    /// delivery is its own wake-up; and 1,000 ticks consumed by a task through the async advance.
    static func runVirtual(_ options: Options, _ progress: ProgressLog) -> [VirtualResult] {
        var results: [VirtualResult] = []
        progress.step("virtual: 10,000 ticks of one ticker")
        results.append(
            measureVirtual("10,000 ticks of one ticker (dispatch queue)", tickers: 1, ticksEach: 10_000) { time in
                let queue = DispatchQueue(label: "timerkit-bench.virtual")
                let ticker = time.run {
                    Ticker.schedule(.every(.milliseconds(10)), on: .dispatch(queue)) { _ in }
                }
                time.advance(by: .seconds(100))
                precondition(ticker.fireCount == 10_000, "virtual: \(ticker.fireCount) ticks")
                ticker.cancel()
            })
        progress.step("virtual: 1,000 tickers × 100 ticks")
        results.append(
            measureVirtual("1,000 tickers × 100 ticks (one queue, 1,000 phases)", tickers: 1_000, ticksEach: 100) {
                time in
                let queue = DispatchQueue(label: "timerkit-bench.virtual-many")
                let tickers = time.run {
                    (0..<1_000).map { index in
                        Ticker.schedule(
                            .every(.seconds(1), after: .seconds(1) + .microseconds(index)), on: .dispatch(queue)
                        ) { _ in }
                    }
                }
                // The last phase's 100th deadline is 100 s + 999 µs after the start.
                time.advance(by: .seconds(100) + .milliseconds(1))
                let total = tickers.reduce(0) { $0 + $1.fireCount }
                precondition(total == 100_000, "virtual: \(total) ticks")
                tickers.forEach { $0.cancel() }
            })
        progress.step("virtual: 1,000 ticks of an async consumer")
        results.append(
            measureVirtual("1,000 ticks of a tick-sequence task (async advance)", tickers: 1, ticksEach: 1_000) {
                time in
                let done = DispatchSemaphore(value: 0)
                Task {
                    let consumer = time.run {
                        Task {
                            var count = 0
                            for await _ in Ticker.ticks(.every(.milliseconds(10), count: 1_000)) { count += 1 }
                            return count
                        }
                    }
                    await time.waitForPendingTickers()
                    await time.advance(by: .seconds(10))
                    let count = await consumer.value
                    precondition(count == 1_000, "virtual: \(count) ticks consumed")
                    done.signal()
                }
                done.wait()
            })
        return results
    }

    private static func measureVirtual(
        _ name: String, tickers: Int, ticksEach: Int, _ body: (VirtualTime) -> Void
    ) -> VirtualResult {
        var seconds: [Double] = []
        body(VirtualTime())  // warm-up: one-time initialisation is nobody's figure
        for _ in 0..<virtualRepetitions {
            let time = VirtualTime()
            let start = DispatchTime.now().uptimeNanoseconds
            body(time)
            seconds.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return VirtualResult(name: name, tickers: tickers, ticksEach: ticksEach, seconds: seconds)
    }
}

/// The virtual-time target row.
func virtualTargets(_ results: Results) -> [TargetResult] {
    guard let one = results.virtual.first(where: { $0.tickers == 1 && $0.ticksEach == 10_000 }) else { return [] }
    return [
        TargetResult(
            target: "10,000 virtual ticks ≤ \(format(virtualTenThousandLimitSeconds * 1_000)) ms",
            context: "virtual time, one ticker", measured: one.median * 1_000, unit: "ms",
            limit: virtualTenThousandLimitSeconds * 1_000, reference: nil, referenceName: nil, comparesToRaw: false,
            passed: one.median <= virtualTenThousandLimitSeconds)
    ]
}

func virtualSection(_ results: Results) -> [String] {
    var lines = [
        "",
        "### Virtual time (TimerKitTesting)",
        "",
        "Real time taken by `VirtualTime` to deliver virtual ticks; median of \(virtualRepetitions) repetitions "
            + "after a warm-up. Dispatch-context ticks are delivered on their queue while the advance waits.",
        "",
        "| measurement | deliveries | median | min | max | per delivery |",
        "|---|--:|--:|--:|--:|--:|",
    ]
    for result in results.virtual {
        let sorted = result.seconds.sorted()
        lines.append(
            "| \(result.name) | \(result.deliveries.formatted()) | \(format(result.median * 1_000)) ms | "
                + "\(format(sorted.first! * 1_000)) ms | \(format(sorted.last! * 1_000)) ms | "
                + "\(format(result.median / Double(result.deliveries) * 1e9)) ns |")
    }
    return lines
}
