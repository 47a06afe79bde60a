import Foundation
import Testing
import TimerKitTestSupport

@testable import TimerKit

/// A choice of clock (uptime, continuous, a wall-clock date) and tolerance that costs only what
/// coalescing needs — under virtual time, where a delivery's timestamp is exactly its wake-up's instant.
@Suite struct ClockAndToleranceTests {
    init() { LogCapture.install() }

    let time = VirtualTime()
    let context = ContractContext.dispatch.context

    // MARK: Schedule math

    /// Countdown ticking at start and schedules at a date. Each check runs on a fresh instance of the suite.
    @Test func dateSchedulesCountFromTheirDate() {
        Self().countdownThatTicksAtStartHasOneMoreDeadlineAtTheStart()
        Self().aScheduleAtADateBecomesADelayFromItsCreation()
        Self().aScheduleAtADateFiresAtThatDateOnVirtualTime()
        Self().startAndRestartOfADateScheduleCountItsDelayFromThen()
        Self().aScheduleAtAPassedDateFiresAtOnce()
    }

    func countdownThatTicksAtStartHasOneMoreDeadlineAtTheStart() {
        let schedule = TickSchedule.countdown(from: 3, every: .seconds(2), ticksAtStart: true)
        #expect(schedule.firstDelay == .zero)
        #expect(schedule.interval == .seconds(2))
        #expect(schedule.count == 4)
        #expect(schedule.adjustments.isEmpty)
        #expect((1...4).map { schedule.times.offset(ofDeadline: $0) } == [0, 2, 4, 6].map { $0 * 1_000_000_000 })
        #expect(TickSchedule.countdown(from: 3).count == 3, "without it, as before")
        #expect(TickSchedule.countdown(from: 0, ticksAtStart: true).count == 1, "one tick, remaining 0, at once")
        let negative = TickSchedule.countdown(from: -2, ticksAtStart: true)
        #expect(negative.count == 0)
        #expect(!negative.adjustments.isEmpty)
        #expect(TickSchedule.countdown(from: .max, ticksAtStart: true).count == .max, "saturates")
        #expect(TickSchedule.countdown(from: 3, clock: .continuous).clock == .continuous)
    }

    func aScheduleAtADateBecomesADelayFromItsCreation() {
        let now = Date(timeIntervalSinceReferenceDate: 1_000)
        let schedule = TickSchedule.at(now.addingTimeInterval(12.5), tolerance: .seconds(1))
        #expect(schedule.clock == .continuous)
        #expect(schedule.count == 1)
        let times = schedule.times(createdAt: now)
        #expect(times.firstDelayNanoseconds == 12_500_000_000)
        #expect(times.toleranceNanoseconds == 1_000_000_000)
        #expect(schedule.times(createdAt: now.addingTimeInterval(20)).firstDelayNanoseconds == 0, "passed: at once")
        #expect(schedule.times(createdAt: now.addingTimeInterval(12)).toleranceNanoseconds == 500_000_000)
        #expect(TickSchedule.at(.distantFuture).times(createdAt: now).firstDelayNanoseconds == .max, "never")
        #expect(!TickSchedule.at(now, tolerance: .seconds(-1)).adjustments.isEmpty)
        #expect(TickSchedule.every(.seconds(1)).clock == .uptime, "uptime unless asked")
    }

    // MARK: Clocks

    @Test
    func continuousTickersRunOnVirtualTimeOnTheirOwnEngine() {
        for kind in ContractContext.allCases {
            Self().continuousTickersRunOnVirtualTimeOnTheirOwnEngine(kind: kind)
        }
    }

    func continuousTickersRunOnVirtualTimeOnTheirOwnEngine(kind: ContractContext) {
        let ticks = Recorder<Tick>()
        let start = time.now
        let (continuous, uptime) = time.run {
            (
                Ticker.schedule(.every(.seconds(1), count: 3, clock: .continuous), on: kind.context) {
                    ticks.append($0)
                },
                Ticker.schedule(.every(.seconds(1)), on: kind.context) { _ in }
            )
        }
        #expect(continuous.clock == .continuous, "kind \(kind)")
        #expect(uptime.clock == .uptime, "kind \(kind)")
        #expect(continuous.snapshot?.schedule.clock == .continuous, "kind \(kind)")
        #expect(continuous.engine !== uptime.engine, "engines are keyed by context and clock; kind \(kind)")
        time.advance(by: .seconds(3))
        #expect(ticks.values.map(\.deadline) == (1...3).map { start.advanced(by: .seconds($0)) }, "kind \(kind)")
        #expect(ticks.values.allSatisfy { $0.lateness == .zero }, "kind \(kind)")
        #expect(continuous.state == .finished, "kind \(kind)")
        uptime.cancel()
    }

