import BenchSupport
import Dispatch
import Foundation
import TimerKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Collects the lateness of one repeating timer's fires against `start + k·interval`.
///
/// A fire is measured against the deadline it stands for: the one the timer names when it says (TimerKit's
/// `Tick.index`), else the latest deadline that has passed; the deadlines it jumped over are counted as
/// skipped. A fire that comes before the next deadline is early for it when less than half an interval
/// before it (negative lateness), and otherwise a second fire for a deadline already counted (the timer
/// took the previous fire for an earlier deadline than the harness did): measuring it against the next
/// deadline would make every later fire look an interval early. Recording stops at deadline `deadlines`.
final class LatenessRecorder: Sendable {
    private struct State: Sendable {
        var start: Int64 = 0
        var next = 1
        var samples: [Int64] = []
        var reported: [Int64] = []
        var skipped = 0
        var done = false
    }

    let interval: Int64
    let deadlines: Int
    private let state = Locked(State())
    private let finished = DispatchSemaphore(value: 0)

    init(interval: Int64, deadlines: Int) {
        self.interval = interval
        self.deadlines = deadlines
        state.withLock { $0.samples.reserveCapacity(deadlines) }
    }

    /// Sets the instant deadlines count from: read right before the timer is scheduled.
    func begin(at start: Int64) {
        state.withLock { $0.start = start }
    }

    /// The instant deadlines count from.
    var start: Int64 { state.withLock { $0.start } }

    /// Records a fire read at `now`. Returns the next deadline index to wait for, or nil once the last
    /// deadline has been recorded (fires after that are ignored). `index` is the deadline the timer says
    /// the fire stands for (TimerKit's `Tick.index`). `deadline`, when given, is that deadline as the
    /// timer computed it from the start it read itself (TimerKit's `Tick.deadline`): the fire is then
    /// measured against it — the start read next to the API's own "now", as for the raw timers, whose
    /// deadlines the harness passes in — and its lateness from the harness's start is kept beside it.
    @discardableResult
    func record(_ now: Int64, index stated: Int? = nil, deadline: Int64? = nil) -> Int? {
        let (next, justFinished) = state.withLock { state -> (Int?, Bool) in
            guard !state.done else { return (nil, false) }
            let elapsed = now - state.start
            let passed = elapsed >= 0 ? Int(elapsed / interval) : 0
            let index: Int
            if let stated {
                index = stated
            } else if passed >= state.next {
                index = passed
            } else if Int64(state.next) * interval - elapsed < interval / 2 {
                index = state.next
            } else {
                index = max(1, passed)
            }
            let fromHarnessStart = now - (state.start + Int64(index) * interval)
            if let deadline {
                state.samples.append(now - deadline)
                state.reported.append(fromHarnessStart)
            } else {
                state.samples.append(fromHarnessStart)
            }
            state.skipped += max(0, index - state.next)
            state.next = max(state.next, index + 1)
            if index >= deadlines {
                state.done = true
                return (nil, true)
            }
            return (state.next, false)
        }
        if justFinished { finished.signal() }
        return next
    }

    /// Waits for the last deadline; false on timeout (twice the schedule plus five seconds).
    func waitUntilDone() -> Bool {
        let budget = Double(interval) * Double(deadlines) * 2 / 1e9 + 5
        return finished.wait(timeout: .now() + budget) == .success
    }

    /// The recorded fires.
    func result(kind: TimerKind, loaded: Bool, round: Int, completed: Bool) -> LatenessRun {
        let state = state.current
        return LatenessRun(
            kind: kind, loaded: loaded, round: round, completed: completed, deadlines: deadlines,
            intervalNanoseconds: interval, latenessNanoseconds: state.samples,
            reportedLatenessNanoseconds: state.reported.isEmpty ? nil : state.reported, skipped: state.skipped)
    }
}

