import Foundation

// MARK: Aggregates

/// One kind's lateness in one condition over every round.
struct LatenessAggregate {
    var kind: TimerKind
    var loaded: Bool
    var rounds: Int
    /// Median of the rounds' medians.
    var median: Double
    /// p99 and max over every sample of every round.
    var p99: Double
    var max: Double
    /// Median over rounds of (last fire − median) and of (median of the last third − of the middle third).
    var drift: Double
    var trend: Double
    var skipped: Int
    var fires: Int
    var completed: Bool
    /// Median over rounds of the TimerKit fires' medians counted from the harness's start (TimerKit only).
    var reported: Double?

    init?(_ runs: [LatenessRun], kind: TimerKind, loaded: Bool) {
        let mine = runs.filter { $0.kind == kind && $0.loaded == loaded }
        guard !mine.isEmpty else { return nil }
        self.kind = kind
        self.loaded = loaded
        rounds = mine.count
        median = medianOf(mine.map { Summary($0.microseconds).median })
        let pooled = Summary(mine.flatMap(\.microseconds))
        p99 = pooled.p99
        max = pooled.max
        drift = medianOf(mine.map(\.driftMicroseconds))
        trend = medianOf(mine.map(\.trendMicroseconds))
        skipped = mine.map(\.skipped).reduce(0, +)
        fires = mine.map(\.latenessNanoseconds.count).reduce(0, +)
        completed = mine.allSatisfy(\.completed)
        let reportedMedians = mine.compactMap { run in
            run.reportedLatenessNanoseconds.map { values in Summary(values.map { Double($0) / 1_000 }).median }
        }
        reported = reportedMedians.isEmpty ? nil : medianOf(reportedMedians)
    }
}

/// A statistic of TimerKit's lateness minus the same statistic of its raw counterpart's, paired by round:
/// each round measures both, one right after the other or side by side (their order alternating from round
/// to round), so a difference is taken between neighbours in time and the machine's drift between rounds
/// cancels out.
/// The spread is the rounds' range.
struct PairedLateness {
    /// Median over rounds of (TimerKit's statistic − the raw timer's), µs (for an even number of rounds, the
    /// mean of the two middle differences).
    var median: Double
    var minimum: Double
    var maximum: Double
    var rounds: Int
    /// Rounds in which TimerKit's statistic was at most the raw timer's.
    var roundsNoWorse: Int
    /// Median over rounds of the raw timer's statistic, µs (what the paired median is added to).
    var rawMedian: Double

    /// Pairs `kind` with `raw` round by round on `statistic` of each round's fires (the median by default).
    init?(
        _ runs: [LatenessRun], kind: TimerKind, raw: TimerKind, loaded: Bool,
        statistic: (Summary) -> Double = \.median
    ) {
        var pairs: [(mine: Double, theirs: Double)] = []
        for round in Set(runs.map(\.round)).sorted() {
            func roundStatistic(_ kind: TimerKind) -> Double? {
                runs.first { $0.kind == kind && $0.loaded == loaded && $0.round == round && $0.completed }
                    .map { statistic(Summary($0.microseconds)) }
            }
            guard let mine = roundStatistic(kind), let theirs = roundStatistic(raw) else { continue }
            pairs.append((mine, theirs))
        }
        self.init(pairs: pairs)
    }

    /// Pairs of (TimerKit's statistic, the reference's) measured side by side, one pair per round.
    init?(pairs: [(mine: Double, theirs: Double)]) {
        guard !pairs.isEmpty else { return nil }
        let differences = pairs.map { $0.mine - $0.theirs }
        median = Self.median(differences)
        minimum = differences.min()!
        maximum = differences.max()!
        rounds = differences.count
        roundsNoWorse = differences.filter { $0 <= 0 }.count
        rawMedian = Self.median(pairs.map(\.theirs))
    }

    /// The median, the mean of the two middle values for an even count (`medianOf` takes the lower one,
    /// which would favour TimerKit in a difference over an even number of rounds).
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }

    /// "+3.1 µs (−2.0 to +9.4, 5 rounds)".
    var text: String {
        "\(signed(median)) µs (\(signed(minimum)) to \(signed(maximum)), \(rounds) round\(rounds == 1 ? "" : "s"))"
    }
}

// MARK: Targets

/// One target of the issue, checked against this run.
struct TargetResult: Codable, Sendable {
    var target: String
    var context: String
    var measured: Double
    var unit: String
    var limit: Double
    /// The raw or reference figure the limit was derived from, when there is one.
    var reference: Double?
    var referenceName: String?
    /// Whether TimerKit/raw is a meaningful ratio for this target (not for signed drifts).
    var comparesToRaw = true
    var passed: Bool
    /// What the same load costs with no timer at all (the async floor), where there is one.
    var floor: Double?
    /// Missed, but the floor itself is over the limit: no timer can meet it on this machine.
    var limitBelowFloor = false
}

/// Lateness medians within this of the raw counterpart's pass.
let latenessAllowanceMicroseconds = 10.0
/// The precise context's median may be this many times the 1 ns-slack floor.
let preciseFloorFactor = 1.2
/// |median of the last third of the fires − median of the middle third| at most this: no accumulating drift.
let trendLimitMicroseconds = 50.0
let cpuLimitPercent = 1.0
let wakeupLimitPerSecond = 15.0
/// Tick sequences' CPU may be this many times the async floor's (the same task resumes, no timer).
let asyncFloorFactor = 2.0
/// A lone ticker's median lateness with tolerance within this of the same ticker's without.
let toleranceCostLimitMicroseconds = 10.0
let createLimitMicroseconds = 0.5
let cancelLimitMicroseconds = 0.3
let pendingLimitBytes = 200.0
/// Bytes left per timer that still round to zero.
let leftLimitBytes = 0.5
/// A million pending tickers' heap (issue 12: 128 MiB); RSS is reported beside it.
let millionLimitBytes = Double(128 << 20)
/// `cancel()` and handle release per ticker at most this many times the raw dispatch source's.
let rawCostFactor = 1.5

/// Where TimerKit's handle-based contexts' memory targets apply (a tick sequence is one task each).
let tickerKinds: [TimerKind] = [.timerKitDispatch, .timerKitRunLoop, .timerKitPrecise]

func contextName(_ kind: TimerKind) -> String {
    switch kind {
    case .timerKitDispatch: "dispatch"
    case .timerKitRunLoop: "run loop"
    case .timerKitAsync: "async"
    case .timerKitPrecise: "precise"
    default: kind.title
    }
}