    func aScheduleAtADateFiresAtThatDateOnVirtualTime() {
        let ticks = Recorder<Tick>()
        let now = time.run { TickClock.date }
        let ticker = time.run {
            Ticker.schedule(.at(now.addingTimeInterval(90)), on: context) { ticks.append($0) }
        }
        #expect(ticker.clock == .continuous)
        #expect(ticker.timeRemaining == .seconds(90))
        time.advance(by: .seconds(89))
        #expect(ticks.count == 0)
        time.advance(by: .seconds(1))
        #expect(ticks.count == 1)
        #expect(ticks.values.first?.lateness == .zero)
        #expect(ticker.state == .finished)
    }

    func startAndRestartOfADateScheduleCountItsDelayFromThen() {
        // The date became a 90 s delay at creation; an idle ticker started 30 s later, and a ticker
        // restarted, wait those 90 s from then (documented on `TickSchedule.at`).
        let fired = Recorder<TickInstant>()
        let now = time.run { TickClock.date }
        let (idle, restarted) = time.run {
            (
                Ticker.schedule(.at(now.addingTimeInterval(90)), on: context, startsImmediately: false) {
                    fired.append($0.deadline)
                },
                Ticker.schedule(.at(now.addingTimeInterval(90)), on: context) { fired.append($0.deadline) }
            )
        }
        let start = time.now
        time.advance(by: .seconds(30))
        idle.start()
        restarted.restart()
        time.advance(by: .seconds(89))
        #expect(fired.count == 0)
        time.advance(by: .seconds(1))
        #expect(fired.values == [start.advanced(by: .seconds(120)), start.advanced(by: .seconds(120))])
    }

    func aScheduleAtAPassedDateFiresAtOnce() {
        let ticks = Recorder<Tick>()
        let now = time.run { TickClock.date }
        let ticker = time.run {
            Ticker.schedule(.at(now.addingTimeInterval(-30), tolerance: .seconds(1)), on: context) { ticks.append($0) }
        }
        #expect(ticker.snapshot?.schedule.tolerance == .zero, "the tolerance is capped at the delay")
        time.advance(by: .zero)
        #expect(ticks.count == 1)
    }

    @Test func aContinuousTickerFiresOnARealContext() {
        let live = LiveContext(.dispatch)
        defer { live.tearDown() }
        let fired = DispatchSemaphore(value: 0)
        let ticker = Ticker.schedule(.after(.milliseconds(20), clock: .continuous), on: live.context) { _ in
            fired.signal()
        }
        #expect(fired.wait(timeout: .now() + 10) == .success)
        #expect(ticker.state == .finished)
    }

    /// Alarm arming order and the continuous alarm's longest wait. Each check runs on a fresh instance of the suite.
    @Test func alarmsIgnoreStaleArmingsAndBoundTheirWait() {
        Self().anEnginesAlarmIgnoresAnArmingOlderThanOneItTook()
        Self().aSharedAlarmSlotIgnoresAnArmingOlderThanOneItTook()
        Self().aContinuousAlarmNeverWaitsLongerThanItsLongestWait()
    }

    /// Armings land after unlocking, so an older one can land after a newer one: an engine's alarm keeps
    /// the newest (by sequence), so the engine needs no retry loop.
    func anEnginesAlarmIgnoresAnArmingOlderThanOneItTook() {
        let clock = VirtualClock(start: 0)
        let wakes = Locked<Int>.make(0)
        let alarm = clock.makeAlarm { wakes.withLock { $0 += 1 } }
        defer { alarm.shutDown() }
        alarm.arm(at: 200, sequence: 2)
        alarm.arm(at: 100, sequence: 1)
        #expect(clock.nextDeadline() == 200, "the older arming, landing last, is ignored")
        alarm.arm(at: 300, sequence: 2)
        #expect(clock.nextDeadline() == 200, "the same arming, landing twice, is taken once")
        alarm.arm(at: 70, sequence: 3)
        #expect(clock.nextDeadline() == 70, "a newer arming replaces the deadline, earlier or later")
        // Sequences compare by their wrapping difference: after UInt64.max comes 0.
        #expect(EngineArming.isStale(.max, after: 0) && !EngineArming.isStale(0, after: .max))
        clock.run(until: 1_000)
        #expect(wakes.withLock { $0 } == 1)
    }

    /// On a system context, the engine's alarm is its slot of the context's shared alarm, which keeps the
    /// newest arming too.
    func aSharedAlarmSlotIgnoresAnArmingOlderThanOneItTook() {
        let fired = DispatchSemaphore(value: 0)
        let shared = SharedAlarm(context: .dispatch(DispatchQueue(label: "TimerKitTests.staleArming")))
        let slot = shared.slot { fired.signal() }
        defer { slot.shutDown() }
        let now = TimeBase.Source.system.now()
        slot.arm(at: now + 3_600_000_000_000, sequence: 2)
        slot.arm(at: now, sequence: 1)
        #expect(fired.wait(timeout: .now() + 0.3) == .timedOut, "the older arming, landing last, is ignored")
        slot.arm(at: now, sequence: 3)
        #expect(fired.wait(timeout: .now() + 10) == .success)
    }

