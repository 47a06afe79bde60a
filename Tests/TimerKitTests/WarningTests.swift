import Foundation
import Testing
import TimerKitTestSupport

@testable import TimerKit

// Every debug warning TimerKit logs (`Diagnostics.warn`), with a test that it fires when it should and one
// that it stays quiet otherwise. Elsewhere:
// - a handle-owned ticker released right after creation: PeerDiagnosticsTests
//   (droppingAHandleRightAfterCreationLogsAWarning / noWarningWhenAHandleIsReleasedOnPurpose);
// - a schedule that had to be clamped: PeerDiagnosticsTests (clampedScheduleLogsItsAdjustments,
//   countZeroLogsThatItFinishesAtOnce); quiet for valid schedules in noWarningWhenAHandleIsReleasedOnPurpose;
// - a handle-owned frame subscription released before its first frame, and a frame-rate range that had to
//   be clamped: FrameSubscriptionTests.droppingAHandleOwnedSubscriptionBeforeItsFirstFrameWarns (both, with
//   their quiet cases);
// - a run loop that does not run, firing: PeerDiagnosticsTests.aTickerOnARunLoopThatNeverRunsIsWarnedAboutOnceOverdue;
// - a rate limiter's negative interval or short maxWait: DebounceMarbleTests.aNegativeIntervalIsClampedToZeroWithAWarning.
// Here: the rest, and the run-loop warning's quiet cases.

/// A virtual-time dispatch context: no real queue runs.
private let warningContext = TickerContext.dispatch(DispatchQueue(label: "TimerKitTests.warnings"))

@Suite struct RunLoopWarningTests {
    init() { LogCapture.install() }

    @Test func schedulingOnAThreadsLoopAndThenRunningItIsQuiet() {
        // The normal pattern: make the thread's loop, schedule on it, then run it. The check still runs
        // (the loop was not running when the ticker was made) and finds the deadline served.
        let thread = RunLoopThread(parked: true)
        let tag = contractUniqueFileID()
        let fired = Locked<Int>.make(0)
        let ticker = Ticker.schedule(.after(.milliseconds(10)), on: thread.context, fileID: tag) { _ in
            fired.withLock { $0 += 1 }
        }
        let engine = TimeBase.system.engine(for: thread.context)
        #expect(Diagnostics.isWatchingRunLoop(of: engine), "the loop was not running: a check is scheduled")
        Thread.sleep(forTimeInterval: 0.05)  // the loop starts after the deadline: still no mistake
        thread.startRunning()
        #expect(eventually(timeout: 10) { fired.withLock { $0 } == 1 })
        #expect(eventually(timeout: 20) { !Diagnostics.isWatchingRunLoop(of: engine) }, "the check ran")
        #expect(runLoopWarnings(tag).isEmpty)
        withExtendedLifetime(ticker) {}
        thread.stop()
    }

    @Test func aLoopThatIsRunningWhenTheTickerIsMadeIsNotEvenChecked() {
        let thread = RunLoopThread()
        let tag = contractUniqueFileID()
        // Make the ticker from the loop's own thread, where the loop is certainly running.
        let made = DispatchSemaphore(value: 0)
        let box = ContractBox<Ticker>()
        thread.runLoop.perform {
            box.set(Ticker.schedule(.every(.seconds(60)), on: thread.context, fileID: tag) { _ in })
            made.signal()
        }
        made.wait()
        #expect(!Diagnostics.isWatchingRunLoop(of: TimeBase.system.engine(for: thread.context)))
        box.value?.cancel()
        #expect(runLoopWarnings(tag).isEmpty)
        thread.stop()
    }

    /// A pending check belongs to its engine, not to the engine's address: once the engine is gone, a new
    /// engine that the allocator places at the same address has no check (it was taken for watched, so
    /// `aLoopThatIsRunningWhenTheTickerIsMadeIsNotEvenChecked` failed when another test's engine with a
    /// pending check had just gone, and a new engine's own check was never scheduled).
    @Test func aCheckOfAnEngineThatWentAwayIsNotTakenForANewEngines() {
        let parked = RunLoopThread(parked: true)
        defer { parked.stop() }
        let base = TimeBase(.system)
        let gone = WeakBox<TickerEngine>()
        let address = TimeBase.$override.withValue(base) {
            let ticker = Ticker.schedule(.after(.seconds(60)), on: parked.context) { _ in }
            #expect(Diagnostics.isWatchingRunLoop(of: ticker.engine), "the loop is not running: a check waits")
            gone.object = ticker.engine
            ticker.cancel()
            return ObjectIdentifier(ticker.engine)
        }
        #expect(eventually { gone.object == nil }, "the engine outlived its last ticker")
        // New engines (other mode sets of the same loop, no ticker), each dropped at once: the allocator
        // soon hands the gone engine's memory out again.
        for index in 0..<200 {
            let engine = base.engine(for: .runLoop(parked.runLoop, modes: [RunLoop.Mode("TimerKitTests.\(index)")]))
            let reusing = ObjectIdentifier(engine) == address ? ", at the gone engine's address," : ""
            #expect(!Diagnostics.isWatchingRunLoop(of: engine), "engine \(index)\(reusing) has no ticker, so no check")
        }
    }