/// The async floor measured next to `result` (TimerKit's async context only): no timer, the same number
/// of task resumes.
private func asyncFloor(of result: PopulationResult, in section: [PopulationResult]) -> PopulationResult? {
    result.kind == .timerKitAsync ? section.first { $0.kind == .resumeFloor } : nil
}

func evaluateTargets(_ results: Results) -> [TargetResult] {
    var targets: [TargetResult] = []
    for loaded in [false, true] {
        let condition = loaded ? "load" : "idle"
        for kind in TimerKind.timerKit {
            guard let mine = LatenessAggregate(results.lateness, kind: kind, loaded: loaded),
                let rawKind = kind.counterpart,
                let raw = LatenessAggregate(results.lateness, kind: rawKind, loaded: loaded)
            else { continue }
            let context = "\(contextName(kind)), \(condition)"
            if kind == .timerKitPrecise {
                targets.append(
                    TargetResult(
                        target: "lateness median ≤ \(format(preciseFloorFactor))× the 1 ns-slack floor",
                        context: context, measured: mine.median, unit: "µs", limit: raw.median * preciseFloorFactor,
                        reference: raw.median, referenceName: rawKind.title,
                        passed: mine.completed && mine.median <= raw.median * preciseFloorFactor))
                // The tails against the raw strict dispatch timer, the other way to ask for a punctual deadline,
                // measured right before or after it in each round: a round's p99 and max are its worst few
                // fires, so they are compared round by round, and the median of those differences is judged.
                for (name, statistic) in [("p99", { (summary: Summary) in summary.p99 }), ("max", { $0.max })] {
                    guard
                        let paired = PairedLateness(
                            results.lateness, kind: kind, raw: .dispatchSource, loaded: loaded, statistic: statistic)
                    else { continue }
                    // The judged figure is the paired difference itself (a round's max easily differs by
                    // milliseconds from the next round's, so a difference added to a median of maxima means
                    // nothing); the raw timer's median over rounds is shown beside it.
                    targets.append(
                        TargetResult(
                            target:
                                "lateness \(name) no worse than the raw strict dispatch timer's: median over rounds of "
                                + "(precise − strict) of each round's \(name) ≤ 0 (\(paired.roundsNoWorse) of "
                                + "\(paired.rounds) rounds no worse)",
                            context: context, measured: paired.median, unit: "µs", limit: 0,
                            reference: paired.rawMedian, referenceName: "\(TimerKind.dispatchSource.title) \(name)",
                            comparesToRaw: false, passed: mine.completed && paired.median <= 0))
                }
            } else if let paired = PairedLateness(results.lateness, kind: kind, raw: rawKind, loaded: loaded) {
                targets.append(
                    TargetResult(
                        target:
                            "lateness median ≤ raw + \(Int(latenessAllowanceMicroseconds)) µs (median of the "
                            + "rounds' paired differences)",
                        context: context, measured: raw.median + paired.median, unit: "µs",
                        limit: raw.median + latenessAllowanceMicroseconds, reference: raw.median,
                        referenceName: rawKind.title,
                        passed: mine.completed && paired.median <= latenessAllowanceMicroseconds))
            }
            targets.append(
                TargetResult(
                    target:
                        "no accumulating drift: median of last third of fires − middle third within "
                        + "±\(Int(trendLimitMicroseconds)) µs",
                    context: context, measured: mine.trend, unit: "µs", limit: trendLimitMicroseconds,
                    reference: raw.trend, referenceName: rawKind.title, comparesToRaw: false,
                    passed: mine.completed && abs(mine.trend) <= trendLimitMicroseconds))
        }
    }
    for row in toleranceRows(results) {
        guard let paired = row.paired else { continue }
        targets.append(
            TargetResult(
                target:
                    "lateness median of a 10 ms ticker with 2 ms tolerance within "
                    + "\(Int(toleranceCostLimitMicroseconds)) µs of the same ticker without (median of the rounds' "
                    + "paired differences)",
                context: contextName(row.kind), measured: paired.rawMedian + paired.median, unit: "µs",
                limit: paired.rawMedian + toleranceCostLimitMicroseconds, reference: paired.rawMedian,
                referenceName: "no tolerance", comparesToRaw: false,
                passed: row.with.completed && paired.median <= toleranceCostLimitMicroseconds))
    }
    for result in results.cpu where result.kind.isTimerKit {
        let raw = result.kind.counterpart.flatMap { kind in results.cpu.first { $0.kind == kind } }
        if result.kind == .timerKitAsync { continue }
        targets.append(
            TargetResult(
                target: "CPU of 1,000 tickers at 10 Hz ≤ \(format(cpuLimitPercent)) % of a core",
                context: contextName(result.kind), measured: result.cpuPercent, unit: "%", limit: cpuLimitPercent,
                reference: raw?.cpuPercent, referenceName: raw?.kind.title, passed: result.cpuPercent <= cpuLimitPercent
            ))
    }
    // Tick sequences are tasks: judged against what resuming the same tasks on the same deadlines costs with
    // no timer, paired by round.
    for pattern in AsyncRound.Pattern.allCases {
        guard let ratios = AsyncRound.ratios(results.asyncRounds, pattern),
            let round = AsyncRound.medianRound(results.asyncRounds, pattern)
        else { continue }
        let (sequences, floor) = round.pair(pattern)
        let raw = results.cpu.first { $0.kind == .taskSleep }
        targets.append(
            TargetResult(
                target: "CPU of 1,000 tick sequences at 10 Hz ≤ \(format(asyncFloorFactor))× the no-timer floor with "
                    + "the same deadlines (median ratio over \(results.asyncRounds.count) paired round\(results.asyncRounds.count == 1 ? "" : "s"): "
                    + "\(format(ratios.median))×, range \(format(ratios.minimum))–\(format(ratios.maximum))×)",
                context: "async, \(pattern.title)", measured: sequences.cpuPercent, unit: "%",
                limit: floor.cpuPercent * asyncFloorFactor,
                reference: pattern == .ownStarts ? raw?.cpuPercent : nil,
                referenceName: pattern == .ownStarts ? raw?.kind.title : nil,
                passed: ratios.median <= asyncFloorFactor, floor: floor.cpuPercent))
    }
    for result in results.wakeups where result.kind.isTimerKit {
        let raw = result.kind.counterpart.flatMap { kind in results.wakeups.first { $0.kind == kind } }
        let floor = asyncFloor(of: result, in: results.wakeups)?.voluntarySwitchesPerSecond
        let passed = result.voluntarySwitchesPerSecond <= wakeupLimitPerSecond
        targets.append(
            TargetResult(
                target: "wake-ups of 1,000 tickers at 1 s, 10 % tolerance ≤ \(Int(wakeupLimitPerSecond))/s",
                context: contextName(result.kind), measured: result.voluntarySwitchesPerSecond, unit: "/s",
                limit: wakeupLimitPerSecond, reference: raw?.voluntarySwitchesPerSecond,
                referenceName: raw?.kind.title, passed: passed, floor: floor,
                limitBelowFloor: !passed && floor.map { $0 >= wakeupLimitPerSecond } == true))
    }
    for result in results.pending where tickerKinds.contains(result.kind) {
        let raw = result.kind.counterpart.flatMap { kind in results.handleOwnedPending.first { $0.kind == kind } }
        let form = result.isHandleOwned ? "" : ", \(result.binding?.title ?? "")"
        let context = "\(contextName(result.kind))\(form), \(result.count.formatted()) pending"
        func add(_ target: String, _ measured: Double, _ unit: String, _ limit: Double, _ reference: Double?) {
            targets.append(
                TargetResult(
                    target: target, context: context, measured: measured, unit: unit, limit: limit,
                    reference: reference, referenceName: raw?.kind.title, passed: measured <= limit))
        }
        add(
            "create ≤ \(format(createLimitMicroseconds)) µs per ticker", result.createMicrosecondsPerTimer, "µs",
            createLimitMicroseconds, raw?.createMicrosecondsPerTimer)
        // cancel() and release against the raw dispatch source's (the one-source-per-timer alternative),
        // measured in the same run; an absolute limit only when that row is missing.
        if let source = results.pending.first(where: { $0.kind == .dispatchSource }), result.isHandleOwned {
            let cancelLimit = source.cancelMicrosecondsPerTimer * rawCostFactor
            targets.append(
                TargetResult(
                    target: "`cancel()` ≤ \(format(rawCostFactor))× the raw dispatch source's (handles still held)",
                    context: context, measured: result.cancelMicrosecondsPerTimer, unit: "µs", limit: cancelLimit,
                    reference: source.cancelMicrosecondsPerTimer, referenceName: source.kind.title,
                    passed: result.cancelMicrosecondsPerTimer <= cancelLimit))
            if let release = result.releaseMicrosecondsPerTimer, let sourceRelease = source.releaseMicrosecondsPerTimer
            {
                targets.append(
                    TargetResult(
                        target: "handle release ≤ \(format(rawCostFactor))× the raw dispatch source's",
                        context: context, measured: release, unit: "µs", limit: sourceRelease * rawCostFactor,
                        reference: sourceRelease, referenceName: source.kind.title,
                        passed: release <= sourceRelease * rawCostFactor))
            }
            // Beside the calling-thread targets above, not instead of them: a raw source's cancel and release
            // leave its teardown to its queue, which this counts (on both sides).
            if let cpu = result.cancelAndReleaseCPUMicrosecondsPerTimer,
                let sourceCPU = source.cancelAndReleaseCPUMicrosecondsPerTimer
            {
                targets.append(
                    TargetResult(
                        target: "`cancel()` + release, whole-process CPU until settled, ≤ \(format(rawCostFactor))× "
                            + "the raw dispatch source's",
                        context: context, measured: cpu, unit: "µs", limit: sourceCPU * rawCostFactor,
                        reference: sourceCPU, referenceName: source.kind.title,
                        passed: cpu <= sourceCPU * rawCostFactor))
            }
        } else if result.isHandleOwned {
            add(
                "`cancel()` ≤ \(format(cancelLimitMicroseconds)) µs per ticker (handles still held)",
                result.cancelMicrosecondsPerTimer, "µs", cancelLimitMicroseconds, raw?.cancelMicrosecondsPerTimer)
        }
        add(
            "≤ \(Int(pendingLimitBytes)) B per pending ticker", result.bytesPerPendingTimer, "B", pendingLimitBytes,
            raw?.bytesPerPendingTimer)
        // An owner-bound form's owners outlive the tickers here, and with them the side tables Swift gave
        // them: what is left is theirs, shown in the table, not TimerKit's.
        if result.isHandleOwned {
            add(
                "0 B left after cancel (< \(format(leftLimitBytes)) B per ticker)", result.bytesLeftPerTimer, "B",
                leftLimitBytes, raw?.bytesLeftPerTimer)
        }
    }
    for result in results.fired where tickerKinds.contains(result.kind) {
        let raw = result.kind.counterpart.flatMap { kind in results.fired.first { $0.kind == kind } }
        targets.append(
            TargetResult(
                target: "0 B left after fire (< \(format(leftLimitBytes)) B per ticker)",
                context: "\(contextName(result.kind)), \(result.count.formatted()) fired",
                measured: result.bytesLeftPerTimer,
                unit: "B", limit: leftLimitBytes, reference: raw?.bytesLeftPerTimer, referenceName: raw?.kind.title,
                passed: result.allFired && result.bytesLeftPerTimer <= leftLimitBytes))
    }
    for result in results.million where result.kind.isTimerKit {
        let raw = results.million.first { $0.kind == result.kind.counterpart }
        let heap = Double(result.heapBytes)
        let runs = result.probe.map { $0.completed && $0.skipped == 0 } ?? false
        targets.append(
            TargetResult(
                target:
                    "\(result.count.formatted()) pending within \(Int(millionLimitBytes) >> 20) MiB of heap, and a 10 ms "
                    + "ticker still runs",
                context: contextName(result.kind), measured: heap / 1_048_576, unit: "MiB",
                limit: millionLimitBytes / 1_048_576, reference: raw.map { Double($0.heapBytes) / 1_048_576 },
                referenceName: raw?.kind.title, passed: runs && heap <= millionLimitBytes))
    }
    return targets + virtualTargets(results) + cancellationTargets(results)
}

