import Foundation
import TimerKit

/// Everything one run measured, as written to the JSON file.
struct Results: Codable, Sendable {
    var tool = "timerkit-bench"
    var invocation: Invocation
    var date: String
    var host: Host
    var options: Options
    var runtimeSeconds: Double = 0
    var lateness: [LatenessRun] = []
    /// One 10 ms ticker with and without 2 ms of tolerance, per context (the tolerance section).
    var tolerance: [LatenessRun] = []
    /// The CPU section's timers; the async kinds (tick sequences and the async floor) as their median round
    /// in `asyncRounds`.
    var cpu: [PopulationResult] = []
    /// Tick sequences against the async floor, in rounds, each pair with the same wake-up pattern.
    var asyncRounds: [AsyncRound] = []
    var wakeups: [PopulationResult] = []
    /// The process with no timers at all, over the same window: the harness's own CPU and wake-ups.
    var processFloor: PopulationResult?
    var pending: [PendingResult] = []
    var fired: [FiredResult] = []
    /// One-shots expiring at 50,000 a second, with and without tolerance (the expiry section).
    var expiry: [ExpiryResult] = []
    /// One clock reading and one uncontended lock, through TimerKit and raw (the primitives section).
    var primitives: [PrimitiveResult] = []
    var million: [MillionResult] = []
    var virtual: [VirtualResult] = []
    /// Waiting tick sequences and `Task.sleep` loops cancelled at once, in rounds.
    var cancellation: [CancellationResult] = []
    /// Daily schedules next to continuous one-shots and raw wall-clock sources, a clock set's recompute, and
    /// the two ways to notice a set on Linux (the calendar section).
    var calendar: CalendarResult?
    var targets: [TargetResult] = []

    struct Host: Codable, Sendable {
        var name: String
        var system: String
        var processors: Int
        var cpu: String
        var swift: String

        static func current() -> Host {
            var names = utsname()
            uname(&names)
            func text<T>(_ field: T) -> String {
                withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            }
            let cpuInfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
            let model =
                cpuInfo.split(separator: "\n").first { $0.hasPrefix("model name") }
                .map {
                    $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
                }
                ?? "unknown"
            #if compiler(>=6.4)
                let swift = "6.4 or later"
            #elseif compiler(>=6.3)
                let swift = "6.3"
            #elseif compiler(>=6.2)
                let swift = "6.2"
            #else
                let swift = "6.1"
            #endif
            return Host(
                name: text(names.nodename),
                system: "\(text(names.sysname)) \(text(names.release)) \(text(names.machine))",
                processors: ProcessInfo.processInfo.activeProcessorCount, cpu: model, swift: swift)
        }
    }
}

@main
struct TimerKitBench {
    static func main() {
        let options: Options
        do {
            options = try Options(arguments: Array(CommandLine.arguments.dropFirst()))
        } catch {
            switch error {
            case .help:
                print(Options.usage)
                return
            case .message(let message):
                FileHandle.standardError.write(Data("timerkit-bench: \(message)\n\n\(Options.usage)\n".utf8))
                exit(2)
            }
        }
        let progress = ProgressLog(quiet: options.quiet)
        // The results name their files relative to the repository, as everything else they record.
        var recorded = options
        recorded.jsonPath = RepositoryPaths.current.display(options.jsonPath)
        recorded.svgPath = RepositoryPaths.current.display(options.svgPath)
        var results = Results(
            invocation: .current(), date: ISO8601DateFormatter().string(from: Date()), host: .current(),
            options: recorded)
        progress.setTotal(stepCount(options))
        progress.note(
            "timerkit-bench: \(options.length.rawValue) suite, "
                + options.sections.map(\.rawValue).joined(separator: ", ")
        )
        for section in options.sections {
            switch section {
            case .lateness: results.lateness = runLateness(options, progress)
            case .tolerance: results.tolerance = runTolerance(options, progress)
            case .cpu:
                results.cpu = runCPU(options, progress)
                results.asyncRounds = runAsyncRounds(options, progress)
                results.cpu += AsyncRound.medians(results.asyncRounds)
            case .wakeups:
                results.processFloor = runFloor(options, progress)
                results.wakeups = runWakeups(options, progress)
            case .pending: results.pending = runPending(options, progress)
            case .fired: results.fired = runFired(options, progress)
            case .expiry: results.expiry = runExpiry(options, progress)
            case .primitives:
                progress.step("primitives: clock readings and an uncontended lock, 5 rounds of 1,000,000")
                results.primitives = measurePrimitives()
            case .million: results.million = runMillion(options, progress)
            case .virtual: results.virtual = runVirtual(options, progress)
            case .cancellation: results.cancellation = runCancellation(options, progress)
            case .calendar: results.calendar = runCalendar(options, progress)
            }
        }
        results.runtimeSeconds = progress.elapsedSeconds
        results.targets = evaluateTargets(results)
        print(markdownReport(results))
        fflush(nil)  // the report before the notes on standard error
        write(results, to: options, progress)
    }

