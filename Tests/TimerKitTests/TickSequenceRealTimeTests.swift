import Foundation
import Testing

@testable import TimerKit

/// A tick sequence in real time: one repeating ticker serves the waits of a consumer that keeps up, and a
/// consumer that stops waiting costs no further wake-ups (its ticker stops) until it waits again. Timing
/// only enters through generous bounds: the conditions are polled for seconds. Each test runs on the
/// system time base even while another test has a virtual time installed for the whole process, and its
/// consumer on a thread of its own, so that other tests holding the cooperative pool's threads cannot keep
/// it from waiting in time.
@Suite struct TickSequenceRealTimeTests {
    /// The live tickers created by the `Ticker.ticks` call at `line` of the calling file (read from the tick
    /// sequences' engines only, on both clocks: listing every context could take longer than an interval
    /// while other tests hold many tickers).
    static func tickers(at line: Int, fileID: String = #fileID) -> [TickerSnapshot] {
        [TickClock.uptime, .continuous].flatMap { clock in
            TimeBase.system.engine(for: EngineWait.context, clock: clock).liveSnapshots().filter {
                $0.fileID == fileID && $0.line == line
            }
        }
    }

    /// Runs `body` on the system time base, its nonisolated code on a thread of its own.
    static func inRealTimeOnOwnThread(_ body: () async -> Void) async {
        let executor = ThreadExecutor()
        await TimeBase.$override.withValue(.system) {
            await withTaskExecutorPreference(executor) { await body() }
        }
        executor.stop()
    }

    @Test func oneRepeatingTickerServesAConsumerThatKeepsUp() async {
        await Self.inRealTimeOnOwnThread { await Self.oneRepeatingTickerServesAConsumerThatKeepsUp() }
    }