// MARK: Markdown

func markdownReport(_ results: Results) -> String {
    var lines: [String] = []
    let options = results.options
    lines.append("## timerkit-bench report")
    lines.append("")
    lines.append("```sh")
    lines.append(results.invocation.command)
    lines.append("```")
    lines.append("")
    lines.append(
        "Run in `\(results.invocation.directory)` (paths relative to the repository root) as "
            + "`\(results.invocation.arguments.map(shellQuoted).joined(separator: " "))`. "
            + "\(options.length.rawValue.capitalized) suite: \(options.rounds) lateness round(s) of "
            + "\(options.deadlines) deadlines, \(format(options.window)) s CPU and wake-up windows. One run, one "
            + "machine: read the ratios, not absolute figures across runs.")
    if !results.lateness.isEmpty { lines += latenessSection(results) }
    if !results.tolerance.isEmpty { lines += toleranceSection(results) }
    if !results.cpu.isEmpty { lines += cpuSection(results) }
    if !results.wakeups.isEmpty { lines += wakeupSection(results) }
    if !results.pending.isEmpty || !results.fired.isEmpty { lines += oneShotSection(results) }
    if !results.expiry.isEmpty { lines += expirySection(results) }
    if !results.primitives.isEmpty { lines += primitivesSection(results) }
    if !results.million.isEmpty { lines += millionSection(results) }
    if !results.virtual.isEmpty { lines += virtualSection(results) }
    if !results.cancellation.isEmpty { lines += cancellationSection(results) }
    if let calendar = results.calendar { lines += calendarSection(calendar) }
    if !results.targets.isEmpty { lines += targetSection(results) }
    lines.append("")
    lines.append("Setups:")
    let floorMeasured = (results.cpu + results.wakeups).contains { $0.kind == .resumeFloor }
    for kind in TimerKind.reportOrder + (floorMeasured ? [.resumeFloor] : []) {
        lines.append("- \(kind.title): \(kind.setup).")
    }
    let host = results.host
    lines.append("")
    lines.append(
        "Date: \(results.date). Host: \(host.name), \(host.system), \(host.processors) processors (\(host.cpu)), "
            + "Swift \(host.swift). Total runtime: \(minutes(results.runtimeSeconds)).")
    return lines.joined(separator: "\n")
}

