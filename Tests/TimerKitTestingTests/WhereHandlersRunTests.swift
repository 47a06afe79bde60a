import Dispatch
import Foundation
import Testing
import TimerKit
import TimerKitTesting

/// Under virtual time, handlers run where they run in production, while the advancing call waits.
@Suite struct WhereHandlersRunTests {
    /// Dispatch handlers run on their queue (also when advanced from it), precise and other threads' run-loop handlers
    /// on the advancing thread, and an advance inside a handler delivers inline. Each check runs on a fresh instance of
    /// the suite.
    @Test func advancedHandlersRunWhereTheirContextAllows() {
        Self().aDispatchHandlerRunsOnItsQueueSoQueuePreconditionsHold()
        Self().advancingFromTheQueueItselfDoesNotDeadlock()
        Self().preciseHandlersRunOnTheAdvancingThread()
        Self().anotherThreadsRunLoopHandlersRunOnTheAdvancingThread()
        Self().anAdvanceFromInsideAHandlerDeliversInline()
    }

    func aDispatchHandlerRunsOnItsQueueSoQueuePreconditionsHold() {
        let time = VirtualTime()
        let queue = DispatchQueue(label: "WhereHandlersRunTests.queue")
        let log = Log()
        let ticker = time.run {
            Ticker.schedule(.every(.seconds(1), count: 2), on: .dispatch(queue)) { tick in
                dispatchPrecondition(condition: .onQueue(queue))  // traps if it were the advancing thread
                log.append("\(tick.index)")
            }
        }
        time.advance(by: .seconds(2))
        // `advance` waited for the queue: both deliveries are done when it returns.
        #expect(log.all == ["1", "2"])
        #expect(ticker.state == .finished)
    }

    func advancingFromTheQueueItselfDoesNotDeadlock() {
        let time = VirtualTime()
        let queue = DispatchQueue(label: "WhereHandlersRunTests.same")
        let log = Log()
        let ticker = time.run {
            Ticker.schedule(.after(.seconds(1)), on: .dispatch(queue)) { _ in
                dispatchPrecondition(condition: .onQueue(queue))
                log.append("fired")
            }
        }
        queue.sync { _ = time.advance(by: .seconds(1)) }
        #expect(log.all == ["fired"])
        _ = ticker
    }

    func preciseHandlersRunOnTheAdvancingThread() {
        let time = VirtualTime()
        let advancing = ObjectIdentifier(Thread.current)
        let ranHere = Log()
        let ticker = time.run {
            Ticker.schedule(.after(.seconds(1)), on: .precise) { _ in
                ranHere.append("\(ObjectIdentifier(Thread.current) == advancing)")
            }
        }
        time.advance(by: .seconds(1))
        #expect(ranHere.all == ["true"])
        _ = ticker
    }

    /// Another thread's run loop: that thread may be parked (not running its loop) and the handler still
    /// runs, on the advancing thread.
    func anotherThreadsRunLoopHandlersRunOnTheAdvancingThread() {
        let parked = ParkedRunLoopThread()
        defer { parked.stop() }
        let time = VirtualTime()
        let advancing = ObjectIdentifier(Thread.current)
        let ranHere = Log()
        let ticker = time.run {
            Ticker.schedule(.every(.seconds(1), count: 2), on: .runLoop(parked.runLoop)) { _ in
                ranHere.append("\(ObjectIdentifier(Thread.current) == advancing)")
            }
        }
        time.advance(by: .seconds(2))
        #expect(ranHere.all == ["true", "true"])
        _ = ticker
    }

