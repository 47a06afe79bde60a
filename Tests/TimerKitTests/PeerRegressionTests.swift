import Foundation
import Testing
import TimerKitTestSupport

@testable import TimerKit

/// The crash and misbehaviour classes of peer libraries listed in DESIGN.md ("Known failures of peers"),
/// each shown impossible here: under virtual time where the bug is about logic, on real dispatch queues
/// and run-loop threads where it is about threads or the system timer.
@Suite struct PeerRegressionTests {
    init() { LogCapture.install() }

    // MARK: Repeat PR 22 — over-resume crash

    /// Over-resume, under virtual time and from many threads on a real queue. Each check runs on a fresh instance of
    /// the suite.
    @Test func overResumingIsHarmless() {
        Self().resumingManyTimesIsHarmless()
        Self().resumingManyTimesFromManyThreadsOnARealQueue()
    }

    func resumingManyTimesIsHarmless() {
        for kind in ContractContext.allCases {
            Self().resumingManyTimesIsHarmless(kind: kind)
        }
    }

    func resumingManyTimesIsHarmless(kind: ContractContext) {
        let time = VirtualTime()
        let ticks = Recorder<Tick>()
        let start = time.now
        let ticker = time.run { Ticker.schedule(.every(.seconds(1)), on: kind.context) { ticks.append($0) } }
        for _ in 0..<1_000 { ticker.resume() }
        time.advance(by: .milliseconds(400))
        ticker.pause()
        for _ in 0..<1_000 { ticker.resume() }
        #expect(ticker.state == .running, "kind \(kind)")
        #expect(
            ticker.nextDeadline == start.advanced(by: .seconds(1)),
            "pause at 0.4 s and immediate resume keep the deadline; kind \(kind)")
        time.advance(by: .seconds(3))
        #expect(ticks.values.map(\.index) == [1, 2, 3], "kind \(kind)")
        #expect(ticks.values.allSatisfy { $0.lateness == .zero && $0.skipped == 0 }, "kind \(kind)")
        ticker.cancel()
        for _ in 0..<1_000 { ticker.resume() }
        #expect(ticker.state == .cancelled, "kind \(kind)")
    }

    func resumingManyTimesFromManyThreadsOnARealQueue() {
        let queue = DispatchQueue(label: "TimerKitTests.peer.overResume")
        let ticks = Recorder<Tick>()
        let ticker = Ticker.schedule(.every(.milliseconds(2)), on: .dispatch(queue)) { ticks.append($0) }
        DispatchQueue.concurrentPerform(iterations: 1_000) { _ in ticker.resume() }
        ticker.pause()
        DispatchQueue.concurrentPerform(iterations: 1_000) { _ in ticker.resume() }
        #expect(ticker.state == .running)
        #expect(eventually { ticks.count >= 3 })
        queue.sync { ticker.cancel() }
        let count = ticks.count
        queue.sync {}
        #expect(ticks.count == count)
        #expect(ticker.state == .cancelled)
    }

    // MARK: SwiftTimer issue 3 — release while suspended

    /// Release while suspended: the handle, on a real queue, and an owner holding it. Each check runs on a fresh
    /// instance of the suite.
    @Test func releasingAPausedTickerOrItsOwnerIsHarmless() {
        Self().releasingAPausedTickerIsHarmless()
        Self().releasingAPausedTickerOnARealQueueReleasesItsDispatchSource()
        Self().ownerHoldingAPausedTickerDiesOnARealQueue()
    }

    func releasingAPausedTickerIsHarmless() {
        for kind in ContractContext.allCases {
            Self().releasingAPausedTickerIsHarmless(kind: kind)
        }
    }

    func releasingAPausedTickerIsHarmless(kind: ContractContext) {
        let time = VirtualTime()
        let ticks = Recorder<Tick>()
        var ticker: Ticker? = time.run { Ticker.schedule(.every(.seconds(1)), on: kind.context) { ticks.append($0) } }
        time.advance(by: .seconds(1))
        ticker?.pause()
        ticker?.pause()
        ticker = nil
        time.advance(by: .seconds(5))
        #expect(ticks.count == 1, "kind \(kind)")
    }

    func releasingAPausedTickerOnARealQueueReleasesItsDispatchSource() {
        let queue = DispatchQueue(label: "TimerKitTests.peer.releasePaused")
        let ticks = Recorder<Tick>()
        weak var weakEngine: TickerEngine?
        do {
            let ticker = Ticker.schedule(.every(.milliseconds(1)), on: .dispatch(queue)) { ticks.append($0) }
            weakEngine = ticker.engine
            #expect(eventually { ticks.count >= 1 })
            ticker.pause()
        }
        queue.sync {}  // let a wake-up that was already running finish
        #expect(weakEngine == nil, "the engine, and with it the context's one dispatch source, is gone")
        let count = ticks.count
        queue.sync {}
        #expect(ticks.count == count)
    }

    func ownerHoldingAPausedTickerDiesOnARealQueue() {
        let queue = DispatchQueue(label: "TimerKitTests.peer.ownerPaused")
        let tracker = LifetimeTracker()
        weak var weakEngine: TickerEngine?
        do {
            let owner = ContractOwner(tracker: tracker)
            owner.ticker = Ticker.schedule(.every(.milliseconds(1)), on: .dispatch(queue), owner: owner) {
                owner, tick in
                owner.record(tick)
            }
            weakEngine = owner.ticker?.engine
            #expect(eventually { owner.ticks.count >= 1 })
            owner.ticker?.pause()
        }
        queue.sync {}
        #expect(tracker.live == 0)
        #expect(weakEngine == nil)
    }

    // MARK: Repeat issue 45 — unsynchronised pause/reset from many threads

    @Test func concurrentLifecycleCallsFromManyThreads() {
        let queue = DispatchQueue(label: "TimerKitTests.peer.concurrentCalls")
        let context = TickerContext.dispatch(queue)
        let recorders = (0..<4).map { _ in Recorder<Tick>() }
        let tickers = recorders.map { recorder in
            Ticker.schedule(.every(.milliseconds(1)), on: context) { recorder.append($0) }
        }
        DispatchQueue.concurrentPerform(iterations: 4_000) { i in
            let ticker = tickers[i % tickers.count]
            switch (i / tickers.count) % 7 {
            case 0: ticker.pause()
            case 1: ticker.resume()
            case 2: ticker.fire()
            case 3: ticker.start()
            case 4: _ = (ticker.state, ticker.nextDeadline, ticker.fireCount, ticker.description)
            case 5: ticker.pause(); ticker.resume()
            default:
                // "reset": tickers made and dropped on the same context meanwhile.
                let extra = Ticker.schedule(.every(.milliseconds(1)), on: context) { _ in }
                extra.pause()
            }
        }
        // A consistent state machine afterwards: the same calls give the same answers.
        for ticker in tickers {
            ticker.pause()
            #expect(ticker.state == .paused)
            ticker.resume()
            #expect(ticker.state == .running)
        }
        #expect(eventually { recorders.allSatisfy { $0.values.contains { !$0.isManual } } })
        queue.sync { tickers.forEach { $0.cancel() } }  // on the context: exact
        let counts = recorders.map(\.count)
        queue.sync {}
        #expect(recorders.map(\.count) == counts, "nothing fires after cancel")
        for (ticker, recorder) in zip(tickers, recorders) {
            #expect(ticker.state == .cancelled)
            #expect(ticker.fireCount == recorder.count)
            let values = recorder.values
            #expect(values.allSatisfy { $0.timestamp >= $0.deadline })
            let scheduled = values.filter { !$0.isManual }.map(\.index)
            #expect(zip(scheduled, scheduled.dropFirst()).allSatisfy { $0 < $1 }, "each deadline at most once")
            #expect(values.enumerated().allSatisfy { $0.element.fireCount == $0.offset + 1 })
        }
    }

    // MARK: Repeat issue 6 — crash on deinit after pause + fire

    /// Release after pause and a fire, pending or delivered, and on a real queue. Each check runs on a fresh instance
    /// of the suite.
    @Test func releasingAfterPauseAndFireIsHarmless() {
        Self().releaseAfterPauseAndFire()
        Self().releaseAfterPauseAndDeliveredFire()
        Self().releaseAfterPauseAndFireOnARealQueue()
    }

    func releaseAfterPauseAndFire() {
        for kind in ContractContext.allCases {
            Self().releaseAfterPauseAndFire(kind: kind)
        }
    }

    func releaseAfterPauseAndFire(kind: ContractContext) {
        let time = VirtualTime()
        let ticks = Recorder<Tick>()
        weak var weakProbe: ContractProbe?
        var ticker: Ticker? = time.run {
            let probe = ContractProbe()
            weakProbe = probe
            return Ticker.schedule(.every(.seconds(1)), on: kind.context) { tick in
                _ = probe
                ticks.append(tick)
            }
        }
        time.advance(by: .milliseconds(500))
        ticker?.pause()
        ticker?.fire()
        ticker = nil  // before the manual tick is delivered: cancel drops it
        #expect(weakProbe == nil, "kind \(kind)")
        time.advance(by: .seconds(5))
        #expect(ticks.count == 0, "kind \(kind)")
    }

    func releaseAfterPauseAndDeliveredFire() {
        for kind in ContractContext.allCases {
            Self().releaseAfterPauseAndDeliveredFire(kind: kind)
        }
    }

    func releaseAfterPauseAndDeliveredFire(kind: ContractContext) {
        let time = VirtualTime()
        let ticks = Recorder<Tick>()
        var ticker: Ticker? = time.run { Ticker.schedule(.every(.seconds(1)), on: kind.context) { ticks.append($0) } }
        ticker?.pause()
        ticker?.fire()
        time.advance(by: .zero)
        #expect(ticks.values.map(\.isManual) == [true], "kind \(kind)")
        ticker = nil
        time.advance(by: .seconds(5))
        #expect(ticks.count == 1, "kind \(kind)")
    }

    func releaseAfterPauseAndFireOnARealQueue() {
        let queue = DispatchQueue(label: "TimerKitTests.peer.pauseFire")
        let ticks = Recorder<Tick>()
        weak var weakEngine: TickerEngine?
        for _ in 0..<50 {
            // 1 s: no scheduled deadline can come before pause(), however slow this thread is.
            let ticker = Ticker.schedule(.every(.seconds(1)), on: .dispatch(queue)) { ticks.append($0) }
            weakEngine = ticker.engine
            ticker.pause()
            ticker.fire()
        }
        queue.sync {}
        #expect(ticks.values.allSatisfy { $0.isManual }, "a paused ticker only ever delivers its manual fire")
        #expect(ticks.count <= 50)
        #expect(weakEngine == nil)
    }

    // MARK: MSWeakTimer issue 20 — invalidate before schedule

    /// Invalidate before start, under virtual time and on a real run-loop thread. Each check runs on a fresh instance
    /// of the suite.
    @Test func invalidatingBeforeStartStaysCancelled() {
        Self().invalidateBeforeStartStaysCancelled()
        Self().invalidateBeforeStartOnARealRunLoopThread()
    }

    func invalidateBeforeStartStaysCancelled() {
        for kind in ContractContext.allCases {
            Self().invalidateBeforeStartStaysCancelled(kind: kind)
        }
    }

    func invalidateBeforeStartStaysCancelled(kind: ContractContext) {
        let time = VirtualTime()
        let ticks = Recorder<Tick>()
        let ticker = time.run {
            Ticker.schedule(.every(.seconds(1)), on: kind.context, startsImmediately: false) { ticks.append($0) }
        }
        ticker.cancel()
        #expect(ticker.state.isTerminal, "kind \(kind)")
        ticker.start()
        ticker.resume()
        ticker.fire()
        #expect(ticker.state == .cancelled, "kind \(kind)")
        time.advance(by: .seconds(5))
        #expect(ticks.count == 0, "kind \(kind)")
    }

    func invalidateBeforeStartOnARealRunLoopThread() {
        let thread = RunLoopThread(name: "TimerKitTests.peer.invalidateBeforeStart")
        defer { thread.stop() }
        let ticks = Recorder<Tick>()
        let witness = Recorder<Tick>()
        let ticker = Ticker.schedule(.every(.milliseconds(1)), on: thread.context, startsImmediately: false) {
            ticks.append($0)
        }
        ticker.cancel()
        ticker.start()
        let proof = Ticker.schedule(.after(.milliseconds(20)), on: thread.context) { witness.append($0) }
        #expect(eventually { witness.count == 1 })
        #expect(ticks.count == 0)
        #expect(ticker.state == .cancelled)
        #expect(proof.state == .finished)
    }

    // MARK: Schedule issue 63 — two calls at once after suspend/resume

    /// Two calls at once after pause and resume: no stale wake, one delivery each, no overlap. Each check runs on a
    /// fresh instance of the suite.
    @Test func callsAfterPauseAndResumeNeverDoubleDeliver() {
        Self().staleWakeAfterPauseResumeDeliversNothing()
        Self().pauseResumeAroundEveryDeadlineDeliversEachDeadlineOnce()
        Self().handlersNeverOverlapOnAConcurrentQueue()
    }

    func staleWakeAfterPauseResumeDeliversNothing() {
        let time = VirtualTime()
        let ticks = Recorder<Tick>()
        let start = time.now
        let ticker = time.run {
            Ticker.schedule(.every(.seconds(1)), on: ContractContext.dispatch.context) { ticks.append($0) }
        }
        time.advance(by: .milliseconds(300))
        ticker.pause()  // the context's alarm stays armed for 1.0 s
        time.advance(by: .milliseconds(200))
        ticker.resume()  // next deadline 1.2 s
        let wakes = time.advance(by: .seconds(1))
        #expect(wakes == 2, "the stale wake-up at 1.0 s, then 1.2 s")
        #expect(ticks.values.map(\.deadline) == [start.advanced(by: .milliseconds(1_200))])
        ticker.cancel()
    }

    func pauseResumeAroundEveryDeadlineDeliversEachDeadlineOnce() {
        for kind in ContractContext.allCases {
            Self().pauseResumeAroundEveryDeadlineDeliversEachDeadlineOnce(kind: kind)
        }
    }

    func pauseResumeAroundEveryDeadlineDeliversEachDeadlineOnce(kind: ContractContext) {
        let time = VirtualTime()
        let ticks = Recorder<Tick>()
        let ticker = time.run { Ticker.schedule(.every(.seconds(1)), on: kind.context) { ticks.append($0) } }
        for _ in 0..<20 {
            time.advance(by: .milliseconds(500))
            ticker.pause()
            ticker.resume()
            ticker.resume()
            time.advance(by: .milliseconds(500))  // exactly on the deadline
            ticker.pause()
            ticker.resume()
            time.advance(by: .zero)
        }
        #expect(ticks.values.map(\.index) == Array(1...20), "kind \(kind)")
        ticker.cancel()
    }

    func handlersNeverOverlapOnAConcurrentQueue() {
        let queue = DispatchQueue(label: "TimerKitTests.peer.overlap", attributes: .concurrent)
        let inside = Locked<Int>.make(0)
        let overlaps = Locked<Int>.make(0)
        let recorders = (0..<3).map { _ in Recorder<Tick>() }
        let tickers = recorders.map { recorder in
            Ticker.schedule(.every(.milliseconds(1)), on: .dispatch(queue)) { tick in
                let depth = inside.withLock {
                    $0 += 1; return $0
                }
                if depth > 1 { overlaps.withLock { $0 += 1 } }
                recorder.append(tick)
                usleep(100)  // work inside the handler widens the window for an overlap
                inside.withLock { $0 -= 1 }
            }
        }
        DispatchQueue.concurrentPerform(iterations: 600) { i in
            let ticker = tickers[i % tickers.count]
            switch i % 3 {
            case 0: ticker.pause(); ticker.resume()
            case 1: ticker.fire()
            default: ticker.resume(); ticker.resume()
            }
        }
        #expect(eventually { recorders.allSatisfy { $0.values.filter { !$0.isManual }.count >= 5 } })
        queue.sync(flags: .barrier) { tickers.forEach { $0.cancel() } }
        #expect(overlaps.withLock { $0 } == 0)
        for recorder in recorders {
            let scheduled = recorder.values.filter { !$0.isManual }.map(\.index)
            #expect(zip(scheduled, scheduled.dropFirst()).allSatisfy { $0 < $1 }, "no deadline delivered twice")
        }
    }

    // MARK: Foundation on Linux, issue 4712 — immediate first fire

    /// No immediate first fire, on a real run loop and a real dispatch queue. Each check runs on a fresh instance of
    /// the suite.
    @Test func thereIsNoImmediateFirstFire() {
        Self().noImmediateFirstFireOnARealRunLoop()
        Self().noImmediateFirstFireOnARealDispatchQueue()
    }

    func noImmediateFirstFireOnARealRunLoop() {
        let thread = RunLoopThread(name: "TimerKitTests.peer.firstFire")
        defer { thread.stop() }
        let slow = Recorder<Tick>()
        let witness = Recorder<Tick>()
        let ticker = Ticker.schedule(.every(.seconds(30)), on: thread.context) { slow.append($0) }
        let proof = Ticker.schedule(.after(.milliseconds(20)), on: thread.context) { witness.append($0) }
        #expect(eventually { witness.count == 1 })
        #expect(slow.count == 0, "a 30 s ticker did not fire when it was added to the run loop")
        #expect(witness.values.allSatisfy { $0.lateness >= .zero && $0.timestamp >= $0.deadline })
        ticker.cancel()
        _ = proof
    }

    func noImmediateFirstFireOnARealDispatchQueue() {
        let queue = DispatchQueue(label: "TimerKitTests.peer.firstFireDispatch")
        let slow = Recorder<Tick>()
        let witness = Recorder<Tick>()
        let ticker = Ticker.schedule(.every(.seconds(30)), on: .dispatch(queue)) { slow.append($0) }
        let proof = Ticker.schedule(.after(.milliseconds(10)), on: .dispatch(queue)) { witness.append($0) }
        #expect(eventually { witness.count == 1 })
        queue.sync {}
        #expect(slow.count == 0)
        ticker.cancel()
        _ = proof
    }

    // MARK: AsyncTimerSequence — catch-up bursts after a stall

    @Test func stallOnARealQueueSkipsInsteadOfBursting() {
        let queue = DispatchQueue(label: "TimerKitTests.peer.stall")
        let ticks = Recorder<Tick>()
        let ticker = Ticker.schedule(.every(.milliseconds(5)), on: .dispatch(queue)) { tick in
            ticks.append(tick)
            if tick.fireCount == 1 { usleep(30_000) }  // a handler that blocks its context for 6 intervals
        }
        #expect(eventually { ticks.count >= 2 })
        queue.sync { ticker.cancel() }
        let values = ticks.values
        let (first, second) = (values[0], values[1])
        #expect(second.index >= first.index + 6, "deadlines that passed during the stall are skipped")
        #expect(second.skipped == second.index - first.index - 1)
        #expect(
            first.deadline.duration(to: second.deadline) == .milliseconds(5) * (second.index - first.index), "no slide")
        #expect(values.allSatisfy { $0.timestamp >= $0.deadline })
    }

    // MARK: swift-clocks 27/33 — slow, flaky virtual time

    @Test func tenThousandVirtualTicksAreDeterministic() {
        let time = VirtualTime()
        let count = Locked<Int>.make(0)
        let lastIndex = Locked<Int>.make(0)
        let ticker = time.run {
            Ticker.schedule(.every(.milliseconds(10)), on: ContractContext.dispatch.context) { tick in
                count.withLock { $0 += 1 }
                lastIndex.withLock { $0 = tick.index }
            }
        }
        let wakes = time.advance(by: .seconds(100))
        #expect(wakes == 10_000)
        #expect(count.withLock { $0 } == 10_000)
        #expect(lastIndex.withLock { $0 } == 10_000)
        ticker.cancel()
    }
}