private func latenessSection(_ results: Results) -> [String] {
    var lines = [
        "",
        "### Lateness of one 10 ms repeating timer (µs)",
        "",
        "Lateness = fire time − (start + k·10 ms) on CLOCK_MONOTONIC; a late fire counts against the latest "
            + "deadline passed, the others as skipped. Median of the \(results.options.rounds) rounds' medians; p99 "
            + "and max over all fires; drift = last fire − median. Load = one spinning thread in the process. "
            + "Each round measures every kind once, each TimerKit context side by side with its raw counterpart: "
            + "both at once, each on a thread, run loop or queue of its own, the second scheduled half an "
            + "interval after the first (which goes first alternates by round), so that both see the machine "
            + "over the same seconds and their fires never meet; *paired* is the median over rounds of TimerKit's "
            + "median minus the raw timer's in the same round, with the rounds' range: the figure the ±10 µs "
            + "target reads, since the machine's noise moves both neighbours together. "
            + "For TimerKit, start is the instant TimerKit read at the top of the schedule call (k·10 ms after it "
            + "is `Tick.deadline`), as the raw timers' deadlines are computed from the start the harness passes "
            + "them. *From the harness's start*: the same TimerKit fires counted from the harness's own reading "
            + "right before the call (the difference is the time from that reading into the call: a constant "
            + "offset of the whole schedule, mostly the cold call after the harness's sleep).",
        "",
        "| timer | condition | median | p99 | max | drift | skipped | TimerKit/raw median | paired: TimerKit − raw | "
            + "from the harness's start, median |",
        "|---|---|--:|--:|--:|--:|--:|---|---|--:|",
    ]
    for loaded in [false, true] {
        for kind in TimerKind.reportOrder {
            guard let row = LatenessAggregate(results.lateness, kind: kind, loaded: loaded) else { continue }
            var ratio = ""
            var paired = ""
            if let rawKind = kind.counterpart,
                let raw = LatenessAggregate(results.lateness, kind: rawKind, loaded: loaded)
            {
                ratio =
                    "\(ratioText(row.median, raw.median)) (\(signed(row.median - raw.median)) µs vs \(rawKind.title))"
                paired =
                    PairedLateness(results.lateness, kind: kind, raw: rawKind, loaded: loaded).map(\.text) ?? ""
            }
            let name = (kind.isTimerKit ? "**\(kind.title)**" : kind.title) + (row.completed ? "" : " (timed out)")
            lines.append(
                "| \(name) | \(loaded ? "load" : "idle") | \(format(row.median)) | \(format(row.p99)) | "
                    + "\(format(row.max)) | \(signed(row.drift)) | \(row.skipped) | \(ratio) | \(paired) | "
                    + "\(row.reported.map(format) ?? "") |")
        }
    }
    return lines + tailLines(results.lateness) + threadScheduleLines(results.lateness)
}

/// Lateness at least this long is counted in the tails table: about a quarter of a scheduler tick.
let longFireMicroseconds = 1_000.0

/// The precise context's tails next to the raw strict dispatch timer's, compared round by round (the two
/// run back to back), and how many fires of each kind were late by a millisecond or more.
private func tailLines(_ runs: [LatenessRun]) -> [String] {
    var lines = [
        "",
        "Tails of the precise context against the raw strict `DispatchSourceTimer`, measured right before or "
            + "after it in every round: each round's p99 and max (its 2nd and 1st worst of 150 fires) paired "
            + "by round, the median over rounds of (precise − strict) and its range, the rounds in which the "
            + "precise context's was no worse, and the fires late by \(format(longFireMicroseconds)) µs or more "
            + "(whole scheduler slices lost to other work on the machine).",
        "",
        "| condition | p99: precise − strict | rounds no worse | max: precise − strict | rounds no worse | "
            + "fires ≥ \(format(longFireMicroseconds)) µs: precise / strict / all fires each |",
        "|---|---|--:|---|--:|--:|",
    ]
    var any = false
    for loaded in [false, true] {
        guard
            let p99 = PairedLateness(
                runs, kind: .timerKitPrecise, raw: .dispatchSource, loaded: loaded, statistic: \.p99),
            let max = PairedLateness(
                runs, kind: .timerKitPrecise, raw: .dispatchSource, loaded: loaded, statistic: \.max)
        else { continue }
        any = true
        func long(_ kind: TimerKind) -> (count: Int, fires: Int) {
            let mine = runs.filter { $0.kind == kind && $0.loaded == loaded }
            let values = mine.flatMap(\.microseconds)
            return (values.filter { $0 >= longFireMicroseconds }.count, values.count)
        }
        let (precise, strict) = (long(.timerKitPrecise), long(.dispatchSource))
        lines.append(
            "| \(loaded ? "load" : "idle") | \(p99.text) | \(p99.roundsNoWorse) of \(p99.rounds) | \(max.text) | "
                + "\(max.roundsNoWorse) of \(max.rounds) | \(precise.count) / \(strict.count) / \(precise.fires) |")
    }
    return any ? lines : []
}