    /// A handler that lets virtual time pass (an advance from inside it) gets what falls due meanwhile
    /// delivered inline, on its own queue, even for a main-run-loop ticker, which an advance from outside
    /// any handler delivers on the main queue.
    func anAdvanceFromInsideAHandlerDeliversInline() {
        let mainKey = DispatchSpecificKey<Int>()
        DispatchQueue.main.setSpecific(key: mainKey, value: 1)
        let time = VirtualTime()
        let outer = DispatchQueue(label: "WhereHandlersRunTests.outer")
        let log = Log()
        let tickers = time.run {
            [
                Ticker.schedule(.after(.seconds(1)), on: .dispatch(outer)) { _ in
                    log.append("outer begins")
                    let probe = Ticker.schedule(.after(.milliseconds(500)), on: .main) { _ in
                        log.append("nested, on the main queue: \(DispatchQueue.getSpecific(key: mainKey) == 1)")
                    }
                    time.advance(by: .seconds(1))  // a slow handler, in virtual time
                    log.append("outer ends")
                    probe.cancel()
                },
                Ticker.schedule(.after(.seconds(3)), on: .main) { _ in
                    log.append("not nested, on the main queue: \(DispatchQueue.getSpecific(key: mainKey) == 1)")
                },
            ]
        }
        time.advance(by: .seconds(3))
        #expect(
            log.all == [
                "outer begins", "nested, on the main queue: false", "outer ends",
                "not nested, on the main queue: true",
            ])
        _ = tickers
    }

    @MainActor final class Clock {
        var seconds = 0
        var ticker: Ticker?

        func start() {
            ticker = Ticker.schedule(.every(.seconds(1)), owner: self) { clock, _ in clock.seconds += 1 }
        }
    }

    /// A main-actor handler advanced from off the main actor is delivered on the main actor (the advance
    /// hops to the main thread and waits), never on the advancing thread.
    @Test func mainActorHandlersAdvancedOffTheMainActorRunOnTheMainActor() async {
        let time = VirtualTime()
        let clock = await MainActor.run {
            time.run {
                let clock = Clock()
                clock.start()
                return clock
            }
        }
        let onMain = Log()
        let probe = time.run {
            Ticker.schedule(.every(.seconds(1), count: 3), on: .main) { _ in
                dispatchPrecondition(condition: .onQueue(.main))  // the main actor's queue, not this thread
                onMain.append("main")
            }
        }
        // This test is nonisolated: the synchronous advance runs off the main actor.
        Self.advanceSynchronously(time, by: .seconds(3))
        #expect(onMain.all == ["main", "main", "main"])
        #expect(await clock.seconds == 3)
        _ = probe
        await MainActor.run { clock.ticker?.cancel() }
    }

    /// The synchronous advance, from a synchronous function (async code picks the async form).
    static func advanceSynchronously(_ time: VirtualTime, by duration: Duration) {
        time.advance(by: duration)
    }

    @Test @MainActor func mainActorHandlersAdvancedFromTheMainActorRunInline() async {
        let time = VirtualTime()
        let clock = time.run {
            let clock = Clock()
            clock.start()
            return clock
        }
        await time.advance(by: .seconds(2))
        #expect(clock.seconds == 2)
        clock.ticker?.cancel()
    }
}

/// Run-loop modes are modelled: a test can say "the main run loop is tracking".
@Suite struct RunLoopModeTests {
    /// Default-mode and common-mode tickers while tracking, and a ticker in a custom mode. Each check runs on a fresh
    /// instance of the suite.
    @Test @MainActor func tickersRunOnlyInTheirModes() async {
        await Self().whileTrackingDefaultModeTickersWaitAndCommonModeTickersContinue()
        await Self().aTickerInACustomModeRunsOnlyInThatMode()
    }

