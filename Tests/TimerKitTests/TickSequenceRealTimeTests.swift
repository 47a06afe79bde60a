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
    /// The live tickers created by the `Ticker.ticks` call at `line` of this file (read from the tick
    /// sequences' engine only: listing every context could take longer than an interval while other
    /// tests hold many tickers).
    static func tickers(at line: Int) -> [TickerSnapshot] {
        TimeBase.system.engine(for: EngineWait.context).liveSnapshots().filter {
            $0.fileID == #fileID && $0.line == line
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
        var iterator = Ticker.ticks(.every(.milliseconds(100), count: 8)).makeAsyncIterator()
        var tickers = Set<TickInstant>()  // told apart by their creation instant
        var served = 0  // ticks right after which a ticker was seen running
        var indices: [Int] = []
        while let tick = await iterator.next() {
            indices.append(tick.index)
            let running = Self.tickers(at: line)
            if !running.isEmpty { served += 1 }
            for ticker in running { tickers.insert(ticker.createdAt) }
            if tick.isLast { break }
        }
        #expect(indices.last == 8)
        // A consumer that does nothing but wait is away at a deadline (its ticker stops, and the next wait
        // starts another) only when the machine stalls it for a whole interval; one-shot waits would show
        // a new ticker at every tick.
        #expect(
            served >= 2 && tickers.count < served,
            "\(tickers.count) tickers seen after \(served) of \(indices.count) ticks")
        #expect(Self.tickers(at: line).isEmpty, "the ticker stops with the sequence")
    }

    @Test func aConsumerThatStopsWaitingStopsItsTickerAndResumesOnTheGrid() async {
        await Self.inRealTimeOnOwnThread { await Self.aConsumerThatStopsWaitingStopsItsTickerAndResumesOnTheGrid() }
    }

    static func aConsumerThatStopsWaitingStopsItsTickerAndResumesOnTheGrid() async {
        let line = #line + 1
        var iterator = Ticker.ticks(.every(.milliseconds(10))).makeAsyncIterator()
        let first = await iterator.next()
        #expect(first != nil)
        // The consumer is away (busy) for as long as it takes the next deadline to find it not waiting.
        var stopped = false
        for _ in 0..<500 where !stopped {
            stopped = Self.tickers(at: line).isEmpty
            if !stopped { try? await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(stopped, "the ticker still runs while nobody waits")
        // Waiting again: the deadline that passed is delivered at once, then the schedule goes on.
        let late = await iterator.next()
        let next = await iterator.next()
        #expect((late?.index ?? 0) >= 2)
        #expect((next?.index ?? 0) > (late?.index ?? .max))
        if let late, let next, let first {
            let interval = Duration.milliseconds(10)
            #expect(late.deadline == first.deadline.advanced(by: interval * (late.index - first.index)), "on the grid")
            #expect(next.deadline == first.deadline.advanced(by: interval * (next.index - first.index)), "on the grid")
        }
    }
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