/// One lateness measurement: every fire's lateness in nanoseconds, in fire order.
struct LatenessRun: Codable, Sendable {
    var kind: TimerKind
    var loaded: Bool
    var round: Int
    var completed: Bool
    var deadlines: Int
    var intervalNanoseconds: Int64
    /// The schedule's tolerance (TimerKit tickers of the tolerance section; absent elsewhere).
    var toleranceNanoseconds: Int64?
    var latenessNanoseconds: [Int64]
    /// TimerKit kinds only: the same fires measured from the start the harness read right before the
    /// schedule call (the judged figures count from the start TimerKit read inside it).
    var reportedLatenessNanoseconds: [Int64]?
    var skipped: Int
    /// TimerKit kinds with a thread of their own (precise: `TimerKit.precise`; dispatch on Linux:
    /// `TimerKit.queue`; ticks: `TimerKit.ticks`): what the scheduler did to it during the measurement.
    var thread: ThreadSchedule?

    var microseconds: [Double] { latenessNanoseconds.map { Double($0) / 1_000 } }

    /// Lateness of the last fire minus the median, µs (the drift).
    var driftMicroseconds: Double {
        guard let last = latenessNanoseconds.last else { return .nan }
        return Double(last) / 1_000 - medianOf(microseconds)
    }

    /// Median of the last third of the fires minus the median of the middle third, µs: the drift check.
    /// Accumulating drift grows it by a third of the run; one noisy last fire cannot fail it, and the first
    /// third absorbs any warm-up.
    var trendMicroseconds: Double {
        let values = microseconds
        let third = values.count / 3
        guard third > 0 else { return .nan }
        return medianOf(Array(values.suffix(third))) - medianOf(Array(values[third..<(2 * third)]))
    }
}