    /// The table behind the checks, with the allocator's reuse made certain: a gone engine's entry is not
    /// taken for the check of a new engine at the same address, which takes the entry over. (The test
    /// above exercises the same logic only when the allocator happens to reuse the address.)
    @Test func aCheckTableEntryOfAGoneEngineIsNotANewEnginesAtTheSameAddress() {
        var table = RunLoopCheckTable()
        var gone: AnyObject? = NSObject()
        let address = ObjectIdentifier(gone!)
        let first = table.claim(gone!, at: address)
        let again = table.claim(gone!, at: address)
        #expect(first && !again, "one check per engine")
        gone = nil
        let new = NSObject()  // given the gone engine's address, as the allocator may do
        #expect(!table.isWatching(new, at: address), "the gone engine's entry is not the new engine's")
        let claimed = table.claim(new, at: address)
        #expect(claimed, "the new engine takes the entry over")
        #expect(table.isWatching(new, at: address))
        let kept = table.dropStale(at: address)
        #expect(kept === new, "the gone engine's late check leaves the new entry")
        #expect(table.isWatching(new, at: address))
        table.release(new, at: address)
        #expect(!table.isWatching(new, at: address))
    }

    @Test func virtualTimeNeverWarnsAboutALoopThatDoesNotRun() {
        let parked = RunLoopThread(parked: true)
        let time = VirtualTime()
        let tag = contractUniqueFileID()
        let fired = Locked<Int>.make(0)
        let ticker = time.run {
            Ticker.schedule(.every(.milliseconds(10)), on: parked.context, fileID: tag) { _ in
                fired.withLock { $0 += 1 }
            }
        }
        #expect(!Diagnostics.isWatchingRunLoop(of: time.base.engine(for: parked.context)), "no check scheduled")
        time.advance(by: .seconds(5))
        #expect(fired.withLock { $0 } == 500, "virtual time drives the ticker whether or not the loop runs")
        #expect(runLoopWarnings(tag).isEmpty)
        ticker.cancel()
        parked.stop()
    }

    @Test func otherContextsAreNeverChecked() {
        let tag = contractUniqueFileID()
        let queue = DispatchQueue(label: "TimerKitTests.warnings.real")
        let ticker = Ticker.schedule(.every(.seconds(60)), on: .dispatch(queue), fileID: tag) { _ in }
        #expect(!Diagnostics.isWatchingRunLoop(of: TimeBase.system.engine(for: .dispatch(queue))))
        ticker.cancel()
        #expect(runLoopWarnings(tag).isEmpty)
    }
}

@Suite struct ClampWarningTests {
    init() { LogCapture.install() }

    /// A refresh rate outside the range, and a rate limiter saturating beyond 292 years. Each check runs on a fresh
    /// instance of the suite.
    @Test func anOutOfRangeSettingIsWarnedAboutAndAValidOneIsNot() {
        Self().aRefreshRateOutsideTheRangeIsWarnedAboutAndAValidOneIsNot()
        Self().aRateLimiterSaturatingBeyond292YearsIsWarnedAboutAndAValidOneIsNot()
    }

    func aRefreshRateOutsideTheRangeIsWarnedAboutAndAValidOneIsNot() {
        let time = VirtualTime()
        // The message names the rate, so unusual rates keep the lines of parallel tests apart.
        let low = time.run { FrameSource.software(refreshRate: -0.123_45, on: warningContext) }
        let high = time.run { FrameSource.software(refreshRate: 1_234.567, on: warningContext) }
        let valid = time.run { FrameSource.software(refreshRate: 987.654_3, on: warningContext) }
        #expect(low.refreshRate == 1)
        #expect(high.refreshRate == 1_000)
        #expect(valid.refreshRate == 987.654_3)
        #expect(
            LogCapture.lines(containing: "refresh rate -0.12345 Hz")
                == ["TimerKit warning: refresh rate -0.12345 Hz is outside 1...1000 Hz; clamped to 1.0 Hz"])
        #expect(LogCapture.lines(containing: "refresh rate 1234.567 Hz").count == 1)
        #expect(LogCapture.lines(containing: "987.6543").isEmpty)
    }

    func aRateLimiterSaturatingBeyond292YearsIsWarnedAboutAndAValidOneIsNot() {
        let time = VirtualTime()
        let saturated = contractUniqueFileID()
        let valid = contractUniqueFileID()
        let forever = Duration.seconds(Int64.max)
        let limiters = time.run {
            (
                Debouncer<Int>(interval: forever, maxWait: forever, on: warningContext, fileID: saturated) { _ in },
                Throttler<Int>(interval: forever, on: warningContext, fileID: saturated) { _ in },
                Debouncer<Int>(interval: .seconds(1), maxWait: .seconds(2), on: warningContext, fileID: valid) { _ in },
                Throttler<Int>(interval: .seconds(1), on: warningContext, fileID: valid) { _ in }
            )
        }
        let lines = LogCapture.lines(containing: saturated)
        #expect(lines.filter { $0.contains("interval exceeds about 292 years") }.count == 2, "\(lines)")
        #expect(lines.filter { $0.contains("maxWait exceeds about 292 years") }.count == 1, "\(lines)")
        #expect(LogCapture.lines(containing: valid).isEmpty)
        withExtendedLifetime(limiters) {}
    }
}

/// The run-loop warnings logged about the ticker created at `tag`. (Only those: while another test runs
/// under the `.virtualTime` trait, a real-time ticker made off every test's task draws that test's own
/// warning, which is not what these tests are about.)
func runLoopWarnings(_ tag: String) -> [String] {
    LogCapture.lines(containing: tag).filter { $0.contains("loop is not running") }
}
