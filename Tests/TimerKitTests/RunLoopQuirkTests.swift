import Foundation
import Testing
import TimerKitTestSupport

@testable import TimerKit

/// Linux quirks of run-loop timers, each covered.
@Suite struct RunLoopQuirkTests {
    init() { LogCapture.install() }

    /// swift-corelibs-foundation issue 4712: on Linux a block `Foundation.Timer` added to a run loop fires
    /// at once unless its fire date is set. A ticker's first delivery comes at its first deadline.
    @Test func firstTickIsNotImmediateOnARunLoop() {
        let thread = RunLoopThread()
        defer { thread.stop() }
        let ticks = Recorder<Tick>()
        let created = TickClock.uptime.now
        let ticker = Ticker.schedule(.every(.milliseconds(150)), on: thread.context) { tick in ticks.append(tick) }
        #expect(eventually { ticks.count >= 1 })
        ticker.cancel()
        // Read from the ticks, not from a sleep: a paused machine cannot make this fail.
        let first = ticks.values[0]
        #expect(first.deadline >= created.advanced(by: .milliseconds(150)), "the first deadline is immediate")
        #expect(first.index == 1 + first.skipped, "the first delivery is not deadline 1 (or counts its skips)")
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

    /// Tickers on one run loop share one engine and its two `Foundation.Timer`s (Linux never frees a
    /// `Foundation.Timer`): creating and cancelling many tickers makes one engine, not one timer each.
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

    /// Issue 21, item 6: a ticker in common modes keeps firing in each of them when its loop switches from
    /// one to another (a scroll view tracks, then lets go), also when the loop holds another timer. A
    /// `Foundation.Timer` whose fire date is set from its own callout is re-armed by CFRunLoop only in the
    /// mode it fired in; the run-loop alarm used to re-arm that way, and went silent after each switch.
    @Test func aCommonModesTickerFiresInEveryCommonModeAfterASwitch() {
        let tracking = RunLoop.Mode("TimerKitTests.RunLoopQuirkTests.tracking")
        let phases = Recorder<ModePhase>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            addToCurrentRunLoopsCommonModes(tracking)
            // Another timer on the loop, due much later (any timer does; an app's main loop has many).
            let keepAlive = Foundation.Timer(fire: .distantFuture, interval: 1e9, repeats: true) { _ in }
            RunLoop.current.add(keepAlive, forMode: .common)
            // The mode the loop ran each delivery in, read on the loop's thread.
            let delivered = Recorder<String>()
            let ticker = Ticker.schedule(.every(.milliseconds(10)), on: .current) { _ in
                delivered.append(RunLoop.current.currentMode?.rawValue ?? "none")
            }
            for mode in [tracking, .default, tracking, .default] {
                let before = delivered.count
                // Until a few deliveries in this mode, or a generous 2 s without them.
                spinCurrentRunLoop(in: mode, until: { delivered.count - before >= 3 }, timeout: 2)
                phases.append(ModePhase(mode: mode.rawValue, deliveredIn: Array(delivered.values[before...])))
            }
            ticker.cancel()
            keepAlive.invalidate()
            done.signal()
        }
        thread.start()
        #expect(done.wait(timeout: .now() + 60) == .success)
        let results = phases.values
        #expect(results.count == 4)
        for phase in results {
            #expect(!phase.deliveredIn.isEmpty, "no delivery while the loop ran in \(phase.mode)")
            #expect(phase.deliveredIn.allSatisfy { $0 == phase.mode }, "delivered outside \(phase.mode)")
        }
    }
}

/// What a run loop delivered while it ran in one mode: the mode each delivery ran in.
struct ModePhase: Sendable {
    let mode: String
    let deliveredIn: [String]
}
