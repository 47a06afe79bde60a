import BenchSupport
import Foundation
import TimerKit

/// Everything a run measured, as written to `--json`.
struct SoakResult: Codable, Sendable {
    var tool = "timerkit-soak"
    var date: String
    var arguments: [String]
    var configuration: String
    var processors: Int
    var options: SoakOptions
    var warmUpSeconds: Double
    var lanes: [String]
    /// Before anything was created; after the warm-up cycle (the starting level); at the end.
    var beforeWarmUp: Level
    var start: Level
    var end: Level
    /// Fires, operations and misbehaviours of the churn after the warm-up.
    var counts: Tally.Counts
    /// Seconds from releasing everything until TimerKit, owners, captures and tasks were all at zero.
    var drainSeconds: Double
    var samples: [Sample]
    var heapToleranceBytes: Int64
    var rssToleranceBytes: Int64
    var passed: Bool
    var failures: [String]
}

@main
struct TimerKitSoak {
    /// How far above the starting level the end may be. The heap's 1 MiB is a quarter of a byte per churn
    /// operation over ten minutes at the default rate (about 4 million operations, refills included), so
    /// one leaked 32-byte block per hundred operations fails. RSS is coarser (touched thread-stack pages,
    /// arena pages `malloc_trim` cannot return): 8 MiB, about a third of the starting RSS.
    static let heapTolerance: Int64 = 1 << 20
    static let rssTolerance: Int64 = 8 << 20

    static func main() {
        let options: SoakOptions
        do {
            options = try SoakOptions(arguments: Array(CommandLine.arguments.dropFirst()))
        } catch {
            switch error {
            case .help:
                print(SoakOptions.usage)
                exit(0)
            case .message(let message):
                FileHandle.standardError.write(Data("timerkit-soak: \(message)\n\n\(SoakOptions.usage)\n".utf8))
                exit(2)
            }
        }
        bench_line_buffer_stdout()
        let passed = run(options)
        exit(passed ? 0 : 1)
    }

    private static func run(_ options: SoakOptions) -> Bool {
        #if DEBUG
            let configuration = "debug"
        #else
            let configuration = "release"
        #endif
        let tally = Tally(lanes: 8)
        TickerDiagnostics.setLogHandler { tally.diagnostic($0) }
        let beforeWarmUp = Level.now(tally)
        let lanes = Lanes()
        let population = Population(
            tickers: options.tickers, stripes: options.churnThreads, seed: options.seed, lanes: lanes, tally: tally)
        print("timerkit-soak \(CommandLine.arguments.dropFirst().joined(separator: " "))")
        print(
            "\(configuration) build, \(ProcessInfo.processInfo.activeProcessorCount) cores, seed \(options.seed), "
                + "\(options.tickers.grouped) tickers over \(lanes.all.map(\.name).joined(separator: ", ")); "
                + "\(options.opsPerSecond.grouped) churn ops/s on \(options.churnThreads) threads")
        print(
            "bands: "
                + Band.counts(tickers: options.tickers).map { "\($0.1.grouped) \($0.0.rawValue)" }
                .joined(separator: ", "))

        // Warm-up: one full cycle, so that the starting level already holds what a first cycle leaves
        // for good (allocator arenas, engine tables, threads and their caches).
        print(String(format: "warm-up cycle: %.0f s of churn, then release everything", options.warmUp))
        _ = churn(population, options: options, seconds: options.warmUp, reportEvery: nil)
        let (start, warmDrain) = drain(population, tally: tally)
        print(
            "starting level (after warm-up, drained in \(String(format: "%.2f", warmDrain)) s, malloc_trim): "
                + "live \(start.liveTickers), heap \(start.heapBytes.mebibytes), RSS \(start.rssBytes.mebibytes)"
                + " (before warm-up: heap \(beforeWarmUp.heapBytes.mebibytes), RSS \(beforeWarmUp.rssBytes.mebibytes))")

        population.reopen()
        let countsAtStart = tally.read()
        print(Sample.header)
        let samples = churn(population, options: options, seconds: options.duration, reportEvery: options.reportEvery)
        print("churn stopped; releasing everything")
        let (end, drainSeconds) = drain(population, tally: tally)
        lanes.loopThread.stop()

        let failures = verdict(start: start, end: end)
        let counts = tally.read().since(countsAtStart)
        printSummary(
            options: options, samples: samples, counts: counts, start: start, end: end, beforeWarmUp: beforeWarmUp,
            drainSeconds: drainSeconds, lanes: lanes, failures: failures)
        if let path = options.jsonPath {
            let result = SoakResult(
                date: ISO8601DateFormatter().string(from: Date()), arguments: CommandLine.arguments,
                configuration: configuration,
                processors: ProcessInfo.processInfo.activeProcessorCount, options: options,
                warmUpSeconds: options.warmUp, lanes: lanes.all.map(\.name), beforeWarmUp: beforeWarmUp, start: start,
                end: end, counts: counts, drainSeconds: drainSeconds, samples: samples,
                heapToleranceBytes: heapTolerance, rssToleranceBytes: rssTolerance, passed: failures.isEmpty,
                failures: failures)
            write(result, to: path)
        }
        return failures.isEmpty
    }

