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
            for await _ in Ticker.ticks(schedule) {
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
        return startResumeFloor(plan: plan, fires: fires)
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