    // MARK: Sections

    /// The one-shot sections' kinds, in the order they are measured (the report has its own order). The
    /// task kinds come last: cancelled `Task.sleep` calls leave work behind in the process for a while after
    /// their tasks return, which slowed whatever was measured next (TimerKit .precise's cancel and release
    /// read 3× their figure measured alone).
    static let oneShotKinds: [TimerKind] = [
        .timerKitDispatch, .dispatchSource, .timerKitRunLoop, .foundationTimer, .timerKitPrecise, .timerKitAsync,
        .taskSleep,
    ]
    /// The CPU and wake-up sections' kinds: the one-shot kinds and the async floor (no timer). The CPU
    /// section measures the async kinds in rounds of their own (`runAsyncRounds`).
    static let populationKinds: [TimerKind] = [
        .timerKitDispatch, .dispatchSource, .timerKitRunLoop, .foundationTimer, .timerKitAsync, .taskSleep,
        .resumeFloor, .timerKitPrecise,
    ]

    /// "1,000 timers", or what the async floor has instead.
    static func population(_ kind: TimerKind) -> String {
        kind == .resumeFloor ? "1,000 tasks resumed by a thread" : "1,000 timers"
    }

    static func stepCount(_ options: Options) -> Int {
        options.sections.reduce(0) { total, section in
            total
                + {
                    switch section {
                    // A pair measured side by side is one step.
                    case .lateness:
                        options.rounds * 2
                            * (TimerKind.reportOrder.count
                                - TimerKind.measuredSideBySide.reduce(0) { $0 + $1.count - 1 })
                    case .tolerance: options.rounds * (2 * toleranceKinds.count - toleranceSideBySide.count)
                    case .cpu:
                        populationKinds.count - 2 + asyncRoundCount(options) * AsyncRound.Pattern.allCases.count * 2
                    case .wakeups: populationKinds.count + 1
                    case .pending: oneShotKinds.count + 2  // and the two owner-bound forms
                    case .fired: oneShotKinds.count
                    case .expiry: expiryRuns.count * expiryRounds
                    case .primitives: 1
                    case .million: 2
                    case .virtual: virtualSteps
                    case .cancellation: cancellationRounds(options) * 2
                    case .calendar: calendarSteps
                    }
                }()
        }
    }

    static func runLateness(_ options: Options, _ progress: ProgressLog) -> [LatenessRun] {
        var runs: [LatenessRun] = []
        // A few deadlines of every kind first, discarded: one-time initialisation in the process (the
        // concurrency runtime, dispatch's root queues, TimerKit's statics) is not any run's lateness.
        progress.note("lateness warm-up: 5 deadlines of each kind")
        for kind in TimerKind.reportOrder {
            _ = measureLateness(kind: kind, loaded: false, round: 0, deadlines: 5, interval: .milliseconds(10))
        }
        for round in 1...options.rounds {
            for loaded in [false, true] {
                // Reversed every other round, so that a TimerKit context and its raw counterpart (neighbours
                // in the order) take turns going first: the paired difference carries no order effect.
                let order =
                    round.isMultiple(of: 2)
                    ? Array(TimerKind.measurementOrder.reversed()) : TimerKind.measurementOrder
                var measuredThisRound: Set<TimerKind> = []
                for kind in order where !measuredThisRound.contains(kind) {
                    // A pair measured side by side runs once, in the order's order: the first scheduled
                    // first, so which goes first alternates by round.
                    let pair = TimerKind.measuredSideBySide.first { $0.contains(kind) }
                    let kinds = pair.map { pair in order.filter { pair.contains($0) } } ?? [kind]
                    measuredThisRound.formUnion(kinds)
                    progress.step(
                        "lateness \(loaded ? "load" : "idle") round \(round)/\(options.rounds): "
                            + "\(kinds.map(\.title).joined(separator: " and ")), \(options.deadlines) × 10 ms"
                            + (kinds.count > 1 ? ", side by side" : ""))
                    let measured =
                        kinds.count > 1
                        ? measureLatenessSideBySide(
                            kinds.map { ($0, .zero) }, loaded: loaded, round: round, deadlines: options.deadlines,
                            interval: .milliseconds(10))
                        : [
                            measureLateness(
                                kind: kind, loaded: loaded, round: round, deadlines: options.deadlines,
                                interval: .milliseconds(10))
                        ]
                    for run in measured {
                        let summary = Summary(run.microseconds)
                        progress.note(
                            "    \(run.kind.title): median \(format(summary.median)) µs, p99 \(format(summary.p99)) µs, "
                                + "max \(format(summary.max)) µs, drift \(format(run.driftMicroseconds)) µs, "
                                + "skipped \(run.skipped)"
                                + (run.completed ? "" : " (timed out)"))
                        runs.append(run)
                    }
                    sleep(seconds: 0.1)
                }
            }
        }
        return runs
    }

