import Foundation

extension TimerKitSoak {
    /// The closing block: what ran, totals, peaks, the three levels and the verdict.
    static func printSummary(
        options: SoakOptions, samples: [Sample], counts: Tally.Counts, start: Level, end: Level, beforeWarmUp: Level,
        drainSeconds: Double, lanes: Lanes, failures: [String]
    ) {
        let seconds = options.duration
        func perSecond(_ total: Int) -> String { "\(Int((Double(total) / seconds).rounded()).grouped)/s" }
        func named(_ values: [Int], _ names: [String]) -> String {
            zip(names, values).map { "\($0) \($1.grouped)" }.joined(separator: ", ")
        }
        let levels = samples.map(\.level)
        let countCosts = levels.map(\.liveCountMilliseconds).sorted()
        let cpu = samples.map(\.cpuPercent)
        func row(_ name: String, _ value: (Level) -> String) -> String {
            name.padding(toLength: 18, withPad: " ", startingAt: 0)
                + [beforeWarmUp, start, end].map { value($0).padding(toLength: 16, withPad: " ", startingAt: 0) }
                .joined(separator: " ")
        }
        let lines = [
            "",
            "== timerkit-soak summary ==",
            String(
                format: "duration          %.0f s of churn after a %.0f s warm-up cycle; %@ tickers, seed %llu",
                seconds, options.warmUp, options.tickers.grouped, options.seed),
            "operations        \(counts.totalOps.grouped) (\(perSecond(counts.totalOps))): "
                + named(counts.ops, ChurnOp.allCases.map(\.name)),
            "handler calls     \(counts.totalFires.grouped) (\(perSecond(counts.totalFires))): "
                + named(counts.fires, lanes.all.map(\.name)),
            "misbehaviours     " + named(counts.misbehaviours, Misbehaviour.allCases.map(\.name)),
            "peak              live \((levels.map(\.liveTickers).max() ?? 0).grouped) tickers, "
                + "RSS \((levels.map(\.rssBytes).max() ?? 0).mebibytes), "
                + "heap \((levels.map(\.heapBytes).max() ?? 0).mebibytes)",
            String(
                format: "CPU               mean %.1f %%, max %.1f %% of one core (%d cores)",
                cpu.isEmpty ? 0 : cpu.reduce(0, +) / Double(cpu.count), cpu.max() ?? 0,
                ProcessInfo.processInfo.activeProcessorCount),
            String(
                format: "live count cost   TickerDiagnostics.liveTickers().count: median %.1f ms, max %.1f ms",
                countCosts.isEmpty ? 0 : countCosts[countCosts.count / 2], countCosts.last ?? 0),
            String(format: "drain             %.2f s from releasing everything to all counts at zero", drainSeconds),
            "TimerKit messages \(counts.diagnostics.grouped)"
                + (counts.firstDiagnostics.isEmpty ? "" : "; first: " + counts.firstDiagnostics[0]),
            "",
            "level             "
                + ["before warm-up", "start", "end"]
                .map { $0.padding(toLength: 16, withPad: " ", startingAt: 0) }.joined(separator: " "),
            row("TimerKit live") { $0.liveTickers.grouped },
            row("owners") { $0.owners.grouped },
            row("captures") { $0.captures.grouped },
            row("tasks") { $0.tasks.grouped },
            row("heap in use") { $0.heapBytes.mebibytes },
            row("RSS") { $0.rssBytes.mebibytes },
            "end − start       heap \((end.heapBytes - start.heapBytes).signedSize) "
                + "(tolerance \(TimerKitSoak.heapTolerance.signedSize)), "
                + "RSS \((end.rssBytes - start.rssBytes).signedSize) (tolerance \(TimerKitSoak.rssTolerance.signedSize))",
            "",
            failures.isEmpty ? "verdict           PASS" : "verdict           FAIL: " + failures.joined(separator: "; "),
        ]
        print(lines.joined(separator: "\n"))
    }
}