/// Diagnostics go through the process-wide log handler, which the shared `LogCapture` installs once for
/// every test (it is never swapped, because tests run in parallel); each test here passes a unique
/// `fileID:` to the factories and reads only the lines that mention it. The suite is serialized because
/// one test switches the process-wide `logsOwnerRelease` on.
@Suite(.serialized) struct PeerDiagnosticsTests {
    init() { LogCapture.install() }

    // MARK: Schedule issues 45, 46, 49 — "never fires" because the handle was dropped

    /// The dropped-handle warning: logged for a dropped handle, not for one released on purpose. Each check runs on a
    /// fresh instance of the suite.
    @Test func droppingAHandleWarnsOnlyWhenItIsNotOnPurpose() {
        Self().droppingAHandleRightAfterCreationLogsAWarning()
        Self().noWarningWhenAHandleIsReleasedOnPurpose()
    }

    func droppingAHandleRightAfterCreationLogsAWarning() {
        let time = VirtualTime()
        let ticks = Recorder<Tick>()
        let tag = contractUniqueFileID()
        time.run {
            _ = Ticker.schedule(.every(.seconds(1)), on: ContractContext.dispatch.context, fileID: tag, line: 7) {
                ticks.append($0)
            }
        }
        let messages = LogCapture.lines(containing: tag)
        #expect(messages.count == 1)
        let message = messages.first ?? ""
        #expect(message.hasPrefix("TimerKit warning:"))
        #expect(message.contains("created at \(tag):7"))
        #expect(message.contains("before it ever fired"))
        #expect(message.contains("will never fire"))
        #expect(message.contains("owner:"), "the warning says how to fix it")
        time.advance(by: .seconds(3))
        #expect(ticks.count == 0)
    }

