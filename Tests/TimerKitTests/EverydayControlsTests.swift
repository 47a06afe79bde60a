import Foundation
import Testing
import TimerKitTestSupport

@testable import TimerKit

/// `restart()`, `timeRemaining`, `TickClock` and the countdown that ticks at its start, under virtual time
/// (every state's row of restart and timeRemaining is also in LifecycleMatrixTests, and restart is a step
/// of the lifecycle model's random programs).
@Suite struct EverydayControlsTests {
    init() { LogCapture.install() }

    let time = VirtualTime()

    // MARK: restart()

    /// restart() in every situation. Each check runs on a fresh instance of the suite.
    @Test func restartCountsTheScheduleFromNow() {
        Self().restartWhileRunningCountsTheScheduleFromNow()
        Self().restartOfACountdownCountsFromItsFullCountAgain()
        Self().restartOfAOneShotWaitsItsWholeDelayAgain()
        Self().restartKeepsAPendingFire()
        Self().restartFromInsideTheHandlerRestartsExceptAfterTheLastTick()
        Self().restartOfAFinishedTickerDoesNothingAndWarns()
    }

    func restartWhileRunningCountsTheScheduleFromNow() {
        for kind in ContractContext.allCases {
            Self().restartWhileRunningCountsTheScheduleFromNow(kind: kind)
        }
    }