    func aContinuousAlarmNeverWaitsLongerThanItsLongestWait() {
        let armed = Locked<[Int64]>.make([])
        let alarm = ContinuousAlarm(RecordingAlarm(armed))
        let before = TimeBase.Source.system.now()
        alarm.arm(at: TimeBase.Source.continuousNow() + 3_600_000_000_000, sequence: 1)
        alarm.arm(at: TimeBase.Source.continuousNow() + 5_000_000, sequence: 2)
        alarm.arm(at: .max, sequence: 3)
        let after = TimeBase.Source.system.now()
        let values = armed.withLock { $0 }
        #expect(values.count == 3)
        #expect(values[0] <= after + ContinuousAlarm.longestWait && values[0] >= before + ContinuousAlarm.longestWait)
        #expect(values[1] <= after + 5_000_000 && values[1] >= before)
        #expect(values[2] == .max, "a deadline that is never reached is never woken for")
    }

    @Test func bothClocksOfAConcurrentQueueNeverOverlap() {
        // Each clock has its own engine, but a context has one wake-up source: on a concurrent queue the
        // handlers of both clocks' tickers still run one at a time.
        let queue = DispatchQueue(label: "ClockAndToleranceTests.concurrent", attributes: .concurrent)
        let detector = ConcurrencyStressTests.OverlapDetector()
        let tickers = [TickClock.uptime, .continuous, .uptime, .continuous].map { clock in
            Ticker.schedule(.every(.milliseconds(1), clock: clock), on: .dispatch(queue)) { _ in
                detector.enter()
                Thread.sleep(forTimeInterval: 0.0005)
                detector.leave()
            }
        }
        #expect(eventually { detector.fires >= 100 })
        tickers.forEach { $0.cancel() }
        queue.sync(flags: .barrier) {}
        #expect(detector.overlaps == 0, "handlers of one context overlapped")
    }

