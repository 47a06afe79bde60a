import Dispatch
import Foundation
import TimerKit

/// Many repeating timers of one kind: the schedule of each, for the CPU and wake-up sections.
struct PopulationPlan: Sendable {
    var count: Int
    var interval: Duration
    /// Per-timer tolerance (TimerKit), leeway (dispatch), `tolerance` (Foundation) or sleep tolerance (task).
    var tolerance: Duration
    /// Whether the first deadlines are spread evenly over one interval (else all are one interval away).
    var spread: Bool

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
        return startTasks(count: count) { index in
            let schedule = TickSchedule.every(plan.interval, after: plan.firstDelay(index), tolerance: plan.tolerance)
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
    case .nanosleep, .nanosleepPrecise:
        preconditionFailure("a clock_nanosleep loop serves one timer; it has no population")
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
