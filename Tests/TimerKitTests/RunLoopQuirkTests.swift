import Foundation
import Testing

@testable import TimerKit

/// Linux quirks of run-loop timers, each covered.
@Suite struct RunLoopQuirkTests {
    /// swift-corelibs-foundation issue 4712: on Linux a block `Foundation.Timer` added to a run loop fires
    /// at once unless its fire date is set. A ticker's first delivery comes at its first deadline.
    @Test func firstTickIsNotImmediateOnARunLoop() {
        let thread = RunLoopThread()
        defer { thread.stop() }
        let ticks = Recorder<Tick>()
        let ticker = Ticker.schedule(.every(.milliseconds(150)), on: thread.context) { tick in ticks.append(tick) }
        Thread.sleep(forTimeInterval: 0.06)
        #expect(ticks.count == 0, "the first tick came before its deadline")
        #expect(eventually { ticks.count >= 1 })
        ticker.cancel()
        let first = ticks.values[0]
        #expect(first.index == 1)
        #expect(first.timestamp >= first.deadline, "a tick was delivered early")
    }

    /// The engine's own run-loop alarm is created disarmed: making a context with only a far-away ticker
    /// never wakes it.
    @Test func aNewRunLoopContextDoesNotFireAtOnce() {
        let thread = RunLoopThread()
        defer { thread.stop() }
        let ticks = Recorder<Tick>()
        let ticker = Ticker.schedule(.after(.seconds(30)), on: thread.context) { tick in ticks.append(tick) }
        Thread.sleep(forTimeInterval: 0.1)
        #expect(ticks.count == 0)
        #expect(ticker.state == .running)
        ticker.cancel()
    }

    /// Tickers on one run loop share one `Foundation.Timer` (Linux never frees a `Foundation.Timer`):
    /// creating and cancelling many tickers makes one engine, not one timer each.
    @Test func manyTickersOnOneRunLoopShareOneEngine() {
        let thread = RunLoopThread()
        defer { thread.stop() }
        let engine = TimeBase.system.engine(for: thread.context)
        for _ in 0..<1_000 {
            Ticker.schedule(.after(.seconds(60)), on: thread.context) { _ in }.cancel()
        }
        #expect(TimeBase.system.engine(for: thread.context) === engine)
        #expect(engine.liveCount() == 0)
    }

    /// Scheduling and cancelling from other threads while the loop runs is safe and takes effect.
    @Test func schedulingFromAnotherThreadWakesTheLoop() {
        let thread = RunLoopThread()
        defer { thread.stop() }
        let ticks = Recorder<Int>()
        // A far deadline first, so the loop sleeps; then a near one from this thread must wake it.
        let far = Ticker.schedule(.after(.seconds(60)), on: thread.context) { _ in }
        let near = Ticker.schedule(.every(.milliseconds(5)), on: thread.context) { _ in ticks.append(1) }
        #expect(eventually { ticks.count >= 3 })
        near.cancel()
        far.cancel()
    }
}
