import BenchSupport
import Dispatch
import Foundation
import TimerKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Many repeating timers of one kind: the schedule of each, for the CPU and wake-up sections.
struct PopulationPlan: Sendable {
    var count: Int
    var interval: Duration
    /// Per-timer tolerance (TimerKit), leeway (dispatch), `tolerance` (Foundation) or sleep tolerance (task).
    var tolerance: Duration
    /// Whether the first deadlines are spread evenly over one interval (else all are one interval away).
    var spread: Bool
    /// Tick sequences only: every sequence's deadlines on one grid, whose first instant is one interval
    /// after the population is started (a sequence whose task starts later takes the grid's next instant);
    /// else one interval after each sequence starts, so the deadlines spread over the time the tasks take
    /// to start.
    var aligned = false
    /// The async floor only: each task resumed at deadlines of its own, instead of in bursts: task *i* at
    /// origin + `deadlineOffsets[i]` + k·interval, the origin being when all tasks have started (the spread
    /// of first deadlines that tick sequences measured just before had); or, without offsets, at its own
    /// start + k·interval.
    var ownDeadlines = false
    var deadlineOffsets: [Duration]?
    /// Tick sequences only: where each sequence records its first tick's deadline.
    var firstDeadlines: Locked<[ContinuousClock.Instant]>?

    /// Delay from creation to timer `index`'s first deadline.
    func firstDelay(_ index: Int) -> Duration {
        spread ? interval * index / count + .milliseconds(1) : interval
    }
}

/// What one population costs the process over a measured window.
struct PopulationResult: Codable, Sendable {
    var kind: TimerKind
    var timers: Int
    var intervalMilliseconds: Double
    var toleranceMilliseconds: Double
    var spread: Bool
    var windowSeconds: Double
    /// User + system CPU time over the window, in % of one core.
    var cpuPercent: Double
    var userPercent: Double
    var systemPercent: Double
    /// Voluntary context switches of the whole process per second (each is a thread going to sleep).
    var voluntarySwitchesPerSecond: Double
    var involuntarySwitchesPerSecond: Double
    /// Handler calls per second over the window (1,000 timers at 10 Hz should make 10,000).
    var firesPerSecond: Double
}

/// Starts `plan` on `kind`, lets it run for `settle` seconds, measures `getrusage` deltas over `window`
/// seconds, and tears everything down.
func measurePopulation(kind: TimerKind, plan: PopulationPlan, settle: Double, window: Double) -> PopulationResult {
    let fires = Locked(0)
    let stop = startPopulation(kind: kind, plan: plan, fires: fires)
    sleep(seconds: settle)
    let firesBefore = fires.current
    let before = ProcessUsage.now()
    sleep(seconds: window)
    let usage = ProcessUsage.now() - before
    let firesDuring = fires.current - firesBefore
    stop()
    let seconds = usage.wallSeconds
    func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
    }
    return PopulationResult(
        kind: kind, timers: plan.count, intervalMilliseconds: milliseconds(plan.interval),
        toleranceMilliseconds: milliseconds(plan.tolerance), spread: plan.spread, windowSeconds: seconds,
        cpuPercent: Double(usage.userNanoseconds + usage.systemNanoseconds) / 1e9 / seconds * 100,
        userPercent: Double(usage.userNanoseconds) / 1e9 / seconds * 100,
        systemPercent: Double(usage.systemNanoseconds) / 1e9 / seconds * 100,
        voluntarySwitchesPerSecond: Double(usage.voluntarySwitches) / seconds,
        involuntarySwitchesPerSecond: Double(usage.involuntarySwitches) / seconds,
        firesPerSecond: Double(firesDuring) / seconds
    )
}