/// What the scheduler did to the TimerKit contexts' own threads over the lateness rounds: whether a
/// thread that busy-waits (precise) is pre-empted, and how long it waits for a core when it wakes.
private func threadScheduleLines(_ runs: [LatenessRun]) -> [String] {
    var lines = [
        "",
        "The contexts' threads over the same rounds (`/proc/self/task/*/schedstat` and `status`, summed over "
            + "rounds, per fire): CPU time on a core (for the precise thread, mostly its busy-wait), time "
            + "runnable but waiting for a core (woken late, or pre-empted), and context switches.",
        "",
        "| thread | condition | fires | CPU µs/fire | run-queue wait µs/fire | voluntary switches/fire | "
            + "involuntary switches per 100 fires |",
        "|---|---|--:|--:|--:|--:|--:|",
    ]
    var any = false
    for loaded in [false, true] {
        for kind in TimerKind.reportOrder {
            let mine = runs.filter { $0.kind == kind && $0.loaded == loaded && $0.thread != nil }
            guard !mine.isEmpty else { continue }
            any = true
            let fires = Double(mine.map(\.latenessNanoseconds.count).reduce(0, +))
            func sum(_ value: (ThreadSchedule) -> Int64) -> Double {
                Double(mine.map { value($0.thread!) }.reduce(0, +))
            }
            let name = kind == .timerKitRunLoop ? "run-loop thread (the harness's)" : "\(kind.title)'s thread"
            lines.append(
                "| \(name) | \(loaded ? "load" : "idle") | \(Int(fires)) | \(format(sum(\.runNanoseconds) / fires / 1_000)) | "
                    + "\(format(sum(\.waitNanoseconds) / fires / 1_000)) | \(format(sum(\.voluntarySwitches) / fires)) | "
                    + "\(format(sum(\.involuntarySwitches) / fires * 100)) |")
        }
    }
    return any ? lines : []
}

/// The tolerance section's rows: per context, the aggregate without tolerance and with it, and the two
/// paired by round (each round measures both back to back, in alternating order).
private func toleranceRows(
    _ results: Results
) -> [(kind: TimerKind, without: LatenessAggregate, with: LatenessAggregate, paired: PairedLateness?)] {
    let without = results.tolerance.filter { $0.toleranceNanoseconds == nil }
    let with = results.tolerance.filter { $0.toleranceNanoseconds != nil }
    return TimerKitBench.toleranceKinds.compactMap { kind in
        guard let plain = LatenessAggregate(without, kind: kind, loaded: false),
            let tolerant = LatenessAggregate(with, kind: kind, loaded: false)
        else { return nil }
        func roundMedians(_ runs: [LatenessRun]) -> [Int: Double] {
            Dictionary(
                runs.filter { $0.kind == kind && $0.completed }.map { ($0.round, Summary($0.microseconds).median) },
                uniquingKeysWith: { first, _ in first })
        }
        let plainByRound = roundMedians(without)
        let pairs = roundMedians(with).sorted { $0.key < $1.key }.compactMap { round, median in
            plainByRound[round].map { (mine: median, theirs: $0) }
        }
        return (kind, plain, tolerant, PairedLateness(pairs: pairs))
    }
}

private func toleranceSection(_ results: Results) -> [String] {
    var lines = [
        "",
        "### What tolerance costs a lone ticker: one 10 ms ticker, without and with 2 ms of tolerance (µs)",
        "",
        "The same ticker measured without tolerance and with 2 ms of it in each round, idle process, lateness as "
            + "in the lateness table. Run loop and dispatch: side by side, each ticker on a context of its own "
            + "(two run-loop threads, two queues), both at once, the second scheduled half an interval after the "
            + "first; precise: one shared thread, so back to back, each ticker alone on it. Which goes first "
            + "alternates from round to round. Its window "
            + "holds no other ticker's deadline, so it should be delivered at its deadline: tolerance costs only "
            + "what coalescing needs. *Paired* is the median over rounds of the median with tolerance minus the "
            + "median without in the same round, with the rounds' range: the figure the 10 µs target reads.",
        "",
        "| context | median, no tolerance | median, 2 ms tolerance | difference | paired: with − without | "
            + "p99, no tolerance | p99, 2 ms tolerance |",
        "|---|--:|--:|--:|---|--:|--:|",
    ]
    for row in toleranceRows(results) {
        lines.append(
            "| \(contextName(row.kind)) | \(format(row.without.median)) | \(format(row.with.median)) | "
                + "\(signed(row.with.median - row.without.median)) | \(row.paired?.text ?? "") | "
                + "\(format(row.without.p99)) | \(format(row.with.p99)) |")
    }
    return lines
}