    @MainActor func whileTrackingDefaultModeTickersWaitAndCommonModeTickersContinue() async {
        let time = VirtualTime()
        let log = Log()
        let (carousel, clock) = time.run {
            (
                Ticker.schedule(.every(.seconds(3)), modes: [.default]) { tick in log.append("carousel \(tick.index)")
                },
                Ticker.schedule(.every(.seconds(1))) { tick in log.append("clock \(tick.index)") }
            )
        }
        #expect(time.mainRunLoopMode == .default)
        time.mainRunLoopMode = VirtualTime.trackingMode  // the user starts dragging
        await time.advance(by: .seconds(7))
        #expect(log.all == (1...7).map { "clock \($0)" })
        #expect(carousel.fireCount == 0)
        #expect(time.nextDeadline == VirtualTime.start.advanced(by: .seconds(8)), "the carousel does not count")
        time.mainRunLoopMode = .default  // the drag ends: the carousel's passed deadlines come at once
        await time.runDue()
        #expect(log.all.last == "carousel 2")
        #expect(carousel.snapshot?.skippedCount == 1, "deadline 3 s was skipped, 6 s delivered late")
        await time.advance(by: .seconds(2))
        // At 9 s both are due: their mode sets make two contexts, served in the order first used.
        #expect(log.all.suffix(3) == ["clock 8", "carousel 3", "clock 9"])
        carousel.cancel()
        clock.cancel()
    }

    @MainActor func aTickerInACustomModeRunsOnlyInThatMode() async {
        let time = VirtualTime()
        let custom = RunLoop.Mode("WhereHandlersRunTests.custom")
        let ticker = time.run { Ticker.schedule(.every(.seconds(1)), modes: [custom]) { _ in } }
        await time.advance(by: .seconds(2))
        #expect(ticker.fireCount == 0)
        time.mainRunLoopMode = custom
        await time.advance(by: .seconds(1))
        // At 2 s: deadline 2 late (deadline 1 skipped); then deadline 3 on time.
        #expect(ticker.fireCount == 2)
        #expect(ticker.snapshot?.skippedCount == 1)
        ticker.cancel()
    }
}

/// The virtual timeline is a `Clock`, and TimerKit's now follows it.
@Suite struct VirtualTimeAsAClockTests {
    /// Code written against any clock, as in production.
    static func waitThenStamp(on clock: any Clock<Duration>, log: Log) async throws {
        try await clock.sleep(for: .seconds(30))
        log.append("woke at \(TickClock.uptime.now.nanoseconds / 1_000_000_000)")
    }

    @Test(.virtualTime) func codeTakingAnyClockSleepsOnTheTestsTimeline() async throws {
        let time = try #require(VirtualTime.current)
        let log = Log()
        let sleeper = Task { try await Self.waitThenStamp(on: time, log: log) }
        await time.waitForPendingTickers()
        await time.advance(by: .seconds(29))
        #expect(log.all.isEmpty)
        await time.advance(by: .seconds(1))
        try await sleeper.value
        #expect(log.all == ["woke at 31"])
        #expect(time.now == TickClock.uptime.now)
        #expect(time.now == TickClock.continuous.now)
    }

    /// A sleep ends when its task is cancelled, and at once for an instant already past. Each check runs on a fresh
    /// instance of the suite.
    @Test func aSleepEndsAtCancelAndAtOnceForThePast() async throws {
        await Self().aSleepEndsWhenItsTaskIsCancelled()
        try await Self().sleepingOnThePastReturnsAtOnce()
    }

    func aSleepEndsWhenItsTaskIsCancelled() async {
        let time = VirtualTime()
        let sleeper = Task { try await time.sleep(for: .seconds(3_600)) }
        await time.waitForPendingTickers()
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(time.pendingTickers.isEmpty)
    }

    func sleepingOnThePastReturnsAtOnce() async throws {
        let time = VirtualTime()
        try await time.sleep(until: VirtualTime.start)
        #expect(time.now == VirtualTime.start)
    }
}

/// A thread that has a run loop and never runs it, until stopped.
final class ParkedRunLoopThread: @unchecked Sendable {
    // Invariant: `loop` is written once on the thread before `ready` is signalled and only read after the
    // wait in init.
    private var loop: RunLoop?
    private let ready = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)

    init() {
        let thread = Thread { [self] in
            loop = RunLoop.current
            ready.signal()
            done.wait()
        }
        thread.start()
        ready.wait()
    }

    var runLoop: RunLoop { loop! }

    func stop() { done.signal() }
}