    /// The contexts of the tolerance section.
    static let toleranceKinds: [TimerKind] = [.timerKitRunLoop, .timerKitDispatch, .timerKitPrecise]
    /// The tolerance section's tolerance on a 10 ms interval.
    static let sectionTolerance: Duration = .milliseconds(2)

    /// The tolerance section's contexts whose two tickers (without and with tolerance) are measured side by
    /// side, each on a context of its own (see `measureLatenessSideBySide`). The precise context is one
    /// shared thread, so its two tickers run back to back, each alone on it.
    static let toleranceSideBySide: Set<TimerKind> = [.timerKitRunLoop, .timerKitDispatch]

    /// One 10 ms ticker per context without tolerance and with 2 ms of it, idle, side by side or back to
    /// back (alternating which goes first): a ticker whose window holds no other deadline must be delivered
    /// at its deadline.
    static func runTolerance(_ options: Options, _ progress: ProgressLog) -> [LatenessRun] {
        var runs: [LatenessRun] = []
        for kind in toleranceKinds {
            _ = measureLateness(kind: kind, loaded: false, round: 0, deadlines: 5, interval: .milliseconds(10))
        }
        for round in 1...options.rounds {
            for kind in toleranceKinds {
                // Which goes first alternates from round to round, so that the paired difference carries no
                // order effect.
                let tolerances =
                    round.isMultiple(of: 2) ? [sectionTolerance, .zero] : [Duration.zero, sectionTolerance]
                let sideBySide = toleranceSideBySide.contains(kind)
                let groups = sideBySide ? [tolerances] : tolerances.map { [$0] }
                for group in groups {
                    progress.step(
                        "tolerance round \(round)/\(options.rounds): \(kind.title), \(options.deadlines) × 10 ms, "
                            + "tolerance "
                            + group.map { $0 == .zero ? "none" : "2 ms" }.joined(separator: " and ")
                            + (sideBySide ? ", side by side" : ""))
                    let measured =
                        sideBySide
                        ? measureLatenessSideBySide(
                            group.map { (kind, $0) }, loaded: false, round: round, deadlines: options.deadlines,
                            interval: .milliseconds(10))
                        : [
                            measureLateness(
                                kind: kind, loaded: false, round: round, deadlines: options.deadlines,
                                interval: .milliseconds(10), tolerance: group[0])
                        ]
                    for run in measured {
                        let summary = Summary(run.microseconds)
                        progress.note(
                            "    median \(format(summary.median)) µs, p99 \(format(summary.p99)) µs"
                                + (run.completed ? "" : " (timed out)"))
                        runs.append(run)
                    }
                    sleep(seconds: 0.1)
                }
            }
        }
        return runs
    }

    static func runCPU(_ options: Options, _ progress: ProgressLog) -> [PopulationResult] {
        let plan = PopulationPlan(count: 1_000, interval: .milliseconds(100), tolerance: .zero, spread: false)
        return populationKinds.filter { $0 != .timerKitAsync && $0 != .resumeFloor }.map { kind in
            progress.step("CPU: \(kind.title), \(population(kind)) at 10 Hz, \(format(options.window)) s window")
            let result = measurePopulation(kind: kind, plan: plan, settle: options.settle, window: options.window)
            progress.note(
                "    \(format(result.cpuPercent)) % of a core, \(Int(result.firesPerSecond)) fires/s, "
                    + "\(Int(result.voluntarySwitchesPerSecond)) wake-ups/s")
            sleep(seconds: 0.2)
            return result
        }
    }