private func cpuSection(_ results: Results) -> [String] {
    var lines = [
        "",
        "### CPU of 1,000 timers at 10 Hz (% of one core)",
        "",
        "Created back to back, tolerance 0; user + system time of the whole process (getrusage) over "
            + "\(format(results.options.window)) s after \(format(results.options.settle)) s of warm-up.",
        "",
        "| context | TimerKit | fires/s | raw | raw | fires/s | TimerKit/raw |",
        "|---|--:|--:|---|--:|--:|--:|",
    ]
    func percent(_ result: PopulationResult) -> String { "\(format(result.cpuPercent)) %" }
    for result in results.cpu where result.kind.isTimerKit {
        let raw = result.kind.counterpart.flatMap { kind in results.cpu.first { $0.kind == kind } }
        lines.append(
            "| \(contextName(result.kind)) | \(percent(result)) (user \(format(result.userPercent)), sys "
                + "\(format(result.systemPercent))) | \(Int(result.firesPerSecond.rounded())) | "
                + "\(raw?.kind.title ?? "—") | \(raw.map(percent) ?? "—") | "
                + "\(raw.map { "\(Int($0.firesPerSecond.rounded()))" } ?? "—") | "
                + "\(raw.map { ratioText(result.cpuPercent, $0.cpuPercent) } ?? "—") |")
        if result.kind == .timerKitAsync { lines += asyncRows(results, percent: percent) }
    }
    if !results.asyncRounds.isEmpty {
        lines.append("")
        lines.append(
            "Async: 1,000 `Ticker.ticks` sequences against the async floor, no timer at all: 1,000 tasks each "
                + "suspended on an `UnsafeContinuation` and resumed by a plain thread, what Swift concurrency's "
                + "task resume alone costs on this machine. Each is compared with a floor of the same wake-up "
                + "pattern, measured right before or after it in each of \(results.asyncRounds.count) rounds (the "
                + "order reverses every other round); the figures are the round with the median ratio, the last "
                + "column the median of the rounds' ratios with their range. *Each from its own start*: each "
                + "sequence counts from its own start, so the tasks' starts spread the deadlines over a few "
                + "milliseconds; its floor's thread (1 ns timer slack, as TimerKit's precise thread) resumes its "
                + "tasks on the same spread of deadlines (the first deadlines of the sequences measured just "
                + "before, every 100 ms), every task due by its wake-up at once. *Deadlines aligned*: "
                + "every sequence's deadlines on one grid (a task that starts after the grid's first instant "
                + "takes its next one), so that each interval's deadlines are served in one wake-up; its floor "
                + "resumes all 1,000 tasks in one burst every 100 ms.")
        // The comparison the report made before it had a floor for each pattern, kept in view.
        let acrossPatterns = results.asyncRounds.map { round in
            round.burstFloor.cpuPercent > 0 ? round.ownStarts.cpuPercent / round.burstFloor.cpuPercent : .infinity
        }.sorted()
        if let low = acrossPatterns.first, let high = acrossPatterns.last {
            lines.append("")
            lines.append(
                "Across patterns, the sequences counting from their own starts cost "
                    + "\(format(PairedLateness.median(acrossPatterns)))× the burst floor (\(format(low))–\(format(high))× "
                    + "over the rounds): what spreading 1,000 deadlines over a few milliseconds costs on top of "
                    + "TimerKit's own work per tick, which the aligned pair measures.")
        }
    }
    return lines
}

/// The CPU table's rows for tick sequences and their floors, from the async rounds.
private func asyncRows(_ results: Results, percent: (PopulationResult) -> String) -> [String] {
    var lines: [String] = []
    for pattern in AsyncRound.Pattern.allCases {
        guard let round = AsyncRound.medianRound(results.asyncRounds, pattern),
            let ratios = AsyncRound.ratios(results.asyncRounds, pattern)
        else { continue }
        let (sequences, floor) = round.pair(pattern)
        let ratio =
            "\(format(ratios.median))× (\(format(ratios.minimum))–\(format(ratios.maximum))×, "
            + "\(results.asyncRounds.count) round\(results.asyncRounds.count == 1 ? "" : "s"))"
        if pattern != .ownStarts {
            lines.append(
                "| async, \(pattern.title) | \(percent(sequences)) (user \(format(sequences.userPercent)), sys "
                    + "\(format(sequences.systemPercent))) | \(Int(sequences.firesPerSecond.rounded())) | — | — | — | — |"
            )
        }
        let floorName = pattern == .ownStarts ? "each task at its own deadline" : "all tasks in one burst"
        lines.append(
            "| async floor, \(floorName) | — | — | \(floor.kind.title) | \(percent(floor)) | "
                + "\(Int(floor.firesPerSecond.rounded())) | async / floor: \(ratio) |")
    }
    return lines
}

private func wakeupSection(_ results: Results) -> [String] {
    var lines = [
        "",
        "### Wake-ups of 1,000 timers at 1 s, 10 % tolerance (voluntary context switches/s)",
        "",
        "First deadlines spread evenly over the second; tolerance 100 ms (TimerKit `tolerance:`, dispatch "
            + "leeway, `Timer.tolerance`, `Task.sleep` tolerance). Whole process, over "
            + "\(format(results.options.window)) s.",
        "",
        "| context | TimerKit | fires/s | raw | raw | fires/s | TimerKit/raw |",
        "|---|--:|--:|---|--:|--:|--:|",
    ]
    for result in results.wakeups where result.kind.isTimerKit {
        let raw = result.kind.counterpart.flatMap { kind in results.wakeups.first { $0.kind == kind } }
        lines.append(
            "| \(contextName(result.kind)) | \(format(result.voluntarySwitchesPerSecond)) | "
                + "\(Int(result.firesPerSecond.rounded())) | \(raw?.kind.title ?? "—") | "
                + "\(raw.map { format($0.voluntarySwitchesPerSecond) } ?? "—") | "
                + "\(raw.map { "\(Int($0.firesPerSecond.rounded()))" } ?? "—") | "
                + "\(raw.map { ratioText(result.voluntarySwitchesPerSecond, $0.voluntarySwitchesPerSecond) } ?? "—")"
                + " |")
        if let floor = asyncFloor(of: result, in: results.wakeups) {
            lines.append(
                floorRow(
                    floor, value: { format($0.voluntarySwitchesPerSecond) },
                    ratio: ratioText(result.voluntarySwitchesPerSecond, floor.voluntarySwitchesPerSecond)))
        }
    }
    if let floor = results.wakeups.first(where: { $0.kind == .resumeFloor }) {
        lines.append("")
        lines.append(
            "Async floor: 1,000 tasks each suspended on an `UnsafeContinuation`, resumed by a plain thread (no "
                + "timer) in 10 bursts of 100 per second, each task once per second (the shape of 1,000 timers "
                + "at 1 s with their wake-ups perfectly coalesced): \(format(floor.voluntarySwitchesPerSecond)) "
                + "wake-ups/s, \(format(floor.cpuPercent)) % of a core. Its last column is TimerKit async / floor.")
    }
    if let floor = results.processFloor {
        lines.append("")
        lines.append(
            "With no timers at all the process makes \(format(floor.voluntarySwitchesPerSecond)) wake-ups/s and uses "
                + "\(format(floor.cpuPercent)) % of a core over the same window (the harness's floor, included above).")
    }
    return lines
}

/// The async floor's row under the async row of the CPU or wake-up table (its figures in the raw columns).
private func floorRow(_ floor: PopulationResult, value: (PopulationResult) -> String, ratio: String) -> String {
    "| async floor | — | — | \(floor.kind.title) | \(value(floor)) | \(Int(floor.firesPerSecond.rounded())) | "
        + "\(ratio) |"
}