    static func oneRepeatingTickerServesAConsumerThatKeepsUp() async {
        let line = #line + 1
        let sequence = Ticker.ticks(.every(.milliseconds(100)))
        var tickers = Set<TickInstant>()  // told apart by their creation instant
        var clocks = Set<TickClock>()
        var served = 0  // ticks right after which a ticker was seen running
        var count = 0
        // Unbounded: the ticker can only stop because the loop ends and the iterator goes with it.
        for await _ in sequence {
            count += 1
            let running = Self.tickers(at: line)
            if !running.isEmpty { served += 1 }
            for ticker in running {
                tickers.insert(ticker.createdAt)
                clocks.insert(ticker.schedule.clock)
            }
            if count == 8 { break }
        }
        #expect(count == 8)
        // A consumer that does nothing but wait is away at a deadline (its ticker stops, and the next wait
        // starts another) only when the machine stalls it for a whole interval; one-shot waits would show
        // a new ticker at every tick.
        #expect(
            served >= 2 && tickers.count < served,
            "\(tickers.count) tickers seen after \(served) of \(count) ticks")
        // The default clock (`ContinuousClock`) keeps counting while the device sleeps: so must the ticker.
        #expect(clocks == [.continuous])
        #expect(Self.tickers(at: line).isEmpty, "the ticker stops with the sequence")
    }

    /// The tickers a sequence's waits start at one call site share their creation site, wherever their first
    /// deadline falls on the grid: it is one interval after an origin moved back by the difference, so each
    /// has the same schedule numbers (a ticker with numbers of its own has a site of its own, which each of
    /// its fires reads). Deadlines stay where the waits asked for them.
    @Test func waitTickersOfOneCallSiteShareTheirScheduleNumbers() {
        let times = TickSchedule.every(.seconds(10)).times
        let line = #line + 3
        // Two first delays shorter than the interval (the origin moves back) and one longer (it moves on).
        let delays: [Int64] = [3_000_000_000, 7_000_000_000, 13_000_000_000]
        let engine = TimeBase.system.engine(for: EngineWait.context, clock: .continuous)
        let tickers = delays.map { delay in
            TickWaiter().start(
                index: 1, delay: delay, schedule: times, clock: .continuous, timeBase: .system, engine: engine,
                fileID: #fileID, line: line)
        }
        let snapshots = Self.tickers(at: line)
        #expect(snapshots.count == 3)
        #expect(snapshots.allSatisfy { $0.schedule.firstDelay == .seconds(10) && $0.schedule.interval == .seconds(10) })
        let remaining = tickers.compactMap { engine.timeRemaining($0) }
        #expect(remaining.count == 3)
        for (delay, left) in zip(delays, remaining) {
            let seconds = Duration.nanoseconds(delay)
            #expect(left > seconds - .seconds(1) && left <= seconds, "\(left) left of \(seconds)")
        }
        let deadlines = snapshots.compactMap(\.nextDeadline).sorted()
        #expect(deadlines.count == 3)
        if deadlines.count == 3 {
            // Started a moment apart: at least the seconds between the delays, and not a second more.
            for (gap, expected) in zip(
                [deadlines[0].duration(to: deadlines[1]), deadlines[1].duration(to: deadlines[2])],
                [Duration.seconds(4), .seconds(6)])
            {
                #expect(gap >= expected && gap < expected + .seconds(1), "\(gap)")
            }
        }
        tickers.forEach { engine.cancelAndRelease($0) }
    }

    @Test func aSuspendingClockSequenceIsServedOnTheUptimeClock() async {
        await Self.inRealTimeOnOwnThread {
            let line = #line + 1
            var iterator = Ticker.ticks(.every(.milliseconds(100)), clock: SuspendingClock()).makeAsyncIterator()
            #expect(await iterator.next() != nil)
            let running = Self.tickers(at: line)
            // Seen unless the consumer was stalled for a whole interval right after its tick.
            #expect(!running.isEmpty && running.allSatisfy { $0.schedule.clock == .uptime }, "\(running)")
        }
    }

    @Test func aConsumerThatStopsWaitingStopsItsTickerAndResumesOnTheGrid() async {
        await Self.inRealTimeOnOwnThread { await Self.aConsumerThatStopsWaitingStopsItsTickerAndResumesOnTheGrid() }
    }

    static func aConsumerThatStopsWaitingStopsItsTickerAndResumesOnTheGrid() async {
        let line = #line + 1
        var iterator = Ticker.ticks(.every(Self.interval)).makeAsyncIterator()
        let first = await iterator.next()
        // The first ticker's grid, on the engine's clock: it runs until its next deadline finds the
        // consumer away (an interval from now).
        let grid = Self.tickers(at: line).first
        #expect(first != nil)
        #expect(grid?.nextDeadline != nil, "the first ticker was not seen running")
        // The consumer is away (busy) for as long as it takes the next deadline to find it not waiting.
        var stopped = false
        for _ in 0..<500 where !stopped {
            stopped = Self.tickers(at: line).isEmpty
            if !stopped { try? await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(stopped, "the ticker still runs while nobody waits")
        guard let first, let grid = grid?.nextDeadline else { return }
        // Wait again half-way between two deadlines, so that a ticker restarted a whole interval from now
        // (off the grid) would be half an interval away from it.
        let clock = ContinuousClock()
        let phase = first.deadline.duration(to: clock.now).saturatingNanoseconds % Self.interval.saturatingNanoseconds
        try? await clock.sleep(until: clock.now.advanced(by: Self.interval * 1.5 - .nanoseconds(phase)))
        // The deadline that passed is delivered at once, then the schedule goes on with a new ticker.
        let late = await iterator.next()
        let next = await iterator.next()
        let restarted = Self.tickers(at: line)
        #expect((late?.index ?? 0) >= 2)
        #expect((next?.index ?? 0) > (late?.index ?? .max))
        // The restarted ticker runs until its next deadline finds the consumer away: its next deadline is
        // on the first ticker's grid (within the time between the two clock readings a start takes).
        #expect(restarted.count == 1, "the restarted ticker was not seen running")
        if let deadline = restarted.first?.nextDeadline {
            let offset = (deadline.nanoseconds - grid.nanoseconds) % Self.interval.saturatingNanoseconds
            let distance = min(abs(offset), Self.interval.saturatingNanoseconds - abs(offset))
            #expect(distance < Self.interval.saturatingNanoseconds / 10, "\(distance) ns off the grid")
        }
    }

    /// The interval of the grid test: long enough that the ticker is seen running right after a tick.
    static let interval = Duration.milliseconds(100)
}

/// A task executor that runs its jobs, in order, on one thread of its own until stopped.
final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    // Invariant: `jobs` and `stopped` are read and written only while `condition` is locked.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopped = false

    init() {
        Thread { [self] in run() }.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Ends the thread once the jobs already enqueued have run.
    func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopped { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