    /// Rounds of the async comparison: 3 (1 for `--quick`).
    static func asyncRoundCount(_ options: Options) -> Int { options.length == .quick ? 1 : 3 }

    /// Tick sequences and the async floor, in rounds, each measured right next to the floor with the same
    /// wake-up pattern (the order reverses every other round): sequences counting from their own starts
    /// against tasks resumed at their own deadlines, and sequences on one grid against tasks resumed in one
    /// burst. Paired by round, so that the machine's noise moves both neighbours together.
    static func runAsyncRounds(_ options: Options, _ progress: ProgressLog) -> [AsyncRound] {
        let rounds = asyncRoundCount(options)
        // The spread of the latest measured sequences' first deadlines, which the own-deadline floor replays
        // (the first round measures the sequences first).
        var offsets: [Duration]?
        return (1...rounds).map { round in
            var measured: [AsyncRound.Pattern: (sequences: PopulationResult, floor: PopulationResult)] = [:]
            for pattern in AsyncRound.Pattern.allCases {
                var plan = PopulationPlan(count: 1_000, interval: .milliseconds(100), tolerance: .zero, spread: false)
                plan.aligned = pattern == .aligned
                plan.ownDeadlines = pattern == .ownStarts
                let kinds: [TimerKind] =
                    round.isMultiple(of: 2) ? [.resumeFloor, .timerKitAsync] : [.timerKitAsync, .resumeFloor]
                var pair: [TimerKind: PopulationResult] = [:]
                for kind in kinds {
                    progress.step(
                        "CPU round \(round)/\(rounds): \(kind.title), \(population(kind)) at 10 Hz, "
                            + "\(pattern.title), \(format(options.window)) s window")
                    let firstDeadlines = Locked<[ContinuousClock.Instant]>([])
                    plan.firstDeadlines = pattern == .ownStarts ? firstDeadlines : nil
                    plan.deadlineOffsets = offsets
                    let result = measurePopulation(
                        kind: kind, plan: plan, settle: options.settle, window: options.window)
                    let firsts = firstDeadlines.current
                    if kind == .timerKitAsync, pattern == .ownStarts, let earliest = firsts.min() {
                        offsets = firsts.map { earliest.duration(to: $0) }
                        progress.note("    first deadlines spread over \(format(offsets!.max()!.seconds * 1e3)) ms")
                    }
                    progress.note(
                        "    \(format(result.cpuPercent)) % of a core, \(Int(result.firesPerSecond)) fires/s, "
                            + "\(Int(result.voluntarySwitchesPerSecond)) wake-ups/s")
                    pair[kind] = result
                    sleep(seconds: 0.2)
                }
                measured[pattern] = (pair[.timerKitAsync]!, pair[.resumeFloor]!)
            }
            return AsyncRound(
                ownStarts: measured[.ownStarts]!.sequences, ownDeadlineFloor: measured[.ownStarts]!.floor,
                aligned: measured[.aligned]!.sequences, burstFloor: measured[.aligned]!.floor)
        }
    }

    static func runFloor(_ options: Options, _ progress: ProgressLog) -> PopulationResult {
        progress.step("no timers (the harness's own floor), \(format(options.window)) s window")
        let plan = PopulationPlan(count: 0, interval: .seconds(1), tolerance: .zero, spread: false)
        let result = measurePopulation(kind: .dispatchSource, plan: plan, settle: 0.2, window: options.window)
        progress.note(
            "    \(format(result.voluntarySwitchesPerSecond)) wake-ups/s, \(format(result.cpuPercent)) % of a core")
        return result
    }

    static func runWakeups(_ options: Options, _ progress: ProgressLog) -> [PopulationResult] {
        let plan = PopulationPlan(count: 1_000, interval: .seconds(1), tolerance: .milliseconds(100), spread: true)
        return populationKinds.map { kind in
            progress.step(
                "wake-ups: \(kind.title), \(population(kind)) at 1 s, 10 % tolerance, "
                    + "\(format(options.window)) s window")
            let result = measurePopulation(kind: kind, plan: plan, settle: options.settle, window: options.window)
            progress.note(
                "    \(format(result.voluntarySwitchesPerSecond)) wake-ups/s, \(Int(result.firesPerSecond)) fires/s")
            sleep(seconds: 0.2)
            return result
        }
    }