private func oneShotSection(_ results: Results) -> [String] {
    let pendingCount =
        results.handleOwnedPending.first { $0.kind == .timerKitDispatch }?.count ?? results.options.pendingCount
    var lines = [
        "",
        "### \(pendingCount.formatted()) pending one-shots due in 60 s",
        "",
        "Per timer, the median of \(pendingTimingRounds) rounds of create, cancel and release (tasks: one "
            + "round; bytes: the first round). create: the creation loop. cancel(): the loop calling `cancel()` on every handle, all "
            + "handles still held (raw: `DispatchSourceTimer.cancel()`, `Timer.invalidate()` on the timer's "
            + "thread, `Task.cancel()`). release: then dropping the array of handles, which frees TimerKit's "
            + "records and handle objects (DispatchSourceTimer: drops the harness's references, each source "
            + "is freed later, asynchronously, on its queue; Foundation.Timer: frees the timers, on their thread; "
            + "tasks: n/a, a task frees itself when it returns). CPU: CPU time of the whole process (every "
            + "thread) from the start of the cancel loop until the context has settled after the release, which "
            + "counts the teardown a dispatch source leaves to its queue (the cancel and release columns time the "
            + "calling thread only). "
            + "Bytes: malloc'd bytes in use (mallinfo2 uordblks + hblkhd) while pending, and left after cancel "
            + "and release, against the level before creation. After fire: "
            + "\(results.options.firedCount.formatted()) one-shots due in 0.5 s, all fired, then released. "
            + "TimerKit cells show TimerKit/raw in brackets. Each kind's row is handle-owned; the owner-bound "
            + "rows under TimerKit .dispatch bind each one-shot to an owner object (one each, or one for all), "
            + "made before the heap is first read: the first weak reference to an object makes Swift allocate "
            + "the object's side table, counted in their bytes pending and, since the owners outlive the "
            + "tickers here, in their bytes left (freed with the owner).",
        "",
        "| timer | pending | create µs | `cancel()` µs | release µs | cancel + release CPU µs | B per pending | "
            + "B left after cancel | B left after fire |",
        "|---|--:|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for kind in oneShotReportOrder {
        let pending = results.handleOwnedPending.first { $0.kind == kind }
        let fired = results.fired.first { $0.kind == kind }
        guard pending != nil || fired != nil else { continue }
        let rawPending = kind.counterpart.flatMap { raw in results.handleOwnedPending.first { $0.kind == raw } }
        let rawFired = kind.counterpart.flatMap { raw in results.fired.first { $0.kind == raw } }
        func cell(_ value: Double?, _ raw: Double?) -> String {
            guard let value else { return "—" }
            guard let raw, kind.isTimerKit else { return format(value) }
            return "\(format(value)) (\(ratioText(value, raw)))"
        }
        // Tasks have nothing to drop: n/a rather than a missing figure.
        let release =
            pending.map { $0.releaseMicrosecondsPerTimer == nil } == true
            ? "n/a" : cell(pending?.releaseMicrosecondsPerTimer, rawPending?.releaseMicrosecondsPerTimer)
        var name = kind.isTimerKit ? "**\(kind.title)**" : kind.title
        if let note = pending?.note, !note.isEmpty { name += " (\(note))" }
        if kind == .timerKitAsync { name += " (one task per sequence)" }
        lines.append(
            "| \(name) | \(pending.map { $0.count.formatted() } ?? "—") | "
                + "\(cell(pending?.createMicrosecondsPerTimer, rawPending?.createMicrosecondsPerTimer)) | "
                + "\(cell(pending?.cancelMicrosecondsPerTimer, rawPending?.cancelMicrosecondsPerTimer)) | "
                + "\(release) | "
                + "\(cell(pending?.cancelAndReleaseCPUMicrosecondsPerTimer, rawPending?.cancelAndReleaseCPUMicrosecondsPerTimer)) | "
                + "\(cell(pending?.bytesPerPendingTimer, rawPending?.bytesPerPendingTimer)) | "
                + "\(cell(pending?.bytesLeftPerTimer, rawPending?.bytesLeftPerTimer)) | "
                + "\(cell(fired?.bytesLeftPerTimer, rawFired?.bytesLeftPerTimer))"
                + "\(fired.map { $0.allFired ? "" : " (not all fired)" } ?? "") |")
        for bound in results.pending where bound.kind == kind && !bound.isHandleOwned {
            lines.append(
                "| **\(kind.title)**, \(bound.binding?.title ?? "") | \(bound.count.formatted()) | "
                    + "\(cell(bound.createMicrosecondsPerTimer, rawPending?.createMicrosecondsPerTimer)) | "
                    + "\(cell(bound.cancelMicrosecondsPerTimer, rawPending?.cancelMicrosecondsPerTimer)) | "
                    + "\(cell(bound.releaseMicrosecondsPerTimer, rawPending?.releaseMicrosecondsPerTimer)) | "
                    + "\(cell(bound.cancelAndReleaseCPUMicrosecondsPerTimer, rawPending?.cancelAndReleaseCPUMicrosecondsPerTimer)) | "
                    + "\(cell(bound.bytesPerPendingTimer, rawPending?.bytesPerPendingTimer)) | "
                    + "\(format(bound.bytesLeftPerTimer)) (the owners' side tables) | — |")
        }
    }
    return lines
}

private func primitivesSection(_ results: Results) -> [String] {
    var lines = [
        "",
        "### Clock readings and an uncontended lock",
        "",
        "Nanoseconds per call on the calling thread, the median of 5 rounds of 1,000,000 calls. TimerKit's "
            + "rows go through its public API (a clock reading through `TickClock`, a lock through a ticker's "
            + "state, which takes its engine's lock once and looks the ticker up); the raw rows are the calls "
            + "underneath.",
        "",
        "| operation | ns per call |",
        "|---|--:|",
    ]
    for result in results.primitives {
        lines.append("| \(result.isTimerKit ? "**\(result.name)**" : result.name) | \(format(result.nanoseconds)) |")
    }
    return lines
}