    func noWarningWhenAHandleIsReleasedOnPurpose() {
        let time = VirtualTime()
        let owner = ContractOwner()
        let tag = contractUniqueFileID()
        let context = ContractContext.dispatch.context
        time.run {
            var fired: Ticker? = Ticker.schedule(.every(.seconds(1)), on: context, fileID: tag) { _ in }
            var idle: Ticker? = Ticker.schedule(.every(.seconds(1)), on: context, startsImmediately: false, fileID: tag)
            {
                _ in
            }
            var paused: Ticker? = Ticker.schedule(.every(.seconds(1)), on: context, fileID: tag) { _ in }
            var cancelled: Ticker? = Ticker.schedule(.every(.seconds(1)), on: context, fileID: tag) { _ in }
            var pending: Ticker? = Ticker.schedule(.every(.seconds(60)), on: context, fileID: tag) { _ in }
            paused?.pause()
            cancelled?.cancel()
            cancelled = nil  // cancelled explicitly first
            time.advance(by: .seconds(1))
            #expect(fired?.fireCount == 1)
            fired = nil  // it has fired
            idle = nil  // never started: nothing was expected to fire
            paused = nil  // paused on purpose
            pending = nil  // released later on: the normal way to cancel a pending ticker
            // An owner-bound handle is optional: discarding it is not a mistake.
            _ = Ticker.schedule(.every(.seconds(1)), on: context, owner: owner, fileID: tag) { _, _ in }
            _ = (fired, idle, paused, cancelled, pending)
        }
        let messages = LogCapture.lines(containing: tag)
        #expect(messages.isEmpty, "\(messages)")
    }

