import BenchSupport
import Dispatch
import Foundation
import TimerKit

/// How the pending section's TimerKit one-shots are bound.
enum PendingBinding: String, Codable, Sendable, CaseIterable {
    /// Handle-owned (`Ticker.schedule(_:on:_:)`): the form every kind's row measures.
    case handle
    /// Owner-bound, each ticker to an owner object of its own (`Ticker.schedule(_:on:owner:_:)`): the
    /// first weak reference to an object makes Swift allocate the object's side table, counted here.
    case ownerEach
    /// Owner-bound, every ticker to one owner object.
    case ownerShared

    var title: String {
        switch self {
        case .handle: "handle-owned"
        case .ownerEach: "owner-bound, an owner each"
        case .ownerShared: "owner-bound, one owner"
        }
    }
}

/// Many pending one-shots of one kind: creation and cancellation cost, and heap bytes.
struct PendingResult: Codable, Sendable {
    var kind: TimerKind
    var count: Int
    /// How TimerKit's one-shots were bound; nil (results from before it was measured) and `.handle` are
    /// the handle-owned form.
    var binding: PendingBinding? = nil
    var createMicrosecondsPerTimer: Double
    /// The loop calling `cancel()` on every handle, all handles still held (raw: `cancel()`,
    /// `invalidate()` on the timer's thread, `Task.cancel()`).
    var cancelMicrosecondsPerTimer: Double
    /// Then dropping the array of handles (TimerKit: frees the records and handle objects; dispatch
    /// sources: the harness's references, the sources are freed later on their queue; Foundation timers:
    /// the timer objects, on their thread). Nil for tasks, which free themselves when they return.
    var releaseMicrosecondsPerTimer: Double?
    /// CPU time of the whole process (every thread, `CLOCK_PROCESS_CPUTIME_ID`) from the start of the
    /// cancel loop until the context has settled after the release: it includes the teardown a raw
    /// dispatch source defers to its queue, which the calling-thread figures above leave out. Nil in
    /// results from before it was measured.
    var cancelAndReleaseCPUMicrosecondsPerTimer: Double?
    /// Heap bytes in use while all are pending, per timer (`mallinfo2` `uordblks + hblkhd` delta).
    var bytesPerPendingTimer: Double
    /// Heap bytes still in use after cancel and release, per timer, against the level before creation.
    var bytesLeftPerTimer: Double
    var note: String
}

/// One-shots that all fired: what they leave behind.
struct FiredResult: Codable, Sendable {
    var kind: TimerKind
    var count: Int
    var allFired: Bool
    var bytesLeftPerTimer: Double
}

/// A million pending one-shots: that it runs, and its memory.
struct MillionResult: Codable, Sendable {
    var kind: TimerKind
    var count: Int
    var createSeconds: Double
    /// `cancel()` on every handle, handles still held; then dropping them (as in `PendingResult`).
    var cancelSeconds: Double
    var releaseSeconds: Double?
    var heapBytes: Int64
    var residentBytes: Int64
    var bytesLeftPerTimer: Double
    /// A 10 ms repeating timer on the same context while the million are pending: 50 fires' lateness.
    var probe: LatenessRun?
}

// MARK: Pending

/// Rounds of create, cancel and release timed per kind in the pending section: the report shows the median
/// of each figure, so that one pre-emption on a shared machine does not make the row. Task kinds run one
/// round: cancelled `Task.sleep` calls leave work and memory in the process after their tasks return, and
/// five rounds' worth of it added 1.8 MiB to both kinds' heap in the million section that follows.
let pendingTimingRounds = 5

/// The rounds `kind` runs in the pending section.
func pendingRounds(of kind: TimerKind) -> Int {
    kind == .taskSleep || kind == .timerKitAsync ? 1 : pendingTimingRounds
}