/// Creates the timers; returns the function that stops and releases all of them (and their threads).
private func startPopulation(kind: TimerKind, plan: PopulationPlan, fires: Locked<Int>) -> () -> Void {
    let count = plan.count
    switch kind {
    case .timerKitDispatch:
        let queue = DispatchQueue(label: "bench.population.timerkit.dispatch")
        let stop = startTickers(on: .dispatch(queue), plan: plan, fires: fires)
        return {
            stop()
            queue.sync {}
        }
    case .timerKitPrecise:
        return startTickers(on: .precise, plan: plan, fires: fires)
    case .timerKitRunLoop:
        let thread = RunLoopThread(name: "bench.population.timerkit.runLoop")
        let stop = startTickers(on: .runLoop(thread.handle.loop), plan: plan, fires: fires)
        return {
            stop()
            thread.stop()
        }
    case .timerKitAsync:
        let target = ContinuousClock.now.advanced(by: plan.interval)
        return startTasks(count: count) { index in
            let first = plan.aligned ? delayToGrid(of: target, every: plan.interval) : plan.firstDelay(index)
            let schedule = TickSchedule.every(plan.interval, after: first, tolerance: plan.tolerance)
            var isFirst = true
            for await tick in Ticker.ticks(schedule) {
                if isFirst, let firstDeadlines = plan.firstDeadlines {
                    firstDeadlines.withLock { $0.append(tick.deadline) }
                    isFirst = false
                }
                fires.withLock { $0 += 1 }
            }
        }
    case .dispatchSource:
        let queue = DispatchQueue(label: "bench.population.raw.dispatch")
        var sources: [any DispatchSourceTimer] = []
        sources.reserveCapacity(count)
        let leeway = DispatchTimeInterval.nanoseconds(Int(plan.tolerance.nanoseconds))
        let now = DispatchTime.now()
        for index in 0..<count {
            let source = DispatchSource.makeTimerSource(queue: queue)
            source.setEventHandler { fires.withLock { $0 += 1 } }
            source.schedule(
                deadline: now + .nanoseconds(Int(plan.firstDelay(index).nanoseconds)),
                repeating: .nanoseconds(Int(plan.interval.nanoseconds)), leeway: leeway)
            source.activate()
            sources.append(source)
        }
        return {
            sources.forEach { $0.cancel() }
            sources.removeAll()
            queue.sync {}
        }
    case .foundationTimer:
        let thread = RunLoopThread(name: "bench.population.raw.foundation")
        thread.perform { local in
            let now = Date()
            for index in 0..<count {
                let fire = now.addingTimeInterval(plan.firstDelay(index).seconds)
                let timer = Foundation.Timer(fire: fire, interval: plan.interval.seconds, repeats: true) { _ in
                    fires.withLock { $0 += 1 }
                }
                timer.tolerance = plan.tolerance.seconds
                RunLoop.current.add(timer, forMode: .common)
                local.timers.append(timer)
            }
        }
        return { thread.stop() }
    case .taskSleep:
        return startTasks(count: count) { index in
            let clock = ContinuousClock()
            let first = clock.now.advanced(by: plan.firstDelay(index))
            let tolerance: Duration? = plan.tolerance > .zero ? plan.tolerance : nil
            var step = 0
            while true {
                do {
                    try await Task.sleep(
                        until: first.advanced(by: plan.interval * step), tolerance: tolerance, clock: clock)
                } catch {
                    return
                }
                fires.withLock { $0 += 1 }
                step += 1
            }
        }
    case .resumeFloor:
        return plan.ownDeadlines
            ? startOwnDeadlineFloor(plan: plan, fires: fires) : startResumeFloor(plan: plan, fires: fires)
    case .nanosleep, .nanosleepPrecise:
        preconditionFailure("a clock_nanosleep loop serves one timer; it has no population")
    }
}

/// Bursts per interval of the spread resume floor (the wake-up shape: 10 bursts of 100 per second).
let resumeFloorGroups = 10