    @Test func bothClocksOfAPreciseContextRunOnItsOneThread() {
        let label = "TimerKitTests.clocks.\(UUID().uuidString.prefix(8))"
        let calls = Recorder<(TickClock, String)>()
        let done = DispatchSemaphore(value: 0)
        let tickers = [TickClock.uptime, .continuous].map { clock in
            Ticker.schedule(.every(.milliseconds(2), count: 5, clock: clock), on: .precise(label: label)) { tick in
                let thread = "\(ThreadAlarm.currentThreadName) \(Unmanaged.passUnretained(Thread.current).toOpaque())"
                calls.append((clock, thread))
                if tick.isLast { done.signal() }
            }
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(done.wait(timeout: .now() + 10) == .success)
        // A late delivery may stand for several deadlines (skipped), so count clocks, not calls.
        #expect(Set(calls.values.map(\.0.description)) == ["uptime", "continuous"])
        let threads = Set(calls.values.map(\.1))
        #expect(threads.count == 1, "one thread: \(threads)")
        #expect(threads.first?.hasPrefix(ThreadAlarm.threadName(label)) == true)
        tickers.forEach { $0.cancel() }
    }

    // MARK: Tolerance

    /// How tolerance windows are batched into wake-ups. Each check runs on a fresh instance of the suite.
    @Test func toleranceBatchesAreServedInsideTheirWindows() {
        Self().aLoneTickerWithToleranceIsDeliveredAtItsDeadline()
        Self().aBatchIsServedAtTheLatestDeadlineInsideTheEarliestWindow()
        Self().aDeadlineAddedInsideTheArmedWindowJoinsTheBatch()
        Self().aDeadlineWhoseWindowEndsFirstMovesTheWakeUpEarlier()
        Self().aBatchLargerThanThePlanScanIsStillNeverLateBeyondItsWindows()
        Self().manyEqualDeadlinesArePlannedWithoutScanningThemAll()
    }

    func aLoneTickerWithToleranceIsDeliveredAtItsDeadline() {
        let ticks = Recorder<Tick>()
        let ticker = time.run {
            Ticker.schedule(.every(.milliseconds(200), tolerance: .milliseconds(50)), on: context) { ticks.append($0) }
        }
        // Advancing exactly to each deadline delivers it.
        for _ in 0..<5 { time.advance(by: .milliseconds(200)) }
        #expect(ticks.values.map(\.index) == [1, 2, 3, 4, 5])
        #expect(ticks.values.allSatisfy { $0.lateness == .zero })
        ticker.cancel()
    }

    func aBatchIsServedAtTheLatestDeadlineInsideTheEarliestWindow() {
        // A: 100 ms, window to 150. B: 120 ms, window to 220. C: 140 ms, no tolerance (window ends at 140,
        // the earliest end). D: 145 ms, beyond C's window. One wake-up at 140 ms serves A, B and C; D gets
        // its own at 145 ms.
        let ticks = Recorder<(String, Tick)>()
        let specs: [(String, Int, Int)] = [("A", 100, 50), ("B", 120, 100), ("C", 140, 0), ("D", 145, 0)]
        let tickers = time.run {
            specs.map { name, delay, tolerance in
                Ticker.schedule(.after(.milliseconds(delay), tolerance: .milliseconds(tolerance)), on: context) {
                    ticks.append((name, $0))
                }
            }
        }
        let start = time.now
        #expect(time.advance(by: .milliseconds(140)) == 1)
        #expect(ticks.values.map(\.0).sorted() == ["A", "B", "C"])
        #expect(ticks.values.allSatisfy { $0.1.timestamp == start.advanced(by: .milliseconds(140)) })
        #expect(time.advance(by: .milliseconds(5)) == 1)
        #expect(ticks.values.last?.0 == "D")
        #expect(ticks.values.last?.1.lateness == .zero)
        tickers.forEach { $0.cancel() }
    }

    func aDeadlineAddedInsideTheArmedWindowJoinsTheBatch() {
        // A (100 ms, tolerance 50) is armed for 100 ms; B, made later at 130 ms inside A's window, moves the
        // one wake-up to 130 ms.
        let ticks = Recorder<Tick>()
        let a = time.run {
            Ticker.schedule(.after(.milliseconds(100), tolerance: .milliseconds(50)), on: context) { ticks.append($0) }
        }
        let b = time.run { Ticker.schedule(.after(.milliseconds(130)), on: context) { ticks.append($0) } }
        #expect(time.advance(by: .milliseconds(200)) == 1)
        #expect(ticks.values.map(\.lateness) == [.milliseconds(30), .zero])
        a.cancel()
        b.cancel()
    }

    func aDeadlineWhoseWindowEndsFirstMovesTheWakeUpEarlier() {
        // A (100 ms, tolerance 50) is armed; B at 60 ms without tolerance needs a wake-up before it. At 60 ms
        // only B is due (A's deadline has not come): two wake-ups, both on time.
        let ticks = Recorder<Tick>()
        let a = time.run {
            Ticker.schedule(.after(.milliseconds(100), tolerance: .milliseconds(50)), on: context) { ticks.append($0) }
        }
        let b = time.run { Ticker.schedule(.after(.milliseconds(60)), on: context) { ticks.append($0) } }
        #expect(time.advance(by: .milliseconds(200)) == 2)
        #expect(ticks.values.map(\.lateness) == [.zero, .zero])
        a.cancel()
        b.cancel()
    }

    func aBatchLargerThanThePlanScanIsStillNeverLateBeyondItsWindows() {
        // 3,000 one-shots 1 µs apart, each with 10 ms of tolerance: more than the plan looks at
        // (`TickerStateMachine.planVisitLimit`), so the plan may settle for an earlier wake-up; none may be late
        // beyond its own window, and few wake-ups serve them all.
        let count = 3_000
        let lateness = Recorder<Duration>()
        let tickers = time.run {
            (0..<count).map { offset in
                Ticker.schedule(
                    .after(.microseconds(1_000 + offset), tolerance: .milliseconds(10)), on: context
                ) { lateness.append($0.lateness) }
            }
        }
        let wakes = time.advance(by: .milliseconds(20))
        #expect(lateness.count == count)
        #expect(lateness.values.allSatisfy { $0 >= .zero && $0 <= .milliseconds(10) })
        #expect(wakes <= 4, "\(wakes) wake-ups")
        tickers.forEach { $0.cancel() }
    }

    func manyEqualDeadlinesArePlannedWithoutScanningThemAll() {
        // 20,000 one-shots at one deadline, no tolerance: each new one leaves the armed wake-up alone.
        let fired = Recorder<Int>()
        let tickers = time.run {
            (0..<20_000).map { index in
                Ticker.schedule(.after(.seconds(1)), on: context) { _ in if index % 1_000 == 0 { fired.append(index) } }
            }
        }
        #expect(time.advance(by: .seconds(1)) <= Int(20_000 / TickerEngine.deliveriesPerWake) + 1)
        #expect(fired.count == 20)
        tickers.forEach { $0.cancel() }
    }
}

/// An alarm that records what it is armed for.
private final class RecordingAlarm: EngineAlarm {
    private let armed: Locked<[Int64]>

    init(_ armed: Locked<[Int64]>) {
        self.armed = armed
    }

    func arm(at deadline: Int64, sequence: UInt64) { armed.withLock { $0.append(deadline) } }
    func shutDown() {}
}