/// `count` one-shots due in `delay` of `kind`: create them, measure, cancel and release them, measure; then
/// more rounds of the same (see `pendingRounds(of:)`), timed only. Times are medians over the rounds; bytes
/// are the first round's.
func measurePending(
    kind: TimerKind, count: Int, delay: Duration, binding: PendingBinding = .handle, note: String = ""
) -> PendingResult {
    let workbench = Workbench(kind: kind, binding: binding)
    defer { workbench.close() }
    workbench.reserve(count)
    workbench.warmUp()
    let before = workbench.settledHeap()
    var pending: Int64 = 0
    var after: Int64 = 0
    var rounds: [(create: Int64, cancel: Int64, release: Int64?, cpu: Int64)] = []
    for round in 0..<pendingRounds(of: kind) {
        let create = workbench.makePending(count: count, delay: delay)
        if round == 0 { pending = mallocInUse() }
        let cpuBefore = processCPUNanoseconds()
        let (cancel, release) = workbench.cancelAll()
        let settled = workbench.settledHeap()
        let cpu = processCPUNanoseconds() - cpuBefore
        if round == 0 { after = settled }
        rounds.append((create, cancel, release, cpu))
    }
    func perTimer(_ nanoseconds: [Int64]) -> Double {
        medianOf(nanoseconds.map(Double.init)) / 1_000 / Double(count)
    }
    let releases = rounds.compactMap(\.release)
    return PendingResult(
        kind: kind, count: count, binding: binding,
        createMicrosecondsPerTimer: perTimer(rounds.map(\.create)),
        cancelMicrosecondsPerTimer: perTimer(rounds.map(\.cancel)),
        releaseMicrosecondsPerTimer: releases.isEmpty ? nil : perTimer(releases),
        cancelAndReleaseCPUMicrosecondsPerTimer: perTimer(rounds.map(\.cpu)),
        bytesPerPendingTimer: Double(pending - before) / Double(count),
        bytesLeftPerTimer: Double(after - before) / Double(count),
        note: note
    )
}

/// `count` one-shots due in `delay` of `kind`: wait until every one has fired, release them (cancelling
/// dispatch sources, as their API requires), and measure what is left.
func measureFired(kind: TimerKind, count: Int, delay: Duration) -> FiredResult {
    let workbench = Workbench(kind: kind)
    defer { workbench.close() }
    workbench.reserve(count)
    workbench.warmUp()
    let before = workbench.settledHeap()
    _ = workbench.makePending(count: count, delay: delay)
    let allFired = workbench.waitForFires(count, timeout: delay.seconds + 20)
    _ = workbench.cancelAll()
    let after = workbench.settledHeap()
    return FiredResult(
        kind: kind, count: count, allFired: allFired, bytesLeftPerTimer: Double(after - before) / Double(count))
}

/// A million (or `count`) pending one-shots due in 10 minutes, with a 10 ms probe ticker on the same
/// context while they are pending.
func measureMillion(kind: TimerKind, count: Int, progress: ProgressLog) -> MillionResult {
    let workbench = Workbench(kind: kind)
    defer { workbench.close() }
    workbench.reserve(count)
    workbench.warmUp()
    _ = bench_malloc_trim()
    let heapBefore = workbench.settledHeap()
    let residentBefore = residentBytes()
    let createNanoseconds = workbench.makePending(count: count, delay: .seconds(600))
    let heap = mallocInUse() - heapBefore
    let resident = residentBytes() - residentBefore
    progress.note(
        "    \(count) pending: \(Int(Double(createNanoseconds) / 1e6)) ms to create, "
            + "heap +\(heap / 1_048_576) MiB, RSS +\(resident / 1_048_576) MiB")
    let probe = workbench.probeLateness(deadlines: 50, interval: .milliseconds(10))
    let (cancelNanoseconds, releaseNanoseconds) = workbench.cancelAll()
    let after = workbench.settledHeap()
    return MillionResult(
        kind: kind, count: count, createSeconds: Double(createNanoseconds) / 1e9,
        cancelSeconds: Double(cancelNanoseconds) / 1e9, releaseSeconds: releaseNanoseconds.map { Double($0) / 1e9 },
        heapBytes: heap, residentBytes: resident,
        bytesLeftPerTimer: Double(after - heapBefore) / Double(count), probe: probe)
}

// MARK: Workbench

// Globals, so that the one-shots' handlers capture nothing: a capturing closure would add its context's
// bytes to every timer's.

/// The owner object of an owner-bound one-shot in the pending section.
private final class PendingOwner: Sendable {}

/// Handler calls of the memory sections' one-shots.
private let oneShotFires = Locked(0)
/// Tasks of the memory sections that have started, and that have returned.
private let tasksStarted = Locked(0)
private let tasksEnded = Locked(0)

/// One kind's timers for the memory sections: creates one-shots, cancels them, and brings the heap to
/// rest before it is read. Lives on the calling thread (the main thread); Foundation timers are made and
/// invalidated on their run loop's thread.
private final class Workbench {
    let kind: TimerKind
    let binding: PendingBinding
    private var queue: DispatchQueue?
    private var loopThread: RunLoopThread?
    private var tickers: [Ticker] = []
    private var sources: [any DispatchSourceTimer] = []
    private var tasks: [Task<Void, Never>] = []
    /// The owners of owner-bound one-shots, made before the heap is first read (their own 16 bytes each
    /// are the harness's, not the tickers'), kept for the whole measurement.
    private var owners: [PendingOwner] = []