/// The async floor, no timer at all: `plan.count` tasks, each suspended on an `UnsafeContinuation` and
/// counting a fire each time it is resumed, and a plain thread that resumes them on absolute
/// `clock_nanosleep` deadlines. Unspread, it resumes all of them in one burst every interval; spread, the
/// tasks form `resumeFloorGroups` groups resumed in turn, one burst every `interval / groups`, so each task
/// is still resumed once per interval. Returns the function that stops the thread and ends the tasks.
private func startResumeFloor(plan: PopulationPlan, fires: Locked<Int>) -> () -> Void {
    let groups = plan.spread ? resumeFloorGroups : 1
    let gate = ResumeGate(groups: groups, capacity: plan.count / groups + 1)
    let count = plan.count
    let stopTasks = startTasks(count: count) { index in
        let group = index * groups / count
        while await gate.wait(group: group) {
            fires.withLock { $0 += 1 }
        }
    }
    let burstInterval = plan.interval.nanoseconds / Int64(groups)
    let resumer = JoinableThread(name: "bench.floor.resumer") {
        let start = monotonicNow()
        var burst: Int64 = 1
        repeat {
            let deadline = start + burst * burstInterval
            var spec = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
            while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &spec, nil) == EINTR {}
            burst += 1
        } while gate.resume(group: Int((burst - 2) % Int64(groups)))
    }
    return {
        gate.stop()
        resumer.join()
        stopTasks()
    }
}

/// The async floor with tick sequences' wake-up pattern, no timer: `plan.count` tasks, each suspended on
/// an `UnsafeContinuation`; a plain thread with 1 ns of timer slack (as TimerKit's precise thread) sleeps
/// on absolute `clock_nanosleep` deadlines until the next task's own deadline and resumes every task due
/// by then. Task *i*'s deadlines are origin + `plan.deadlineOffsets[i]` + k·interval (k ≥ 1), the origin
/// being when every task has started: the spread of first deadlines measured on tick sequences, whose
/// starts cost more than these tasks'. Without offsets, each task's own start + k·interval. Returns the
/// function that stops the thread and ends the tasks.
private func startOwnDeadlineFloor(plan: PopulationPlan, fires: Locked<Int>) -> () -> Void {
    let gate = OwnDeadlineGate(count: plan.count)
    let stopTasks = startTasks(count: plan.count) { index in
        gate.started(index)
        while await gate.wait(index) {
            fires.withLock { $0 += 1 }
        }
    }
    let interval = plan.interval.nanoseconds
    let resumer = JoinableThread(name: "bench.floor.resumer") {
        _ = bench_set_timer_slack(1)
        guard var starts = gate.startsOnceAllStarted() else { return }
        if let offsets = plan.deadlineOffsets, !offsets.isEmpty {
            let origin = monotonicNow()
            starts = starts.indices.map { origin + offsets[$0 % offsets.count].nanoseconds }
        }
        let order = starts.indices.sorted { starts[$0] < starts[$1] }
        var step: Int64 = 1
        var running = true
        while running {
            var position = 0
            while running, position < order.count {
                let deadline = starts[order[position]] + step * interval
                var spec = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
                while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &spec, nil) == EINTR {}
                let now = monotonicNow()
                var end = position + 1
                while end < order.count, starts[order[end]] + step * interval <= now { end += 1 }
                running = gate.resume(order[position..<end])
                position = end
            }
            step += 1
        }
    }
    return {
        gate.stop()
        resumer.join()
        stopTasks()
    }
}

/// The tasks of the own-deadline floor: when each started, and its continuation while suspended.
private final class OwnDeadlineGate: Sendable {
    private struct State: Sendable {
        var stopped = false
        var starts: [Int64?]
        var startedCount = 0
        var waiting: [UnsafeContinuation<Bool, Never>?]
        /// Resumed while not suspended (still counting its previous fire): its next wait returns at once.
        var owed: [Bool]
    }

    private let state: Locked<State>

    init(count: Int) {
        state = Locked(
            State(
                starts: Array(repeating: nil, count: count), waiting: Array(repeating: nil, count: count),
                owed: Array(repeating: false, count: count)))
    }

    /// Records that task `index` starts now.
    func started(_ index: Int) {
        let now = monotonicNow()
        state.withLock { state in
            state.starts[index] = now
            state.startedCount += 1
        }
    }

    /// Every task's start, once all have started; nil if the gate stops first.
    func startsOnceAllStarted() -> [Int64]? {
        while true {
            let (starts, stopped) = state.withLock { state in
                (state.startedCount == state.starts.count ? state.starts.compactMap { $0 } : nil, state.stopped)
            }
            if stopped { return nil }
            if let starts { return starts }
            usleep(1_000)
        }
    }

