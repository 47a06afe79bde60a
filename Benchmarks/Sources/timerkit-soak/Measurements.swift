import BenchSupport
import Foundation
import TimerKit

/// Live counts and memory at one moment.
struct Level: Codable, Sendable {
    /// `TickerDiagnostics.liveTickers().count`: TimerKit's own count, over every engine.
    var liveTickers: Int
    /// How long that call took, in milliseconds.
    var liveCountMilliseconds: Double
    var owners: Int
    var captures: Int
    var tasks: Int
    /// `mallinfo2` `uordblks + hblkhd`.
    var heapBytes: Int64
    /// `resident` of /proc/self/statm.
    var rssBytes: Int64

    static func now(_ tally: Tally) -> Level {
        let started = bench_monotonic_nanoseconds()
        let live = TickerDiagnostics.liveTickers().count
        let took = Double(bench_monotonic_nanoseconds() - started) / 1e6
        let counts = tally.read()
        return Level(
            liveTickers: live, liveCountMilliseconds: took, owners: counts.owners, captures: counts.captures,
            tasks: counts.tasks, heapBytes: bench_malloc_in_use(), rssBytes: bench_resident_bytes())
    }

    /// Whether every TimerKit ticker, owner, capture and task is gone.
    var isEmpty: Bool { liveTickers == 0 && owners == 0 && captures == 0 && tasks == 0 }
}

/// One progress line's figures.
struct Sample: Codable, Sendable {
    var elapsedSeconds: Double
    var level: Level
    var firesPerSecond: Double
    var opsPerSecond: Double
    /// CPU time of the whole process over wall time, in % of one core.
    var cpuPercent: Double
    /// Handler calls per lane over the interval, per second, in lane order.
    var firesPerSecondByLane: [Double]
}

/// Turns successive readings into samples.
struct Sampler {
    private let tally: Tally
    private var last: (wall: Int64, cpu: Int64, counts: Tally.Counts)
    private let started: Int64

    init(tally: Tally) {
        self.tally = tally
        started = bench_monotonic_nanoseconds()
        last = (started, bench_process_cpu_nanoseconds(), tally.read())
    }

    mutating func sample() -> Sample {
        let level = Level.now(tally)
        let wall = bench_monotonic_nanoseconds()
        let cpu = bench_process_cpu_nanoseconds()
        let counts = tally.read()
        let seconds = Double(wall - last.wall) / 1e9
        let lanes = zip(counts.fires, last.counts.fires).map { Double($0 - $1) / seconds }
        let sample = Sample(
            elapsedSeconds: Double(wall - started) / 1e9, level: level,
            firesPerSecond: Double(counts.totalFires - last.counts.totalFires) / seconds,
            opsPerSecond: Double(counts.totalOps - last.counts.totalOps) / seconds,
            cpuPercent: Double(cpu - last.cpu) / 1e7 / seconds, firesPerSecondByLane: lanes)
        last = (wall, cpu, counts)
        return sample
    }
}

// MARK: Formatting

extension Int {
    /// 12,345.
    var grouped: String {
        let digits = String(magnitude)
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return (self < 0 ? "-" : "") + text
    }
}

extension Int64 {
    /// Bytes in MiB with one decimal.
    var mebibytes: String { String(format: "%.1f MiB", Double(self) / 1_048_576) }

    /// A signed difference in KiB or MiB.
    var signedSize: String {
        let sign = self < 0 ? "−" : "+"
        let size = Double(magnitude)
        return size < 1_048_576 ? sign + String(format: "%.0f KiB", size / 1_024) : sign + magnitude.mebibytes
    }
}

extension UInt64 {
    var mebibytes: String { Int64(clamping: self).mebibytes }
}

extension Sample {
    static let header =
        "   elapsed    live TK (count ms)   owners captures tasks      RSS       heap      fires/s    ops/s    CPU %"

    /// One progress line.
    var line: String {
        func pad(_ text: String, _ width: Int) -> String {
            String(repeating: " ", count: max(0, width - text.count)) + text
        }
        return [
            pad(String(format: "%.0f s", elapsedSeconds), 10),
            pad(level.liveTickers.grouped, 10),
            pad(String(format: "(%.1f)", level.liveCountMilliseconds), 10),
            pad(level.owners.grouped, 8), pad(level.captures.grouped, 8), pad(level.tasks.grouped, 5),
            pad(level.rssBytes.mebibytes, 10), pad(level.heapBytes.mebibytes, 10),
            pad(Int(firesPerSecond.rounded()).grouped, 12), pad(Int(opsPerSecond.rounded()).grouped, 8),
            pad(String(format: "%.1f", cpuPercent), 8),
        ].joined(separator: " ")
    }
}