    init(kind: TimerKind, binding: PendingBinding = .handle) {
        self.kind = kind
        self.binding = binding
        switch kind {
        case .timerKitDispatch, .dispatchSource:
            queue = DispatchQueue(label: "bench.memory.\(kind.rawValue)")
        case .timerKitRunLoop, .foundationTimer:
            loopThread = RunLoopThread(name: "bench.memory.\(kind.rawValue)")
        default:
            break
        }
    }

    private var context: TickerContext? {
        switch kind {
        case .timerKitDispatch: queue.map { .dispatch($0) }
        case .timerKitRunLoop: loopThread.map { .runLoop($0.handle.loop) }
        case .timerKitPrecise: .precise
        default: nil
        }
    }

    /// Reserves the benchmark's own storage for `count` timers (the arrays holding handles, sources or
    /// tasks), so that it is in place before the heap is first read and not counted as the timers' bytes.
    func reserve(_ count: Int) {
        switch binding {
        case .handle: break
        case .ownerEach: owners = (0..<count).map { _ in PendingOwner() }
        case .ownerShared: owners = [PendingOwner()]
        }
        tickers.reserveCapacity(count)
        sources.reserveCapacity(count)
        tasks.reserveCapacity(count)
        if kind == .foundationTimer {
            loopThread!.perform { local in local.timers.reserveCapacity(count) }
        }
    }

    /// Creates and cancels a few timers first, so that lazily made engines, threads and caches are not
    /// counted as the timers' bytes.
    func warmUp() {
        _ = makePending(count: 16, delay: .seconds(60))
        _ = cancelAll()
        _ = makePending(count: 16, delay: .milliseconds(1))
        _ = waitForFires(16, timeout: 5)
        _ = cancelAll()
        oneShotFires.withLock { $0 = 0 }
    }

    /// Creates `count` one-shots due in `delay`; returns the nanoseconds the creation loop took.
    func makePending(count: Int, delay: Duration) -> Int64 {
        switch kind {
        case .timerKitDispatch, .timerKitRunLoop, .timerKitPrecise:
            let context = context!
            let owners = owners
            let start = monotonicNow()
            if owners.isEmpty {
                for _ in 0..<count {
                    tickers.append(
                        Ticker.schedule(.after(delay), on: context) { _ in oneShotFires.withLock { $0 += 1 } })
                }
            } else {
                // The warm-up's few tickers use the first owners; each measured round, every owner once.
                for index in 0..<count {
                    tickers.append(
                        Ticker.schedule(.after(delay), on: context, owner: owners[index % owners.count]) { _, _ in
                            oneShotFires.withLock { $0 += 1 }
                        })
                }
            }
            return monotonicNow() - start
        case .dispatchSource:
            let queue = queue!
            let start = monotonicNow()
            for _ in 0..<count {
                let source = DispatchSource.makeTimerSource(queue: queue)
                source.setEventHandler { oneShotFires.withLock { $0 += 1 } }
                source.schedule(deadline: .now() + .nanoseconds(Int(delay.nanoseconds)), leeway: .nanoseconds(0))
                source.activate()
                sources.append(source)
            }
            return monotonicNow() - start
        case .foundationTimer:
            return loopThread!.perform { local in
                let start = monotonicNow()
                for _ in 0..<count {
                    let timer = Foundation.Timer(
                        fire: Date(timeIntervalSinceNow: delay.seconds), interval: 0, repeats: false
                    ) { _ in oneShotFires.withLock { $0 += 1 } }
                    RunLoop.current.add(timer, forMode: .common)
                    local.timers.append(timer)
                }
                return monotonicNow() - start
            }
        case .taskSleep, .timerKitAsync:
            let timerKit = kind == .timerKitAsync
            let start = monotonicNow()
            for _ in 0..<count {
                tasks.append(
                    Task.detached {
                        tasksStarted.withLock { $0 += 1 }
                        if timerKit {
                            for await _ in Ticker.ticks(.after(delay)) { oneShotFires.withLock { $0 += 1 } }
                        } else if (try? await Task.sleep(for: delay)) != nil {
                            oneShotFires.withLock { $0 += 1 }
                        }
                        tasksEnded.withLock { $0 += 1 }
                    })
            }
            let elapsed = monotonicNow() - start
            // The bytes of a pending task are there once it has started and suspended.
            waitUntil(timeout: 30) { tasksStarted.current == tasks.count }
            sleep(seconds: 0.05)
            return elapsed
        case .nanosleep, .nanosleepPrecise, .resumeFloor:
            preconditionFailure("not a one-shot timer kind")
        }
    }