    /// Why the run failed (empty if it passed): the warm-up must have drained, and at the end TimerKit must
    /// list no live ticker, every owner, capture and task must be gone, and heap and RSS must be within
    /// their tolerances of the starting level.
    private static func verdict(start: Level, end: Level) -> [String] {
        var failures: [String] = []
        if !start.isEmpty {
            failures.append(
                "the warm-up cycle did not drain (live \(start.liveTickers), owners \(start.owners), "
                    + "captures \(start.captures), tasks \(start.tasks)), so the starting level is not clean")
        }
        if end.liveTickers != 0 || end.liveTickers != start.liveTickers {
            failures.append("TimerKit still lists \(end.liveTickers) live ticker(s) (start: \(start.liveTickers))")
        }
        if end.owners != 0 { failures.append("\(end.owners) owner(s) never deinitialised") }
        if end.captures != 0 { failures.append("\(end.captures) handler capture(s) never released") }
        if end.tasks != 0 { failures.append("\(end.tasks) async consumer(s) never returned") }
        if end.heapBytes - start.heapBytes > heapTolerance {
            failures.append(
                "heap \((end.heapBytes - start.heapBytes).signedSize) above the start (tolerance \(heapTolerance.signedSize))"
            )
        }
        if end.rssBytes - start.rssBytes > rssTolerance {
            failures.append(
                "RSS \((end.rssBytes - start.rssBytes).signedSize) above the start (tolerance \(rssTolerance.signedSize))"
            )
        }
        return failures
    }

    /// Fills the population and churns it for `seconds`, printing a sample every `reportEvery` seconds
    /// (none when nil); returns the samples.
    private static func churn(
        _ population: Population, options: SoakOptions, seconds: Double, reportEvery: Double?
    ) -> [Sample] {
        population.fill(seed: options.seed)
        let churn = Churn(population: population, opsPerSecond: options.opsPerSecond, seed: options.seed)
        var sampler = Sampler(tally: population.tally)
        var samples: [Sample] = []
        let started = bench_monotonic_nanoseconds()
        let end = started + Int64(seconds * 1e9)
        var next = started
        while true {
            let step = Int64((reportEvery ?? seconds) * 1e9)
            next = min(next + step, end)
            let wait = next - bench_monotonic_nanoseconds()
            if wait > 0 { Thread.sleep(forTimeInterval: Double(wait) / 1e9) }
            if reportEvery != nil {
                let sample = sampler.sample()
                samples.append(sample)
                print(sample.line)
            }
            if next >= end { break }
        }
        churn.stop()
        return samples
    }

    /// Releases everything, waits until TimerKit lists no live ticker and every owner, capture and task is
    /// gone (at most 30 s), lets the contexts go idle for a second, trims the heap and measures.
    private static func drain(_ population: Population, tally: Tally) -> (Level, seconds: Double) {
        let started = bench_monotonic_nanoseconds()
        population.releaseAll()
        while !Level.now(tally).isEmpty, bench_monotonic_nanoseconds() - started < 30_000_000_000 {
            Thread.sleep(forTimeInterval: 0.02)
        }
        let seconds = Double(bench_monotonic_nanoseconds() - started) / 1e9
        Thread.sleep(forTimeInterval: 1)
        _ = bench_malloc_trim()
        return (Level.now(tally), seconds)
    }

    private static func write(_ result: SoakResult, to path: String) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            let url = URL(fileURLWithPath: path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try encoder.encode(result).write(to: url)
            print("JSON written to \(path)")
        } catch {
            FileHandle.standardError.write(Data("timerkit-soak: could not write \(path): \(error)\n".utf8))
        }
    }
}
