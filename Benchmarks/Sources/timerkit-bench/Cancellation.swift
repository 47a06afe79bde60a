import Dispatch
import Foundation
import TimerKit

/// One measurement of the cancellation section: `count` child tasks of one task group, each waiting in a
/// loop, all cancelled at once by one `cancel()` of the group's task.
struct CancellationResult: Codable, Sendable {
    /// `.timerKitAsync` (`for await` over `Ticker.ticks`) or `.taskSleep` (a loop on `Task.sleep`).
    var kind: TimerKind
    var round: Int
    var count: Int
    /// Milliseconds from the `cancel()` call to the end of each task's loop.
    var milliseconds: Summary
    /// CPU time of the whole process, every thread, from the `cancel()` call until the last loop ended,
    /// per task, in microseconds.
    var cpuMicrosecondsPerTask: Double
}

/// Waiting tasks cancelled at once in each measurement.
let cancellationCount = 10_000
/// A tick sequence's p99 time to end after `cancel()` may be this many times that of the same loops on
/// `Task.sleep`, measured next to it (the median of the rounds' ratios).
let cancellationFactor = 2.0

extension TimerKitBench {
    /// Rounds of the cancellation section: 3 (1 for `--quick`), each measuring both kinds, the order
    /// reversed every other round.
    static func cancellationRounds(_ options: Options) -> Int { options.length == .quick ? 1 : 3 }

    static func runCancellation(_ options: Options, _ progress: ProgressLog) -> [CancellationResult] {
        // One-time initialisation (the concurrency runtime's pool, TimerKit's engine and thread) is nobody's
        // figure.
        for kind in [TimerKind.taskSleep, .timerKitAsync] { _ = measureCancellation(kind: kind, count: 1_000) }
        var results: [CancellationResult] = []
        for round in 1...cancellationRounds(options) {
            let kinds: [TimerKind] =
                round.isMultiple(of: 2) ? [.timerKitAsync, .taskSleep] : [.taskSleep, .timerKitAsync]
            for kind in kinds {
                progress.step(
                    "cancellation round \(round): \(cancellationCount.formatted()) tasks waiting in \(kind.title), "
                        + "cancelled at once")
                let (summary, cpu) = measureCancellation(kind: kind, count: cancellationCount)
                progress.note(
                    "    ended after cancel(): p50 \(format(summary.median)) ms, p99 \(format(summary.p99)) ms, "
                        + "max \(format(summary.max)) ms; \(format(cpu)) µs of CPU per task")
                results.append(
                    CancellationResult(
                        kind: kind, round: round, count: cancellationCount, milliseconds: summary,
                        cpuMicrosecondsPerTask: cpu))
                sleep(seconds: 0.3)
            }
        }
        return results
    }

    /// `count` child tasks of one group, each in a loop that waits 60 s at a time (on a tick sequence or
    /// on `Task.sleep`); once all of them wait, the group's task is cancelled, and each child notes when
    /// its loop ended. Returns those instants as milliseconds after the `cancel()` call, and the process's
    /// CPU time from that call until the last loop ended, per task, in microseconds.
    static func measureCancellation(kind: TimerKind, count: Int) -> (Summary, Double) {
        let ends = InstantSlots(count: count)
        let started = Locked(0)
        let allStarted = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let parent = Task.detached {
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<count {
                    group.addTask {
                        let starting = started.withLock { total -> Int in
                            total += 1
                            return total
                        }
                        if starting == count { allStarted.signal() }
                        if kind == .timerKitAsync {
                            for await _ in Ticker.ticks(.every(.seconds(60))) {}
                        } else {
                            while (try? await Task.sleep(for: .seconds(60))) != nil {}
                        }
                        ends.record(index, monotonicNow())
                    }
                }
                await group.waitForAll()
            }
            done.signal()
        }
        allStarted.wait()
        // Every child has started; with nothing else to do, each reaches its wait well within this.
        sleep(seconds: 0.5)
        let cpu = processCPUNanoseconds()
        let cancelled = monotonicNow()
        parent.cancel()
        done.wait()
        let cpuPerTask = Double(processCPUNanoseconds() - cpu) / 1e3 / Double(count)
        return (Summary(ends.values.map { Double($0 - cancelled) / 1e6 }), cpuPerTask)
    }
}

/// One instant per task, each written by its own task only, read once every task has ended.
private final class InstantSlots: @unchecked Sendable {
    // Invariant: slot `index` is written only by the task given `index`, once, and `values` is read only
    // after every such task has ended (the group's `waitForAll` and a semaphore order the accesses).
    private let base: UnsafeMutablePointer<Int64>
    private let count: Int

    init(count: Int) {
        self.count = count
        base = .allocate(capacity: count)
        base.initialize(repeating: 0, count: count)
    }

    deinit { base.deallocate() }

    func record(_ index: Int, _ instant: Int64) { base[index] = instant }

    var values: [Int64] { Array(UnsafeBufferPointer(start: base, count: count)) }
}

/// The cancellation target: a tick sequence ends about as promptly as `Task.sleep` does.
func cancellationTargets(_ results: Results) -> [TargetResult] {
    let rounds = Set(results.cancellation.map(\.round)).sorted()
    let pairs = rounds.compactMap { round -> (sequences: Double, sleep: Double)? in
        let inRound = results.cancellation.filter { $0.round == round }
        guard let sequences = inRound.first(where: { $0.kind == .timerKitAsync }),
            let sleep = inRound.first(where: { $0.kind == .taskSleep })
        else { return nil }
        return (sequences.milliseconds.p99, sleep.milliseconds.p99)
    }
    guard !pairs.isEmpty else { return [] }
    let ratio = medianOf(pairs.map { $0.sequences / $0.sleep })
    let sequences = medianOf(pairs.map(\.sequences))
    let sleep = medianOf(pairs.map(\.sleep))
    return [
        TargetResult(
            target:
                "\(cancellationCount.formatted()) waiting tick sequences end after cancel() within "
                + "\(format(cancellationFactor))× Task.sleep's p99 (median of \(pairs.count) paired rounds: "
                + "\(ratioText(ratio, 1)))",
            context: "async", measured: sequences, unit: "ms", limit: sleep * cancellationFactor, reference: sleep,
            referenceName: TimerKind.taskSleep.title, passed: ratio <= cancellationFactor)
    ]
}

func cancellationSection(_ results: Results) -> [String] {
    var lines = [
        "",
        "### Cancelling waiting tasks",
        "",
        "\(cancellationCount.formatted()) child tasks of one task group, each waiting in `for await` over "
            + "`Ticker.ticks(.every(.seconds(60)))` or in a loop on `Task.sleep(for: .seconds(60))`, all cancelled "
            + "at once by one `cancel()` of the group's task: when each loop ended, after that call. The two "
            + "kinds alternate, round by round. CPU per task: the whole process's, every thread, from that call "
            + "until the last loop ended, divided by the number of tasks.",
        "",
        "| round | loops on | p50 | p99 | max | CPU per task |",
        "|--:|---|--:|--:|--:|--:|",
    ]
    for result in results.cancellation {
        let summary = result.milliseconds
        lines.append(
            "| \(result.round) | \(result.kind.title) | \(format(summary.median)) ms | \(format(summary.p99)) ms | "
                + "\(format(summary.max)) ms | \(format(result.cpuMicrosecondsPerTask)) µs |")
    }
    return lines
}