private func expirySection(_ results: Results) -> [String] {
    let first = results.expiry[0]
    var lines = [
        "",
        "### \(first.count.formatted()) one-shots expiring over \(format(first.windowSeconds)) s "
            + "(\(Int(Double(first.count) / first.windowSeconds).formatted()) a second)",
        "",
        "A store of sessions expiring at a high rate: one-shots on one dispatch queue, deadlines spread evenly "
            + "over the window, with a tolerance (TimerKit) or leeway (DispatchSourceTimer) of 0 or 250 ms. "
            + "CPU: user + system time of the whole process from the end of creation until the last one "
            + "fired, per expiry (the harness polls every 2 ms meanwhile, the same for every row). Switches: "
            + "voluntary context switches over that span, per second of the window (a proxy for wake-ups). "
            + "The median of \(TimerKitBench.expiryRounds) interleaved rounds; TimerKit cells show "
            + "TimerKit/raw at the same tolerance in brackets.",
        "",
        "| timer | tolerance | CPU µs per expiry | create µs | switches/s |",
        "|---|--:|--:|--:|--:|",
    ]
    func median(_ kind: TimerKind, _ tolerance: Double) -> ExpiryResult? {
        let runs = results.expiry.filter { $0.kind == kind && $0.toleranceMilliseconds == tolerance }
            .sorted { $0.cpuMicrosecondsPerExpiry < $1.cpuMicrosecondsPerExpiry }
        return runs.isEmpty ? nil : runs[runs.count / 2]
    }
    for tolerance in [0.0, 250.0] {
        let raw = median(.dispatchSource, tolerance)
        for kind in [TimerKind.timerKitDispatch, .dispatchSource] {
            guard let run = median(kind, tolerance) else { continue }
            let ratio =
                kind.isTimerKit && raw != nil
                ? " (\(ratioText(run.cpuMicrosecondsPerExpiry, raw!.cpuMicrosecondsPerExpiry)))" : ""
            let name = kind.isTimerKit ? "**\(kind.title)**" : kind.title
            lines.append(
                "| \(name) | \(format(tolerance)) ms | \(format(run.cpuMicrosecondsPerExpiry))\(ratio)"
                    + "\(run.allFired ? "" : " (not all fired)") | \(format(run.createMicroseconds)) | "
                    + "\(Int(run.switchesPerSecond.rounded()).formatted()) |")
        }
    }
    return lines
}

extension PendingResult {
    /// Whether this is the handle-owned form (every kind's own row).
    var isHandleOwned: Bool { binding == nil || binding == .handle }
}

extension Results {
    /// The pending section's handle-owned results: one per kind.
    var handleOwnedPending: [PendingResult] { pending.filter(\.isHandleOwned) }
}

/// Report order of the one-shot kinds (the clock_nanosleep loops are not one-shot timers).
private let oneShotReportOrder: [TimerKind] = TimerKind.reportOrder.filter {
    $0 != .nanosleep && $0 != .nanosleepPrecise
}

private func millionSection(_ results: Results) -> [String] {
    var lines = [
        "",
        "### A million pending one-shots",
        "",
        "Due in 10 minutes; heap = malloc'd bytes in use, RSS = VmRSS, both as deltas from before creation "
            + "(after `malloc_trim`). Probe: a 10 ms repeating timer on the same context while all are pending, 50 "
            + "deadlines. `cancel()` and release: as above, for the whole population.",
        "",
        "| timer | pending | create | heap | RSS | probe median / max lateness | `cancel()` | release | "
            + "B left per timer |",
        "|---|--:|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for result in results.million {
        let probe = result.probe.map { run -> String in
            let summary = Summary(run.microseconds)
            return "\(format(summary.median)) / \(format(summary.max)) µs"
                + (run.completed ? "" : " (timed out)") + (run.skipped > 0 ? ", \(run.skipped) skipped" : "")
        }
        lines.append(
            "| \(result.kind.isTimerKit ? "**\(result.kind.title)**" : result.kind.title) | "
                + "\(result.count.formatted()) | \(format(result.createSeconds)) s | "
                + "\(format(Double(result.heapBytes) / 1_048_576)) MiB | "
                + "\(format(Double(result.residentBytes) / 1_048_576)) MiB | \(probe ?? "—") | "
                + "\(format(result.cancelSeconds)) s | \(result.releaseSeconds.map { "\(format($0)) s" } ?? "n/a") | "
                + "\(format(result.bytesLeftPerTimer)) |")
    }
    return lines
}

private func targetSection(_ results: Results) -> [String] {
    let passed = results.targets.filter(\.passed).count
    let belowFloor = results.targets.filter(\.limitBelowFloor).count
    var lines = [
        "",
        "### Targets (\(passed) of \(results.targets.count) met"
            + (belowFloor > 0 ? "; \(belowFloor) missed with the limit below the no-timer floor)" : ")"),
        "",
        "| target | context | measured | limit | raw | TimerKit/raw | result |",
        "|---|---|--:|--:|---|--:|---|",
    ]
    for target in results.targets {
        let raw = target.reference.map { "\(format($0)) \(target.unit) (\(target.referenceName ?? "raw"))" } ?? "—"
        let ratio = target.comparesToRaw ? target.reference.map { ratioText(target.measured, $0) } ?? "—" : "—"
        var result = target.passed ? "PASS" : target.limitBelowFloor ? "**MISS** but below floor" : "**MISS**"
        if let floor = target.floor {
            // A limit below the floor cannot be met by any timer: what no timer at all costs, next to it.
            result +=
                " (floor, no timer: \(format(floor)) \(target.unit); TimerKit/floor "
                + "\(ratioText(target.measured, floor)))"
        }
        lines.append(
            "| \(target.target) | \(target.context) | \(format(target.measured)) \(target.unit) | "
                + "\(format(target.limit)) \(target.unit) | \(raw) | \(ratio) | \(result) |")
    }
    if belowFloor > 0 {
        lines.append("")
        lines.append(
            "MISS but below floor: the limit is under what the same task resumes cost with no timer at all (the "
                + "async floor rows above), so no timer can meet it on this machine; compare TimerKit/floor.")
    }
    return lines
}

// MARK: Formatting

/// A number for tables: thousands separated, two significant decimals below 10.
func format(_ value: Double) -> String {
    guard value.isFinite else { return "—" }
    if value < 0 { return "−" + format(-value) }
    let magnitude = abs(value)
    if magnitude >= 100 { return Int(value.rounded()).formatted() }
    if magnitude >= 10 { return String(format: "%.1f", value) }
    return String(format: "%.2f", value)
}

/// A signed number: "+3.1", "−12".
func signed(_ value: Double) -> String {
    guard value.isFinite else { return "—" }
    return value < 0 ? format(value) : "+" + format(value)
}

/// "0.52×", or "—" when the reference is not positive or the value is negative (a heap level a hair
/// below where it started is no ratio).
func ratioText(_ value: Double, _ reference: Double) -> String {
    guard reference > 0, value.isFinite, value >= 0 else { return "—" }
    let ratio = value / reference
    return (ratio >= 10 ? String(format: "%.0f", ratio) : String(format: "%.2f", ratio)) + "×"
}

func minutes(_ seconds: Double) -> String {
    let whole = Int(seconds.rounded())
    return "\(whole / 60) min \(whole % 60) s"
}