    func restartWhileRunningCountsTheScheduleFromNow(kind: ContractContext) {
        let ticks = Recorder<Tick>()
        let ticker = time.run { Ticker.schedule(.every(.seconds(1)), on: kind.context) { ticks.append($0) } }
        time.advance(by: .milliseconds(1_700))
        let restartedAt = time.now
        ticker.restart()
        #expect(ticker.nextDeadline == restartedAt.advanced(by: .seconds(1)), "kind \(kind)")
        time.advance(by: .seconds(2))
        #expect(ticks.values.map(\.index) == [1, 1, 2], "the index counts from 1 again; kind \(kind)")
        #expect(ticks.values.map(\.fireCount) == [1, 2, 3], "fireCount counts every call; kind \(kind)")
        #expect(
            ticks.values.dropFirst().map(\.deadline) == [1, 2].map { restartedAt.advanced(by: .seconds($0)) },
            "kind \(kind)")
        #expect(ticks.values.allSatisfy { $0.skipped == 0 && $0.lateness == .zero }, "kind \(kind)")
        ticker.cancel()
    }

    func restartOfACountdownCountsFromItsFullCountAgain() {
        let remaining = Recorder<Int?>()
        let ticker = time.run {
            Ticker.schedule(.countdown(from: 3, every: .seconds(1)), on: ContractContext.dispatch.context) {
                remaining.append($0.remaining)
            }
        }
        time.advance(by: .seconds(2))
        ticker.restart()
        time.advance(by: .seconds(10))
        #expect(remaining.values == [2, 1, 2, 1, 0])
        #expect(ticker.state == .finished)
    }

    func restartOfAOneShotWaitsItsWholeDelayAgain() {
        // The "debounce-like" use: each restart pushes the one tick a full delay away.
        let ticks = Recorder<Tick>()
        let ticker = time.run {
            Ticker.schedule(.after(.milliseconds(300)), on: ContractContext.dispatch.context) { ticks.append($0) }
        }
        for _ in 0..<5 {
            time.advance(by: .milliseconds(200))
            ticker.restart()
        }
        #expect(ticks.count == 0)
        let lastRestart = time.now
        time.advance(by: .milliseconds(300))
        #expect(ticks.values.map(\.deadline) == [lastRestart.advanced(by: .milliseconds(300))])
        #expect(ticker.state == .finished)
    }

    func restartKeepsAPendingFire() {
        let ticks = Recorder<Tick>()
        let ticker = time.run {
            Ticker.schedule(.every(.seconds(1)), on: ContractContext.dispatch.context) { ticks.append($0) }
        }
        ticker.fire()
        ticker.restart()
        time.advance(by: .zero)
        #expect(ticks.values.map(\.isManual) == [true])
        ticker.cancel()
    }

    func restartFromInsideTheHandlerRestartsExceptAfterTheLastTick() {
        let ticks = Recorder<Tick>()
        let handle = ContractBox<Ticker>()
        let ticker = time.run {
            Ticker.schedule(.every(.seconds(1), count: 3), on: ContractContext.dispatch.context) { tick in
                ticks.append(tick)
                // Restart once, from the second tick; the last tick's restart finds the ticker finished.
                if tick.fireCount == 2 || tick.isLast { handle.value?.restart() }
            }
        }
        handle.set(ticker)
        time.advance(by: .seconds(10))
        #expect(ticks.values.map(\.index) == [1, 2, 1, 2, 3])
        #expect(ticker.state == .finished)
        handle.set(nil)
    }

    func restartOfAFinishedTickerDoesNothingAndWarns() {
        LogCapture.install()
        let ticks = Recorder<Tick>()
        let ticker = time.run {
            Ticker.schedule(
                .after(.seconds(1)), on: ContractContext.dispatch.context, fileID: "EverydayControls/finished",
                line: 1
            ) { ticks.append($0) }
        }
        time.advance(by: .seconds(1))
        #expect(ticker.state == .finished)
        ticker.restart()
        time.advance(by: .seconds(5))
        #expect(ticks.count == 1)
        #expect(ticker.state == .finished)
        let warnings = LogCapture.take(containing: "EverydayControls/finished:1")
        #expect(warnings.count == (TickerDiagnostics.warnsAboutMistakes ? 1 : 0))
        #expect(warnings.allSatisfy { $0.contains("restart() on the finished ticker") })
    }

    // MARK: timeRemaining

    /// timeRemaining. Each check runs on a fresh instance of the suite.
    @Test func timeRemainingIsExactInEveryState() {
        Self().timeRemainingInEveryState()
        Self().timeRemainingIsZeroWhileADueDeadlineWaitsForItsContext()
    }

    func timeRemainingInEveryState() {
        for kind in ContractContext.allCases {
            Self().timeRemainingInEveryState(kind: kind)
        }
    }

    func timeRemainingInEveryState(kind: ContractContext) {
        let ticker = time.run {
            Ticker.schedule(
                .every(.seconds(1), after: .milliseconds(400), count: 2), on: kind.context, startsImmediately: false
            ) { _ in }
        }
        #expect(ticker.timeRemaining == .milliseconds(400), "idle: the first delay; kind \(kind)")
        time.advance(by: .seconds(3))
        #expect(ticker.timeRemaining == .milliseconds(400), "idle: time does not count; kind \(kind)")
        ticker.start()
        time.advance(by: .milliseconds(150))
        #expect(ticker.timeRemaining == .milliseconds(250), "running: to the next deadline; kind \(kind)")
        ticker.pause()
        time.advance(by: .seconds(7))
        #expect(ticker.timeRemaining == .milliseconds(250), "paused: the time kept at the pause; kind \(kind)")
        #expect(ticker.nextDeadline == nil, "kind \(kind)")
        ticker.resume()
        time.advance(by: .milliseconds(250))
        #expect(ticker.timeRemaining == .seconds(1), "running, just after deadline 1: to deadline 2; kind \(kind)")
        time.advance(by: .seconds(1))
        #expect(ticker.state == .finished, "kind \(kind)")
        #expect(ticker.timeRemaining == nil, "finished; kind \(kind)")
        let cancelled = time.run { Ticker.schedule(.after(.seconds(1)), on: kind.context) { _ in } }
        cancelled.cancel()
        #expect(cancelled.timeRemaining == nil, "cancelled; kind \(kind)")
    }

    func timeRemainingIsZeroWhileADueDeadlineWaitsForItsContext() {
        // A handler that blocks its context for 500 ms from 100 ms: the other ticker's deadline at 200 ms
        // has passed and its delivery waits; meanwhile its time remaining reads zero, never negative.
        let seen = Recorder<Duration?>()
        let other = ContractBox<Ticker>()
        let (staller, ticker) = time.run {
            (
                Ticker.schedule(.after(.milliseconds(100)), on: ContractContext.dispatch.context) {
                    [clock = time.clock] _ in
                    clock.advance(by: .milliseconds(500))
                    seen.append(other.value?.timeRemaining)
                },
                Ticker.schedule(.every(.milliseconds(200)), on: ContractContext.dispatch.context) { _ in }
            )
        }
        other.set(ticker)
        time.advance(by: .seconds(1))
        #expect(seen.values == [.zero])
        ticker.cancel()
        staller.cancel()
        other.set(nil)
    }

    // MARK: Reading now

    /// TickClock readings. Each check runs on a fresh instance of the suite.
    @Test func tickClockReadsTheRightTime() {
        Self().tickClockReadsVirtualTimeInsideRun()
        Self().tickClockNowMatchesTickTimestamps()
        Self().tickClockOutsideVirtualTimeReadsTheSystemClocks()
    }

    func tickClockReadsVirtualTimeInsideRun() {
        let start = time.now
        time.advance(by: .milliseconds(1_234))
        let (uptime, continuous, date) = time.run { (TickClock.uptime.now, TickClock.continuous.now, TickClock.date) }
        #expect(uptime == start.advanced(by: .milliseconds(1_234)))
        #expect(continuous == uptime, "one virtual timeline for both clocks")
        #expect(date == Date(timeIntervalSinceReferenceDate: Double(uptime.nanoseconds) / 1e9))
    }

    func tickClockNowMatchesTickTimestamps() {
        // A stopwatch's lap: the handler's timestamp and the clock read in it are on one timeline.
        let laps = Recorder<(Tick, TickInstant)>()
        let ticker = time.run {
            Ticker.schedule(.every(.milliseconds(250)), on: ContractContext.dispatch.context) { tick in
                laps.append((tick, TickClock.uptime.now))
            }
        }
        time.run { _ = time.advance(by: .seconds(1)) }
        #expect(laps.count == 4)
        #expect(laps.values.allSatisfy { $0.0.timestamp == $0.1 })
        ticker.cancel()
    }

    func tickClockOutsideVirtualTimeReadsTheSystemClocks() {
        let before = DispatchTime.now().uptimeNanoseconds
        let uptime = TickClock.uptime.now
        let after = DispatchTime.now().uptimeNanoseconds
        #expect((Int64(before)...Int64(after)).contains(uptime.nanoseconds))
        let first = TickClock.continuous.now
        let second = TickClock.continuous.now
        #expect(first <= second, "monotonic")
        #expect(first.nanoseconds >= uptime.nanoseconds - 1_000_000, "continuous time includes every uptime")
        let date = TickClock.date
        #expect(abs(date.timeIntervalSinceNow) < 60)
    }

    @Test func tickClockSleepWaitsOnVirtualTime() async throws {
        let woke = Locked<TickInstant?>.make(nil)
        let deadline = time.now.advanced(by: .seconds(5))
        let sleeper = Task { [virtual = time] in
            try await virtual.runAsync { try await TickClock.continuous.sleep(until: deadline) }
            woke.withLock { $0 = virtual.now }
        }
        await waitUntilPending(1)
        time.advance(by: .seconds(4))
        #expect(woke.withLock { $0 } == nil)
        time.advance(by: .seconds(1))
        try await sleeper.value
        #expect(woke.withLock { $0 } == deadline)

        let cancelled = Task { [virtual = time] in
            try await virtual.runAsync { try await TickClock.uptime.sleep(for: .seconds(60)) }
        }
        await waitUntilPending(1)
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
    }

    /// Waits (yielding, bounded) until `count` tickers are live on the virtual time base.
    private func waitUntilPending(_ count: Int) async {
        for _ in 0..<10_000 {
            if time.base.engines().reduce(0, { $0 + $1.liveCount() }) == count { return }
            await Task.yield()
        }
    }

    // MARK: A countdown that ticks at its start

    /// Countdowns that tick at start. Each check runs on a fresh instance of the suite.
    @Test func countdownsThatTickAtStartTickAtOnceAndEndOnTime() {
        Self().countdownTicksAtStartThenEveryIntervalAndEndsOnTime()
        Self().countdownThatTicksAtStartInEveryState()
        Self().restartOfACountdownThatTicksAtStartTicksAtOnce()
    }

    func countdownTicksAtStartThenEveryIntervalAndEndsOnTime() {
        let ticks = Recorder<Tick>()
        let start = time.now
        let ticker = time.run {
            Ticker.schedule(
                .countdown(from: 3, every: .seconds(1), ticksAtStart: true), on: ContractContext.dispatch.context
            ) { ticks.append($0) }
        }
        #expect(ticks.count == 0, "never on the calling thread")
        time.advance(by: .zero)
        #expect(ticks.values.map(\.remaining) == [3])
        time.advance(by: .seconds(5))
        #expect(ticks.values.map(\.remaining) == [3, 2, 1, 0])
        #expect(ticks.values.map(\.deadline) == (0...3).map { start.advanced(by: .seconds($0)) })
        #expect(ticker.state == .finished)
    }

    func countdownThatTicksAtStartInEveryState() {
        let ticks = Recorder<Int?>()
        let schedule = TickSchedule.countdown(from: 2, every: .seconds(1), ticksAtStart: true)
        // Idle: nothing until start(), then the tick at the start at once.
        let idle = time.run {
            Ticker.schedule(schedule, on: ContractContext.dispatch.context, startsImmediately: false) {
                ticks.append($0.remaining)
            }
        }
        #expect(idle.timeRemaining == .zero)
        time.advance(by: .seconds(5))
        #expect(ticks.values.isEmpty)
        idle.start()
        time.advance(by: .zero)
        #expect(ticks.values == [2])
        // Paused before its first tick was served: zero left; resume() delivers it at once.
        idle.pause()
        #expect(idle.timeRemaining == .seconds(1))
        let paused = time.run {
            Ticker.schedule(schedule, on: ContractContext.dispatch.context) {
                ticks.append($0.remaining.map { $0 + 10 })
            }
        }
        paused.pause()
        #expect(paused.timeRemaining == .zero)
        time.advance(by: .seconds(3))
        #expect(ticks.values == [2])
        paused.resume()
        idle.resume()
        time.advance(by: .zero)
        #expect(ticks.values == [2, 12])
        time.advance(by: .seconds(2))
        #expect(ticks.values == [2, 12, 1, 11, 0, 10])
        #expect(idle.state == .finished && paused.state == .finished)
        #expect(idle.timeRemaining == nil && paused.timeRemaining == nil)
    }

    func restartOfACountdownThatTicksAtStartTicksAtOnce() {
        let ticks = Recorder<Int?>()
        let ticker = time.run {
            Ticker.schedule(
                .countdown(from: 60, every: .seconds(1), ticksAtStart: true), on: ContractContext.dispatch.context
            ) { ticks.append($0.remaining) }
        }
        time.advance(by: .milliseconds(2_500))
        ticker.restart()
        time.advance(by: .zero)
        #expect(ticks.values == [60, 59, 58, 60])
        ticker.cancel()
    }
}

extension VirtualTime {
    /// Runs async `body` with this virtual time as the time base.
    func runAsync<T>(_ body: () async throws -> T) async rethrows -> T {
        try await TimeBase.$override.withValue(base, operation: body)
    }
}