    /// Clamped and count-zero schedules log what happens to them. Each check runs on a fresh instance of the suite.
    @Test func unusualSchedulesLogWhatHappensToThem() {
        Self().clampedScheduleLogsItsAdjustments()
        Self().countZeroLogsThatItFinishesAtOnce()
    }

    func clampedScheduleLogsItsAdjustments() {
        let time = VirtualTime()
        let tag = contractUniqueFileID()
        time.run {
            Ticker.schedule(
                .every(.microseconds(20), tolerance: .seconds(-1)), on: ContractContext.dispatch.context, fileID: tag
            ) {
                _ in
            }
        }.cancel()
        let messages = LogCapture.lines(containing: tag)
        #expect(messages.count == 1)
        #expect(messages.first?.contains("below the 100 µs minimum") == true)
        #expect(messages.first?.contains("tolerance") == true)
    }

    func countZeroLogsThatItFinishesAtOnce() {
        let time = VirtualTime()
        let tag = contractUniqueFileID()
        let ticker = time.run {
            Ticker.schedule(.countdown(from: 0), on: ContractContext.dispatch.context, fileID: tag) { _ in }
        }
        #expect(ticker.state == .finished)
        let messages = LogCapture.lines(containing: tag)
        #expect(messages.count == 1)
        #expect(messages.first?.contains("finishes at once") == true)
    }