    /// Cancels every timer, then releases them: returns the nanoseconds of the cancel loop (every handle
    /// still held) and of dropping the handles (nil for tasks: there is nothing of theirs to drop, a task
    /// frees itself when it returns). Waits for cancelled tasks to return.
    func cancelAll() -> (cancel: Int64, release: Int64?) {
        switch kind {
        case .timerKitDispatch, .timerKitRunLoop, .timerKitPrecise:
            let start = monotonicNow()
            for ticker in tickers { ticker.cancel() }
            let cancelled = monotonicNow()
            tickers.removeAll(keepingCapacity: true)
            return (cancelled - start, monotonicNow() - cancelled)
        case .dispatchSource:
            let start = monotonicNow()
            for source in sources { source.cancel() }
            let cancelled = monotonicNow()
            sources.removeAll(keepingCapacity: true)
            return (cancelled - start, monotonicNow() - cancelled)
        case .foundationTimer:
            return loopThread!.perform { local in
                let start = monotonicNow()
                for timer in local.timers { timer.invalidate() }
                let cancelled = monotonicNow()
                local.timers.removeAll(keepingCapacity: true)
                return (cancelled - start, monotonicNow() - cancelled)
            }
        case .taskSleep, .timerKitAsync:
            let start = monotonicNow()
            for task in tasks { task.cancel() }
            let elapsed = monotonicNow() - start
            let expected = tasks.count
            tasks.removeAll(keepingCapacity: true)
            waitUntil(timeout: 60) { tasksEnded.current >= expected }
            tasksStarted.withLock { $0 = 0 }
            tasksEnded.withLock { $0 = 0 }
            return (elapsed, nil)
        case .nanosleep, .nanosleepPrecise, .resumeFloor:
            preconditionFailure("not a one-shot timer kind")
        }
    }

    /// Waits until `count` handlers have run (false on timeout).
    func waitForFires(_ count: Int, timeout: Double) -> Bool {
        waitUntil(timeout: timeout) { oneShotFires.current >= count }
    }

    /// Drains the context, gives asynchronous releases (dispatch sources are freed after their cancel
    /// handler ran) a moment, and reads the heap.
    func settledHeap() -> Int64 {
        queue?.sync {}
        _ = loopThread?.perform { _ in 0 }
        sleep(seconds: 0.2)
        queue?.sync {}
        return mallocInUse()
    }

    /// A 10 ms repeating timer of this kind's context measured for `deadlines` deadlines (TimerKit and
    /// dispatch kinds only).
    func probeLateness(deadlines: Int, interval: Duration) -> LatenessRun? {
        let recorder = LatenessRecorder(interval: interval.nanoseconds, deadlines: deadlines)
        let completed: Bool
        if let context {
            recorder.begin(at: monotonicNow())
            let probe = Ticker.schedule(.every(interval), on: context) { tick in
                recorder.record(monotonicNow(), index: tick.index, deadline: tick.deadline.nanoseconds)
            }
            completed = recorder.waitUntilDone()
            probe.cancel()
        } else if let queue {
            let source = DispatchSource.makeTimerSource(queue: queue)
            source.setEventHandler { recorder.record(monotonicNow()) }
            let start = monotonicNow()
            recorder.begin(at: start)
            source.schedule(
                deadline: DispatchTime(uptimeNanoseconds: UInt64(start + interval.nanoseconds)),
                repeating: .nanoseconds(Int(interval.nanoseconds)), leeway: .nanoseconds(0))
            source.activate()
            completed = recorder.waitUntilDone()
            source.cancel()
        } else {
            return nil
        }
        return recorder.result(kind: kind, loaded: false, round: 1, completed: completed)
    }

    /// Stops the kind's thread, if any.
    func close() {
        loopThread?.stop()
        loopThread = nil
        queue?.sync {}
    }
}

/// Polls `condition` every millisecond until it holds or `timeout` seconds pass.
@discardableResult
func waitUntil(timeout: Double, _ condition: () -> Bool) -> Bool {
    let deadline = monotonicNow() + Int64(timeout * 1e9)
    while !condition() {
        if monotonicNow() > deadline { return false }
        sleep(seconds: 0.001)
    }
    return true
}