/// Measures one repeating timer of `kind` for `deadlines` deadlines of `interval`, optionally with one
/// spinning thread, and tears everything down before returning. With `turn` (measured side by side with
/// other timers), the timer is set up first and scheduled at its turn's instant, and torn down once all of
/// them are done; `spinning` false leaves the load to the caller (`loaded` then only labels the run).
func measureLateness(
    kind: TimerKind, loaded: Bool, round: Int, deadlines: Int, interval: Duration, tolerance: Duration = .zero,
    turn: SideBySideTurn? = nil, spinning: Bool = true
) -> LatenessRun {
    let intervalNanoseconds =
        Int64(interval.components.seconds) * 1_000_000_000
        + interval.components.attoseconds / 1_000_000_000
    let recorder = LatenessRecorder(interval: intervalNanoseconds, deadlines: deadlines)
    let spinner = loaded && spinning ? Spinner() : nil
    defer { spinner?.stop() }
    // Lets the spinner reach its core before the first deadline.
    if spinner != nil { sleep(seconds: 0.05) }
    let completed: Bool
    var threadSchedule: ThreadSchedule?
    switch kind {
    case .timerKitDispatch:
        let queue = DispatchQueue(label: "bench.timerkit.dispatch")
        completed = latenessOfTicker(
            on: .dispatch(queue, leeway: .zero, strict: true), interval, tolerance: tolerance, recorder,
            thread: "TimerKit.queue", turn: turn, schedule: &threadSchedule)
        queue.sync {}
    case .timerKitPrecise:
        completed = latenessOfTicker(
            on: .precise, interval, tolerance: tolerance, recorder, thread: "TimerKit.precis", turn: turn,
            schedule: &threadSchedule)
    case .timerKitRunLoop:
        let thread = RunLoopThread(name: "bench.timerkit.runLoop")
        completed = latenessOfTicker(
            on: .runLoop(thread.handle.loop), interval, tolerance: tolerance, recorder, thread: "bench.timerkit.",
            turn: turn, schedule: &threadSchedule)
        thread.stop()
    case .timerKitAsync:
        completed = latenessOfTask(recorder, turn: turn) {
            recorder.begin(at: monotonicNow())
            for await tick in Ticker.ticks(.every(interval)) {
                // The tick's deadline is on ContinuousClock: read that clock too, then convert the lateness.
                let late = tick.deadline.duration(to: ContinuousClock.now)
                let now = monotonicNow()
                let (seconds, attoseconds) = late.components
                let deadline = now - (seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
                if recorder.record(now, index: tick.index, deadline: deadline) == nil { break }
            }
        }
    case .dispatchSource:
        let queue = DispatchQueue(label: "bench.raw.dispatch")
        let source = DispatchSource.makeTimerSource(flags: .strict, queue: queue)
        source.setEventHandler { recorder.record(monotonicNow()) }
        turn?.waitForStart()
        let start = monotonicNow()
        recorder.begin(at: start)
        // DispatchTime's uptime clock is CLOCK_MONOTONIC on Linux: the first deadline is start + interval.
        source.schedule(
            deadline: DispatchTime(uptimeNanoseconds: UInt64(start + intervalNanoseconds)),
            repeating: .nanoseconds(Int(intervalNanoseconds)), leeway: .nanoseconds(0))
        source.activate()
        completed = recorder.waitUntilDone()
        turn?.waitForFinish()
        source.cancel()
        queue.sync {}
    case .foundationTimer:
        let thread = RunLoopThread(name: "bench.raw.foundation")
        turn?.waitForStart()
        thread.perform { local in
            let start = monotonicNow()
            recorder.begin(at: start)
            let firstFire = Date(timeIntervalSinceNow: Double(start + intervalNanoseconds - monotonicNow()) / 1e9)
            let timer = Foundation.Timer(fire: firstFire, interval: Double(intervalNanoseconds) / 1e9, repeats: true) {
                _ in
                recorder.record(monotonicNow())
            }
            RunLoop.current.add(timer, forMode: .common)
            local.timers.append(timer)
        }
        completed = recorder.waitUntilDone()
        turn?.waitForFinish()
        thread.stop()  // invalidates the timer on its thread
    case .taskSleep:
        completed = latenessOfTask(recorder, turn: turn) {
            let clock = ContinuousClock()
            recorder.begin(at: monotonicNow())
            let origin = clock.now
            var next = 1
            while true {
                do {
                    try await Task.sleep(until: origin.advanced(by: interval * next), clock: clock)
                } catch {
                    return
                }
                guard let following = recorder.record(monotonicNow()) else { return }
                next = following
            }
        }
    case .nanosleep, .nanosleepPrecise:
        let precise = kind == .nanosleepPrecise
        turn?.waitForStart()
        let thread = JoinableThread(name: "bench.raw.nanosleep") {
            if precise { _ = bench_set_timer_slack(1) }
            let start = monotonicNow()
            recorder.begin(at: start)
            var next = 1
            while true {
                let deadline = start + Int64(next) * intervalNanoseconds
                var spec = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
                while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &spec, nil) == EINTR {}
                guard let following = recorder.record(monotonicNow()) else { return }
                next = following
            }
        }
        completed = recorder.waitUntilDone()
        turn?.waitForFinish()
        thread.join()
    case .resumeFloor:
        preconditionFailure("the async floor is not a timer; it has no lateness")
    }
    var run = recorder.result(kind: kind, loaded: loaded, round: round, completed: completed)
    run.thread = threadSchedule
    if tolerance > .zero {
        run.toleranceNanoseconds =
            tolerance.components.seconds * 1_000_000_000 + tolerance.components.attoseconds / 1_000_000_000
    }
    return run
}