    // MARK: SwiftyTimer issue 35 — no fire on a thread without a running run loop

    @Test func aTickerOnARunLoopThatNeverRunsIsWarnedAboutOnceOverdue() {
        // Real time: virtual time never draws this warning. The thread has a run loop and never runs it.
        let parked = RunLoopThread(parked: true)
        let tag = contractUniqueFileID()
        let ticker = Ticker.schedule(.after(.milliseconds(10)), on: parked.context, fileID: tag, line: 1) { _ in }
        #expect(eventually(timeout: 20) { !LogCapture.lines(containing: tag).isEmpty })
        let messages = LogCapture.lines(containing: tag)
        #expect(messages.count == 1)
        #expect(messages.first?.hasPrefix("TimerKit warning: ticker at \(tag):1 is ") == true)
        #expect(messages.first?.contains("past its deadline") == true)
        #expect(messages.first?.contains("run loop is not running") == true)
        #expect(ticker.fireCount == 0)
        ticker.cancel()
        parked.stop()
    }

    // MARK: Owner release log

    @Test func ownerReleaseIsLoggedWhenAskedFor() {
        // Process-wide and switched on by DiagnosticsTests too; not switched back off, because a test
        // running in parallel may rely on it.
        TickerDiagnostics.logsOwnerRelease = true
        let time = VirtualTime()
        let holder = ContractBox<ContractOwner>(ContractOwner())
        let tag = contractUniqueFileID()
        time.run {
            _ = Ticker.schedule(
                .every(.seconds(1)), on: ContractContext.dispatch.context, owner: holder.value!, fileID: tag
            ) {
                _, _ in
            }
        }
        holder.clear()
        time.advance(by: .seconds(1))
        let messages = LogCapture.lines(containing: tag)
        #expect(messages.count == 1)
        #expect(messages.first?.contains("stopped because its owner ContractOwner went away") == true)
    }
}