    /// Suspends task `index` until its next deadline (true) or until the gate stops (false).
    func wait(_ index: Int) async -> Bool {
        await withUnsafeContinuation { continuation in
            let now = state.withLock { state -> Bool? in
                if state.stopped { return false }
                if state.owed[index] {
                    state.owed[index] = false
                    return true
                }
                state.waiting[index] = continuation
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }

    /// Resumes the tasks `indices`, back to back on the calling thread. False once stopped.
    func resume(_ indices: ArraySlice<Int>) -> Bool {
        var taken: [UnsafeContinuation<Bool, Never>] = []
        taken.reserveCapacity(indices.count)  // allocated outside the lock
        let stopped = state.withLock { state -> Bool in
            for index in indices {
                if let continuation = state.waiting[index] {
                    state.waiting[index] = nil
                    taken.append(continuation)
                } else {
                    state.owed[index] = true
                }
            }
            return state.stopped
        }
        for continuation in taken { continuation.resume(returning: !stopped) }
        return !stopped
    }

    /// Resumes every waiting task with false; later waits end at once.
    func stop() {
        let taken = state.withLock { state in
            state.stopped = true
            defer { state.waiting = state.waiting.map { _ in nil } }
            return state.waiting.compactMap { $0 }
        }
        for continuation in taken { continuation.resume(returning: false) }
    }
}

/// Continuations of suspended tasks, in groups, for the resume floor.
private final class ResumeGate: Sendable {
    private struct State: Sendable {
        var stopped = false
        var waiting: [[UnsafeContinuation<Bool, Never>]]
    }

    private let state: Locked<State>
    private let capacity: Int

    init(groups: Int, capacity: Int) {
        self.capacity = capacity
        state = Locked(State(waiting: Array(repeating: [], count: groups)))
        state.withLock { state in
            for group in state.waiting.indices { state.waiting[group].reserveCapacity(capacity) }
        }
    }

    /// Suspends the calling task until its group's next burst (true) or until the gate stops (false).
    func wait(group: Int) async -> Bool {
        await withUnsafeContinuation { continuation in
            let stopped = state.withLock { state -> Bool in
                guard !state.stopped else { return true }
                state.waiting[group].append(continuation)
                return false
            }
            if stopped { continuation.resume(returning: false) }
        }
    }

    /// Resumes every task waiting in `group`, back to back on the calling thread. False once stopped.
    func resume(group: Int) -> Bool {
        var fresh: [UnsafeContinuation<Bool, Never>] = []
        fresh.reserveCapacity(capacity)  // allocated outside the lock
        let (taken, stopped) = state.withLock { state -> ([UnsafeContinuation<Bool, Never>], Bool) in
            let taken = state.waiting[group]
            state.waiting[group] = fresh
            return (taken, state.stopped)
        }
        for continuation in taken { continuation.resume(returning: !stopped) }
        return !stopped
    }

    /// Resumes every waiting task with false; later waits end at once.
    func stop() {
        let taken = state.withLock { state in
            state.stopped = true
            defer { state.waiting = state.waiting.map { _ in [] } }
            return state.waiting.flatMap { $0 }
        }
        for continuation in taken { continuation.resume(returning: false) }
    }
}

/// Handle-owned repeating tickers on one context; the returned function cancels and releases them.
private func startTickers(on context: TickerContext, plan: PopulationPlan, fires: Locked<Int>) -> () -> Void {
    var tickers: [Ticker] = []
    tickers.reserveCapacity(plan.count)
    for index in 0..<plan.count {
        let schedule = TickSchedule.every(plan.interval, after: plan.firstDelay(index), tolerance: plan.tolerance)
        tickers.append(Ticker.schedule(schedule, on: context) { _ in fires.withLock { $0 += 1 } })
    }
    return {
        tickers.forEach { $0.cancel() }
        tickers.removeAll()
    }
}

/// `count` detached tasks running `body(index)`; the returned function cancels them and waits until all
/// have returned.
/// The delay from now to the first instant of the grid `origin + k·interval` (k ≥ 0) that has not
/// passed: a task that starts after `origin` (a loaded machine may take longer than an interval to start
/// them all) still shares the others' deadlines, and never gets a negative delay.
private func delayToGrid(of origin: ContinuousClock.Instant, every interval: Duration) -> Duration {
    let behind = origin.duration(to: ContinuousClock.now).nanoseconds
    guard behind > 0 else { return .nanoseconds(-behind) }
    return .nanoseconds(interval.nanoseconds - behind % interval.nanoseconds)
}

private func startTasks(count: Int, _ body: @escaping @Sendable (Int) async -> Void) -> () -> Void {
    let ended = DispatchSemaphore(value: 0)
    var tasks: [Task<Void, Never>] = []
    tasks.reserveCapacity(count)
    for index in 0..<count {
        tasks.append(
            Task.detached {
                await body(index)
                ended.signal()
            })
    }
    return {
        tasks.forEach { $0.cancel() }
        for _ in 0..<count { ended.wait() }
        tasks.removeAll()
    }
}

extension Duration {
    /// Whole nanoseconds (the durations here are far below the 292-year limit).
    var nanoseconds: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }

    /// Seconds as a `Double`.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}

/// One round of the async CPU comparison: tick sequences and the async floor with the same wake-up
/// pattern, each pair measured side by side.
struct AsyncRound: Codable, Sendable {
    /// A wake-up pattern of the comparison.
    enum Pattern: CaseIterable, Sendable {
        /// Each sequence counts from its own start (the tasks' starts spread their deadlines over a few
        /// milliseconds); the floor resumes each task at its own deadline.
        case ownStarts
        /// Every sequence's deadlines on one grid; the floor resumes all tasks in one burst.
        case aligned

        var title: String {
            switch self {
            case .ownStarts: "each from its own start"
            case .aligned: "deadlines aligned"
            }
        }
    }

    var ownStarts: PopulationResult
    var ownDeadlineFloor: PopulationResult
    var aligned: PopulationResult
    var burstFloor: PopulationResult

    /// The sequences and the floor of `pattern`.
    func pair(_ pattern: Pattern) -> (sequences: PopulationResult, floor: PopulationResult) {
        switch pattern {
        case .ownStarts: (ownStarts, ownDeadlineFloor)
        case .aligned: (aligned, burstFloor)
        }
    }

    /// Sequences' CPU / the floor's in this round.
    func ratio(_ pattern: Pattern) -> Double {
        let (sequences, floor) = pair(pattern)
        return floor.cpuPercent > 0 ? sequences.cpuPercent / floor.cpuPercent : .infinity
    }

    /// The round whose `pattern` ratio is the median of `rounds` (the lower middle one for an even count).
    static func medianRound(_ rounds: [AsyncRound], _ pattern: Pattern) -> AsyncRound? {
        let sorted = rounds.sorted { $0.ratio(pattern) < $1.ratio(pattern) }
        return sorted.isEmpty ? nil : sorted[(sorted.count - 1) / 2]
    }

    /// The CPU table's async rows: the sequences counting from their own starts and their floor, from the
    /// median round.
    static func medians(_ rounds: [AsyncRound]) -> [PopulationResult] {
        guard let round = medianRound(rounds, .ownStarts) else { return [] }
        return [round.ownStarts, round.ownDeadlineFloor]
    }

    /// The rounds' ratios for `pattern`: median (the mean of the two middle ones for an even count), least and
    /// greatest.
    static func ratios(_ rounds: [AsyncRound], _ pattern: Pattern) -> (
        median: Double, minimum: Double, maximum: Double
    )? {
        let values = rounds.map { $0.ratio(pattern) }.sorted()
        guard let minimum = values.first, let maximum = values.last else { return nil }
        let middle = values.count / 2
        let median = values.count.isMultiple(of: 2) ? (values[middle - 1] + values[middle]) / 2 : values[middle]
        return (median, minimum, maximum)
    }
}