    static func runPending(_ options: Options, _ progress: ProgressLog) -> [PendingResult] {
        let handleOwned = oneShotKinds.map { kind in
            let foundation = kind == .foundationTimer
            let count = foundation ? options.foundationPendingCount : options.pendingCount
            progress.step("pending: \(kind.title), \(count) one-shots due in 60 s")
            let note =
                foundation
                ? "measured at \(count): its cancel is quadratic in the number pending" : ""
            let result = measurePending(kind: kind, count: count, delay: .seconds(60), note: note)
            progress.note(
                "    create \(format(result.createMicrosecondsPerTimer)) µs, cancel() "
                    + "\(format(result.cancelMicrosecondsPerTimer)) µs, release "
                    + "\(result.releaseMicrosecondsPerTimer.map { "\(format($0)) µs" } ?? "n/a"), "
                    + "\(format(result.bytesPerPendingTimer)) B pending, "
                    + "\(format(result.bytesLeftPerTimer)) B left")
            return result
        }
        // The owner-bound forms, on the dispatch context: their records are the same, and a weak
        // reference to an owner makes Swift give the owner a side table, once per owner object.
        let ownerBound = [PendingBinding.ownerEach, .ownerShared].map { binding in
            progress.step(
                "pending: TimerKit .dispatch, \(binding.title), \(options.pendingCount) one-shots due in 60 s")
            let result = measurePending(
                kind: .timerKitDispatch, count: options.pendingCount, delay: .seconds(60), binding: binding)
            progress.note(
                "    create \(format(result.createMicrosecondsPerTimer)) µs, "
                    + "\(format(result.bytesPerPendingTimer)) B pending, \(format(result.bytesLeftPerTimer)) B left")
            return result
        }
        return handleOwned + ownerBound
    }

    static func runFired(_ options: Options, _ progress: ProgressLog) -> [FiredResult] {
        oneShotKinds.map { kind in
            progress.step("fired: \(kind.title), \(options.firedCount) one-shots due in 0.5 s")
            let result = measureFired(kind: kind, count: options.firedCount, delay: .milliseconds(500))
            progress.note(
                "    \(format(result.bytesLeftPerTimer)) B left per timer" + (result.allFired ? "" : " (not all fired)")
            )
            return result
        }
    }

    /// The expiry section's runs, measured in this order each round (kinds and tolerances interleaved,
    /// so that the machine's drift spreads over all of them).
    static let expiryRuns: [(kind: TimerKind, tolerance: Duration)] = [
        (.timerKitDispatch, .zero), (.dispatchSource, .zero), (.timerKitDispatch, .milliseconds(250)),
        (.dispatchSource, .milliseconds(250)),
    ]
    static let expiryRounds = 3

    /// Every run of every round; the report shows each run's median round.
    static func runExpiry(_ options: Options, _ progress: ProgressLog) -> [ExpiryResult] {
        var results: [ExpiryResult] = []
        for round in 1...expiryRounds {
            for run in expiryRuns {
                progress.step(
                    "expiry round \(round): \(run.kind.title), \(options.expiryCount) one-shots over "
                        + "\(options.expiryWindow) s, tolerance \(run.tolerance)")
                let result = measureExpiry(
                    kind: run.kind, count: options.expiryCount, window: .seconds(options.expiryWindow),
                    tolerance: run.tolerance)
                progress.note(
                    "    \(format(result.cpuMicrosecondsPerExpiry)) µs CPU per expiry"
                        + (result.allFired ? "" : " (not all fired)"))
                results.append(result)
            }
        }
        return results
    }

    static func runMillion(_ options: Options, _ progress: ProgressLog) -> [MillionResult] {
        [TimerKind.timerKitDispatch, .dispatchSource].map { kind in
            progress.step("\(options.millionCount) pending one-shots: \(kind.title)")
            return measureMillion(kind: kind, count: options.millionCount, progress: progress)
        }
    }

    // MARK: Output

    /// Writes the JSON and the chart to the paths of `options` (the results hold them repository-relative).
    static func write(_ results: Results, to options: Options, _ progress: ProgressLog) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        do {
            let json = try encoder.encode(results)
            try save(json, to: options.jsonPath)
            progress.note("raw results: \(results.options.jsonPath)")
        } catch {
            progress.note("timerkit-bench: could not write \(results.options.jsonPath): \(error)")
        }
        guard !results.lateness.isEmpty else { return }
        do {
            try save(Data(latenessChart(results).utf8), to: options.svgPath)
            progress.note("lateness chart: \(results.options.svgPath)")
        } catch {
            progress.note("timerkit-bench: could not write \(results.options.svgPath): \(error)")
        }
    }

    static func save(_ data: Data, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }
}