/// A handle-owned repeating ticker on `context`; cancelled once the recorder has its deadlines.
///
/// The first ticker on a context creates its engine (and dispatch source or thread) before it reads its
/// start, which shifts that ticker's whole schedule by the creation time: a one-time cost, not lateness.
/// So the context is warmed up first with a one-shot that fires, and an idle ticker keeps its engine alive
/// (dispatch engines live only while they have tickers) until the measurement ends.
private func latenessOfTicker(
    on context: TickerContext, _ interval: Duration, tolerance: Duration, _ recorder: LatenessRecorder,
    thread prefix: String, turn: SideBySideTurn? = nil, schedule: inout ThreadSchedule?
) -> Bool {
    let keeper = Ticker.schedule(.after(.seconds(3_600)), on: context, startsImmediately: false) { _ in }
    let warmed = DispatchSemaphore(value: 0)
    let warmUp = Ticker.schedule(.after(.zero), on: context) { _ in warmed.signal() }
    _ = warmed.wait(timeout: .now() + 5)
    warmUp.cancel()
    defer { keeper.cancel() }
    turn?.waitForStart()
    let before = ThreadSchedule.now(namePrefix: prefix)
    recorder.begin(at: monotonicNow())
    let ticker = Ticker.schedule(.every(interval, tolerance: tolerance), on: context) { tick in
        recorder.record(monotonicNow(), index: tick.index, deadline: tick.deadline.nanoseconds)
    }
    let completed = recorder.waitUntilDone()
    turn?.waitForFinish()
    ticker.cancel()
    if let before, let after = ThreadSchedule.now(namePrefix: prefix) { schedule = after - before }
    return completed
}

/// Measures `timers` (each a kind and its tolerance) at once, each on a thread of its own, for
/// `deadlines` deadlines of `interval`: once all are set up, the first timer is scheduled, and each next
/// one a fraction of the interval later (`interval / timers.count`), so that their fires take turns and
/// never meet, and all see the machine over the same seconds; none is torn down before all are done.
/// Loaded, one spinning thread runs for all of them. Returns the runs in the order of `timers`.
func measureLatenessSideBySide(
    _ timers: [(kind: TimerKind, tolerance: Duration)], loaded: Bool, round: Int, deadlines: Int,
    interval: Duration
) -> [LatenessRun] {
    let spinner = loaded ? Spinner() : nil
    defer { spinner?.stop() }
    if loaded { sleep(seconds: 0.05) }
    let step = interval.nanoseconds / Int64(timers.count)
    let start = Rendezvous(count: timers.count)
    let finish = Rendezvous(count: timers.count)
    let runs = Locked<[Int: LatenessRun]>([:])
    let threads = timers.enumerated().map { position, timer in
        JoinableThread(name: "bench.pair.\(position)") {
            let turn = SideBySideTurn(start: start, finish: finish, offset: Int64(position) * step)
            let run = measureLateness(
                kind: timer.kind, loaded: loaded, round: round, deadlines: deadlines, interval: interval,
                tolerance: timer.tolerance, turn: turn, spinning: false)
            runs.withLock { $0[position] = run }
        }
    }
    threads.forEach { $0.join() }
    let measured = runs.current
    return timers.indices.map { measured[$0]! }
}

/// One timer's place among timers measured side by side (see `measureLatenessSideBySide`).
struct SideBySideTurn: Sendable {
    let start: Rendezvous
    let finish: Rendezvous
    /// How long after the common start instant this timer is scheduled, in nanoseconds.
    let offset: Int64

    /// Waits until every timer is set up, then until this timer's instant: 1 ms after the last one was
    /// ready, plus the offset.
    func waitForStart() {
        sleep(until: start.meet() + 1_000_000 + offset)
    }

    /// Waits until every timer has recorded its last deadline, so that no teardown runs during another's
    /// measurement.
    func waitForFinish() {
        _ = finish.meet()
    }
}

/// Runs `body` in a detached task, waits for the recorder, then cancels the task and waits for it to end.
private func latenessOfTask(
    _ recorder: LatenessRecorder, turn: SideBySideTurn?, _ body: @escaping @Sendable () async -> Void
) -> Bool {
    turn?.waitForStart()
    let ended = DispatchSemaphore(value: 0)
    let task = Task.detached {
        await body()
        ended.signal()
    }
    let completed = recorder.waitUntilDone()
    turn?.waitForFinish()
    task.cancel()
    ended.wait()
    return completed
}
