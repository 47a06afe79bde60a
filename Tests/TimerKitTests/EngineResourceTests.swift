import Dispatch
import Foundation
import Testing
import TimerKitTestSupport

@testable import TimerKit

#if os(Linux)
    /// glibc's `malloc_usable_size` (declared in `malloc.h`, which the Glibc module does not export): the
    /// usable bytes of the block behind an allocation.
    @_silgen_name("malloc_usable_size")
    private func mallocUsableSize(_ pointer: UnsafeMutableRawPointer?) -> Int
#endif

/// An engine gives back what it holds: a context without live tickers keeps no timer on its run loop and no
/// thread, a short-lived thread's run loop and its file descriptors are freed when the thread ends, and the
/// engine's storage shrinks as tickers go.
@Suite(.serialized) struct EngineResourceTests {
    init() { LogCapture.install() }

    // MARK: Engines that go away

    #if os(Linux)
        /// The process's open file descriptors.
        private static func openDescriptors() -> Int {
            (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
        }

        /// The names of the process's threads.
        private static func threadNames() -> [String] {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
            return tasks.compactMap { task in
                (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }

        /// Threads that finish give back their run loops' file descriptors, and a precise context's thread ends after
        /// its last ticker. Each check runs on a fresh instance of the suite.
        @Test func finishedThreadsGiveTheirDescriptorsAndThreadsBack() {
            Self().shortLivedRunLoopThreadsGiveTheirFileDescriptorsBack()
            Self().aPreciseThreadEndsAfterItsLastTicker()
        }

        /// Short-lived threads that each run their run loop with a ticker for 20 ms and end: each one's run
        /// loop owns file descriptors, which must be closed once the thread is gone (they were kept for ever
        /// while the run loop's engine was permanent: three per thread).
        func shortLivedRunLoopThreadsGiveTheirFileDescriptorsBack() {
            // Each thread schedules before running its loop, which draws the "not running" warning.
            LogCapture.install()
            defer { _ = LogCapture.take(containing: "EngineResourceTests.swift") }
            let base = TimeBase(.system)
            let before = Self.openDescriptors()
            let ticks = Recorder<Int>()
            for _ in 0..<10 {
                let group = DispatchGroup()
                for _ in 0..<10 {
                    group.enter()
                    Thread {
                        TimeBase.$override.withValue(base) {
                            let ticker = Ticker.schedule(.every(.milliseconds(5)), on: .current) { _ in ticks.append(1)
                            }
                            RunLoop.current.run(until: Date().addingTimeInterval(0.02))
                            withExtendedLifetime(ticker) {}
                        }
                        group.leave()
                    }.start()
                }
                group.wait()
            }
            #expect(ticks.count > 0, "the tickers ran")
            #expect(eventually { base.engines().isEmpty }, "the registry still holds \(base.engines().count) engines")
            // 100 threads: +300 descriptors when every run loop was kept. The count is the process's, and
            // tests running in parallel open and close their own (run-loop threads, precise threads), so
            // the bound is half the old leak rather than zero (a process of its own measured +6 for 500 threads).
            #expect(
                eventually(timeout: 10) { Self.openDescriptors() - before < 150 },
                "\(Self.openDescriptors() - before) descriptors more than before the 100 threads")
        }

        /// A precise context's thread ends (after its linger) once the context has no live tickers, and
        /// its engine goes away at once.
        func aPreciseThreadEndsAfterItsLastTicker() {
            let base = TimeBase(.system)
            let label = "TKTests.ends\(Int.random(in: 100...999))"
            let context = TickerContext.precise(label: label)
            let fired = DispatchSemaphore(value: 0)
            let engine = WeakBox<TickerEngine>()
            TimeBase.$override.withValue(base) {
                let ticker = Ticker.schedule(.after(.milliseconds(1)), on: context) { _ in fired.signal() }
                engine.object = ticker.engine
                #expect(fired.wait(timeout: .now() + 5) == .success)
                #expect(Self.threadNames().contains(label))
                withExtendedLifetime(ticker) {}
            }
            #expect(eventually { engine.object == nil }, "the engine outlived its last ticker")
            #expect(eventually(timeout: 10) { !Self.threadNames().contains(label) }, "the thread did not end")
        }
    #endif

    /// A run loop's engine goes away with its thread or its owner, a pending check does not keep it, and a loop kept
    /// running only by tickers returns once they stop. Each check runs on a fresh instance of the suite.
    @Test func aRunLoopsEngineGoesAwayOnceNothingNeedsIt() {
        Self().aRunLoopEngineGoesAwayWithItsThread()
        Self().anOwnerBoundTickerOnAFinishedThreadLetsTheLoopGoWhenItsOwnerGoes()
        Self().aPendingRunLoopCheckDoesNotKeepTheEngineAlive()
        Self().aLoopKeptRunningOnlyByTickersReturnsOnceTheyStop()
    }

    /// A run loop's engine goes away with its last ticker when its thread ends, so nothing keeps the
    /// finished thread's run loop.
    func aRunLoopEngineGoesAwayWithItsThread() {
        LogCapture.install()
        defer { _ = LogCapture.take(containing: "EngineResourceTests.swift") }
        let base = TimeBase(.system)
        let engine = WeakBox<TickerEngine>()
        let loop = WeakBox<RunLoop>()
        let done = DispatchSemaphore(value: 0)
        Thread {
            TimeBase.$override.withValue(base) {
                let ticker = Ticker.schedule(.every(.milliseconds(5)), on: .current) { _ in }
                engine.object = ticker.engine
                loop.object = RunLoop.current
                RunLoop.current.run(until: Date().addingTimeInterval(0.02))
                withExtendedLifetime(ticker) {}
            }
            done.signal()
        }.start()
        done.wait()
        #expect(eventually { engine.object == nil }, "the engine outlived its thread")
        #expect(eventually { loop.object == nil }, "the finished thread's run loop is still referenced")
    }

    /// An owner-bound ticker on a short-lived thread's run loop whose owner goes away after the thread
    /// ended (the usual case: the owner is a worker object the thread's caller drops): no deadline is
    /// served any more, so nothing noticed the owner was gone, and the engine kept the finished thread's
    /// run loop and its file descriptors (3 per thread: 500 such threads, +1,506 descriptors; a plain
    /// `Foundation.Timer` left on the loop, +6) until diagnostics listed every ticker. The thread's end now
    /// cancels the tickers of its own loop.
    func anOwnerBoundTickerOnAFinishedThreadLetsTheLoopGoWhenItsOwnerGoes() {
        final class Worker: Sendable {}
        let base = TimeBase(.system)
        let engine = WeakBox<TickerEngine>()
        let loop = WeakBox<RunLoop>()
        var worker: Worker? = Worker()
        let made = Locked<Bool>.make(false)
        let done = DispatchSemaphore(value: 0)
        Thread { [worker] in
            TimeBase.$override.withValue(base) {
                // Made while the loop runs, so that no "not running" check (whose listing sweeps for gone
                // owners) is scheduled: in release builds there is none anyway.
                RunLoop.current.perform {
                    let ticker = Ticker.schedule(.every(.milliseconds(5)), on: .current, owner: worker!) { _, _ in }
                    engine.object = ticker.engine
                    made.withLock { $0 = true }
                }
                loop.object = RunLoop.current
                RunLoop.current.run(until: Date().addingTimeInterval(0.02))
            }
            done.signal()
        }.start()
        done.wait()
        #expect(made.withLock { $0 }, "the ticker was made while the loop ran")
        worker = nil
        // Without any listing of live tickers (which would sweep for gone owners): the thread's end itself
        // cancelled the ticker.
        #expect(
            eventually(timeout: 2) { engine.object == nil && loop.object == nil },
            "the engine, and the finished thread's run loop, outlived the thread and the ticker's owner")
    }

    /// A thread's end cancels every ticker of its loop (also one seen from that thread only, and one scheduled while it
    /// ends) and no other loop's. Each check runs on a fresh instance of the suite.
    @Test func aThreadEndCancelsTheTickersOfItsLoopAndNoOthers() throws {
        try Self().aTickerOfAFinishedThreadsLoopIsCancelled()
        try Self().aThreadEndCancelsEveryTickerOfItsLoop()
        try Self().aThreadEndCancelsTheTickersOfALoopSeenFromItsThreadOnly()
        Self().aTickerScheduledWhileTheThreadEndsIsCancelledToo()
        try Self().aThreadEndCancelsOnlyItsOwnLoopsTickers()
    }

    /// A ticker whose handle outlives the thread that scheduled it on its own run loop reads `cancelled`
    /// once the thread has ended, and its handler is freed then; the loop goes with the handle.
    func aTickerOfAFinishedThreadsLoopIsCancelled() throws {
        final class Captured: Sendable {}
        let base = TimeBase(.system)
        let loop = WeakBox<RunLoop>()
        let captured = WeakBox<Captured>()
        let ticks = Recorder<Int>()
        let done = DispatchSemaphore(value: 0)
        let handle = Locked<Ticker?>.make(nil)
        Thread {
            TimeBase.$override.withValue(base) {
                let object = Captured()
                captured.object = object
                RunLoop.current.perform {
                    let ticker = Ticker.schedule(.every(.milliseconds(5)), on: .current) { _ in
                        withExtendedLifetime(object) { ticks.append(1) }
                    }
                    handle.withLock { $0 = ticker }
                }
                loop.object = RunLoop.current
                RunLoop.current.run(until: Date().addingTimeInterval(0.02))
            }
            done.signal()
        }.start()
        done.wait()
        let ticker = try #require(handle.withLock { $0 })
        #expect(eventually { ticker.state == .cancelled }, "state \(ticker.state) after the thread ended")
        #expect(eventually { captured.object == nil }, "the handler was not freed")
        handle.withLock { $0 = nil }
        _ = consume ticker
        #expect(eventually { loop.object == nil }, "the finished thread's run loop is still referenced")
    }

    /// The rule holds per loop, whichever thread scheduled a ticker or made the engine first: a ticker that
    /// another thread scheduled on the loop before the loop's own thread used `.current` (so the engine was
    /// made elsewhere), and one another thread scheduled on the loop after, are both cancelled when the
    /// loop's thread ends.
    func aThreadEndCancelsEveryTickerOfItsLoop() throws {
        for engineMadeElsewhere in [false, true] {
            try Self().aThreadEndCancelsEveryTickerOfItsLoop(engineMadeElsewhere: engineMadeElsewhere)
        }
    }

    func aThreadEndCancelsEveryTickerOfItsLoop(engineMadeElsewhere: Bool) throws {
        let base = TimeBase(.system)
        let own = Locked<Ticker?>.make(nil)
        let thread = try StagedLoopThread {
            TimeBase.$override.withValue(base) {
                RunLoop.current.perform {
                    own.withLock { $0 = Ticker.schedule(.every(.seconds(60)), on: .current) { _ in } }
                }
                // Ends before any deadline: only `.current` told TimerKit which thread the loop is on.
                RunLoop.current.run(until: Date().addingTimeInterval(0.02))
            }
        }
        let loop = thread.loop
        var foreign: Ticker?
        if engineMadeElsewhere {
            foreign = TimeBase.$override.withValue(base) {
                Ticker.schedule(.every(.seconds(60)), on: .runLoop(loop)) { _ in }
            }
        }
        thread.proceed()
        if !engineMadeElsewhere {
            #expect(eventually { own.withLock { $0 } != nil }, "engineMadeElsewhere \(engineMadeElsewhere)")
            foreign = TimeBase.$override.withValue(base) {
                Ticker.schedule(.every(.seconds(60)), on: .runLoop(loop)) { _ in }
            }
        }
        thread.waitUntilEnded()
        let ownTicker = try #require(own.withLock { $0 }, "engineMadeElsewhere \(engineMadeElsewhere)")
        let foreignTicker = try #require(foreign, "engineMadeElsewhere \(engineMadeElsewhere)")
        #expect(
            eventually { ownTicker.state == .cancelled },
            "the loop's own ticker: \(ownTicker.state); engineMadeElsewhere \(engineMadeElsewhere)")
        #expect(
            eventually { foreignTicker.state == .cancelled },
            "the other thread's ticker: \(foreignTicker.state); engineMadeElsewhere \(engineMadeElsewhere)")
    }

    /// TimerKit learns a loop's thread from `.current` or from the loop serving one of its deadlines. A
    /// loop that served a deadline on its thread has its tickers cancelled when the thread ends, though no
    /// ticker used `.current`; a loop TimerKit never saw from its thread keeps its tickers live (they can
    /// never fire), and so does a ticker scheduled on a loop after its thread ended.
    func aThreadEndCancelsTheTickersOfALoopSeenFromItsThreadOnly() throws {
        for servesADeadline in [false, true] {
            try Self().aThreadEndCancelsTheTickersOfALoopSeenFromItsThreadOnly(servesADeadline: servesADeadline)
        }
    }

    func aThreadEndCancelsTheTickersOfALoopSeenFromItsThreadOnly(servesADeadline: Bool) throws {
        let base = TimeBase(.system)
        let served = Recorder<Int>()
        let thread = try StagedLoopThread {
            if servesADeadline {
                while served.count == 0 { RunLoop.current.run(until: Date().addingTimeInterval(0.01)) }
            } else {
                RunLoop.current.run(until: Date().addingTimeInterval(0.02))
            }
        }
        let loop = thread.loop
        let ticker = TimeBase.$override.withValue(base) {
            Ticker.schedule(.every(servesADeadline ? .milliseconds(1) : .seconds(60)), on: .runLoop(loop)) { _ in
                served.append(1)
            }
        }
        thread.proceed()
        thread.waitUntilEnded()
        if servesADeadline {
            #expect(
                eventually { ticker.state == .cancelled },
                "state \(ticker.state) after the thread ended; servesADeadline \(servesADeadline)")
        } else {
            // The thread has ended (its destructors run right after `done`): give them time to run.
            Thread.sleep(forTimeInterval: 0.1)
            #expect(
                ticker.state == .running,
                "a loop never seen from its thread: \(ticker.state); servesADeadline \(servesADeadline)")
        }
        let late = TimeBase.$override.withValue(base) {
            Ticker.schedule(.every(.seconds(60)), on: .runLoop(loop)) { _ in }
        }
        Thread.sleep(forTimeInterval: 0.05)
        #expect(
            late.state == .running,
            "scheduled after the thread ended: \(late.state); servesADeadline \(servesADeadline)")
        late.cancel()
        ticker.cancel()
    }

    /// A handler released as the thread ends that schedules another ticker on the same loop (its
    /// deinitialiser runs on the exiting thread): that ticker is cancelled too, so it does not pin the loop.
    func aTickerScheduledWhileTheThreadEndsIsCancelledToo() {
        final class Rescheduler: Sendable {
            let late: Locked<Ticker?>
            init(late: Locked<Ticker?>) { self.late = late }
            deinit {
                let ticker = Ticker.schedule(.every(.seconds(60)), on: .current) { _ in }
                late.withLock { $0 = ticker }
            }
        }
        final class Worker: Sendable {}
        let base = TimeBase(.system)
        let late = Locked<Ticker?>.make(nil)
        let loop = WeakBox<RunLoop>()
        let done = DispatchSemaphore(value: 0)
        let worker = Worker()  // outlives the thread, so only the thread's end stops the ticker
        Thread {
            TimeBase.$override.withValue(base) {
                RunLoop.current.perform {
                    // The handler holds the only reference to the rescheduler: it goes when the handler is
                    // released, on the exiting thread.
                    let rescheduler = Rescheduler(late: late)
                    _ = Ticker.schedule(.every(.seconds(60)), on: .current, owner: worker) { _, _ in
                        withExtendedLifetime(rescheduler) {}
                    }
                }
                loop.object = RunLoop.current
                RunLoop.current.run(until: Date().addingTimeInterval(0.02))
            }
            done.signal()
        }.start()
        done.wait()
        #expect(eventually { late.withLock { $0 } != nil }, "the released handler's owner scheduled nothing")
        // The late ticker is set from inside the thread's end, and cancelled by its next pass: wait for it.
        #expect(
            eventually { late.withLock { $0?.state } == .cancelled },
            "the ticker scheduled during the thread's end: \(String(describing: late.withLock { $0?.state }))")
        late.withLock { $0 = nil }
        #expect(eventually { loop.object == nil }, "the finished thread's run loop is still referenced")
        withExtendedLifetime(worker) {}
    }

    /// Ending a thread whose run loop has no ticker of TimerKit's, or whose engine went away already,
    /// cancels nothing elsewhere: a ticker of another thread's loop keeps firing.
    func aThreadEndCancelsOnlyItsOwnLoopsTickers() throws {
        let base = TimeBase(.system)
        let ticks = Recorder<Int>()
        let stop = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let survivor = Locked<Ticker?>.make(nil)
        let longLived = Thread {
            TimeBase.$override.withValue(base) {
                RunLoop.current.perform {
                    survivor.withLock {
                        $0 = Ticker.schedule(.every(.milliseconds(2)), on: .current) { _ in ticks.append(1) }
                    }
                    started.signal()
                }
                while stop.wait(timeout: .now()) == .timedOut {
                    RunLoop.current.run(until: Date().addingTimeInterval(0.01))
                }
            }
        }
        longLived.start()
        started.wait()
        let done = DispatchSemaphore(value: 0)
        for _ in 0..<5 {
            Thread {
                TimeBase.$override.withValue(base) {
                    let ticker = Ticker.schedule(.every(.milliseconds(5)), on: .current) { _ in }
                    RunLoop.current.run(until: Date().addingTimeInterval(0.01))
                    withExtendedLifetime(ticker) {}
                }
                done.signal()
            }.start()
            done.wait()
        }
        let ticker = try #require(survivor.withLock { $0 })
        #expect(ticker.state == .running)
        let before = ticks.count
        #expect(eventually { ticks.count > before + 2 }, "the long-lived loop's ticker stopped firing")
        ticker.cancel()
        stop.signal()
    }

    /// A pending "run loop is not running" check (due a second after the deadline, here a minute away)
    /// does not keep the engine of a loop whose last ticker was cancelled alive until then.
    func aPendingRunLoopCheckDoesNotKeepTheEngineAlive() {
        let parked = RunLoopThread(parked: true)
        defer { parked.stop() }
        let base = TimeBase(.system)
        let engine = WeakBox<TickerEngine>()
        TimeBase.$override.withValue(base) {
            let ticker = Ticker.schedule(.after(.seconds(60)), on: parked.context) { _ in }
            engine.object = ticker.engine
            #expect(Diagnostics.isWatchingRunLoop(of: ticker.engine), "the loop is not running: a check waits")
            ticker.cancel()
        }
        #expect(eventually { engine.object == nil }, "the pending check kept the engine alive")
    }

    /// Like a `Foundation.Timer`, TimerKit's timer leaves the run loop once the context's last ticker has
    /// stopped (and no handle to one is kept): a loop that nothing else keeps running returns from `run`.
    func aLoopKeptRunningOnlyByTickersReturnsOnceTheyStop() {
        LogCapture.install()
        defer { _ = LogCapture.take(containing: "EngineResourceTests.swift") }
        final class Owner: Sendable {}
        let owner = Owner()
        let fired = Recorder<Int>()
        let returned = DispatchSemaphore(value: 0)
        Thread {
            // Bound to an owner, no handle kept: the one-shot's engine goes once it has fired.
            Ticker.schedule(.after(.milliseconds(5)), on: .current, owner: owner) { _, _ in fired.append(1) }
            while RunLoop.current.run(mode: .default, before: .distantFuture) {}
            returned.signal()
        }.start()
        #expect(returned.wait(timeout: .now() + 10) == .success, "the loop kept running")
        #expect(fired.count == 1)
        withExtendedLifetime(owner) {}
    }

    /// An engine is kept between a sequence's ticks, makes its alarm only when first armed, and racing threads share
    /// one engine and one alarm. Each check runs on a fresh instance of the suite.
    @Test func anEngineAndItsAlarmAreMadeOnceAndKept() async {
        await Self().aTickSequenceKeepsItsEngineBetweenTicks()
        Self().anEngineMakesItsAlarmOnlyWhenFirstArmed()
        Self().racingThreadsShareOneEngineAndOneAlarm()
    }

    /// A tick sequence's iterator keeps the engine its waits use between two ticks (the ticker serving the
    /// waits stops while the consumer is away, as here; the engine would otherwise go and be made again).
    func aTickSequenceKeepsItsEngineBetweenTicks() async {
        var iterator = Ticker.ticks(.every(.milliseconds(2))).makeAsyncIterator()
        #expect(await iterator.next() != nil)
        let engine = WeakBox<TickerEngine>()
        engine.object = TimeBase.system.engine(for: EngineWait.context, clock: .continuous)
        try? await Task.sleep(for: .milliseconds(50))
        #expect(engine.object != nil, "the engine went between two ticks")
        #expect(await iterator.next() != nil)
    }

    /// An engine makes its alarm (a run loop's timer, a dispatch source, a thread) on its first arming,
    /// not when it is created: an engine that loses the race to be registered never arms, so it never adds
    /// a timer to a run loop.
    func anEngineMakesItsAlarmOnlyWhenFirstArmed() {
        let base = TimeBase(.system)
        let thread = RunLoopThread()
        defer { thread.stop() }
        let engine = base.engine(for: thread.context)
        #expect(!engine.hasAlarm)
        let ticker = TimeBase.$override.withValue(base) {
            Ticker.schedule(.after(.seconds(60)), on: thread.context) { _ in }
        }
        #expect(ticker.engine === engine)
        #expect(engine.hasAlarm)
        ticker.cancel()
    }

    /// Threads racing to schedule on a new context end up on one engine with one alarm.
    func racingThreadsShareOneEngineAndOneAlarm() {
        let base = TimeBase(.system)
        let thread = RunLoopThread()
        defer { thread.stop() }
        let tickers = Locked<[Ticker]>.make([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let ticker = TimeBase.$override.withValue(base) {
                Ticker.schedule(.after(.seconds(60)), on: thread.context) { _ in }
            }
            tickers.withLock { $0.append(ticker) }
        }
        let engines = Set(tickers.withLock { $0.map { ObjectIdentifier($0.engine) } })
        #expect(engines.count == 1)
        #expect(base.engines().count == 1)
        #expect(base.engines().first?.hasAlarm == true)
        tickers.withLock { $0.forEach { $0.cancel() } }
    }

    // MARK: Storage that shrinks

    private static let context = TickerContext.precise(label: "TimerKitTests.shrink")

    /// Storage and side tables shrink after bursts, and churn keeps the table compact and its invariants. Each check
    /// runs on a fresh instance of the suite.
    @Test func storageShrinksBackAfterBursts() throws {
        Self().storageShrinksAfterABurstWhileOneTickerStays()
        try Self().sideTablesShrinkAfterABurstOfDistinctSchedules()
        Self().churnKeepsTheTableCompactAndItsInvariants()
    }

    /// A burst of pending one-shots released while another ticker stays: the table gives its pages back
    /// and the heap its storage, and the survivor keeps its schedule.
    func storageShrinksAfterABurstWhileOneTickerStays() {
        for survivorFirst in [true, false] {
            Self().storageShrinksAfterABurstWhileOneTickerStays(survivorFirst: survivorFirst)
        }
    }

    func storageShrinksAfterABurstWhileOneTickerStays(survivorFirst: Bool) {
        let time = VirtualTime()
        let ticks = Recorder<Int>()
        let schedule = {
            Ticker.schedule(.every(.milliseconds(10)), on: Self.context) { tick in ticks.append(tick.skipped) }
        }
        var remaining: [Ticker] = []
        let survivor = time.run {
            let first = survivorFirst ? schedule() : nil
            remaining = (0..<5_000).map { _ in Ticker.schedule(.after(.seconds(600)), on: Self.context) { _ in } }
            return first ?? schedule()
        }
        let engine = time.base.engine(for: Self.context)
        // 32 + 32 + 64 + 128 + 256 records, then 9 pages of 512
        #expect(engine.storage().pages == 14, "survivorFirst \(survivorFirst)")
        #expect(engine.storageInvariantViolation() == nil, "survivorFirst \(survivorFirst)")
        // Released in a scattered order, as a burst of one-shots often is.
        var generator = ConcurrencyStressTests.SplitMix64(state: 0x0B0B)
        while !remaining.isEmpty {
            remaining.swapAt(Int.random(in: remaining.indices, using: &generator), remaining.count - 1)
            remaining.removeLast().cancel()
            if remaining.count % 500 == 0 {
                #expect(engine.storageInvariantViolation() == nil, "survivorFirst \(survivorFirst)")
            }
        }
        let after = engine.storage()
        #expect(after.occupied == 1, "survivorFirst \(survivorFirst)")
        // The first page, the survivor's, and at most one spare.
        #expect(after.pages <= 3, "survivorFirst \(survivorFirst)")
        #expect(after.slots <= 32 + 512 + 512, "survivorFirst \(survivorFirst)")
        // The heap's small storage (64 nodes asked for; the allocator may round the block up by a node or
        // two, depending on what else the process holds), not the burst's 5,000.
        #expect(after.heapCapacity < DeadlineHeap.smallCapacity + 8, "survivorFirst \(survivorFirst)")
        #expect(engine.storageInvariantViolation() == nil, "survivorFirst \(survivorFirst)")
        let before = ticks.count
        time.advance(by: .seconds(1))
        #expect(ticks.count - before == 100, "survivorFirst \(survivorFirst)")
        #expect(ticks.values.allSatisfy { $0 == 0 }, "survivorFirst \(survivorFirst)")
        withExtendedLifetime(survivor) {}
    }

    /// A burst of one-shots from one line of code whose delays all differ (as a debouncer's or a throttler's
    /// wake-ups do: each is "the deadline minus now"), some with a manual fire pending, released while
    /// another ticker stays: no storage of the engine keeps the burst's capacity. The side tables kept by
    /// slot (schedule numbers that differ from the site's, pending manual fires) are dictionaries, which
    /// never shrink by themselves: about 95 bytes per released ticker stayed (a million one-shots: +90 MiB
    /// of heap; a million debouncers with a pending value: +72 MiB). They are now rebuilt smaller as they
    /// empty.
    func sideTablesShrinkAfterABurstOfDistinctSchedules() throws {
        let time = VirtualTime()
        let burst = 5_000
        var survivor: Ticker?
        var remaining: [Ticker] = []
        time.run {
            survivor = Ticker.schedule(.every(.milliseconds(10)), on: Self.context) { _ in }
            for index in 0..<burst {
                let ticker = Ticker.schedule(.after(.seconds(600) + .nanoseconds(index)), on: Self.context) { _ in }
                if index % 2 == 0 {
                    ticker.pause()
                    ticker.fire()
                }
                remaining.append(ticker)
            }
        }
        let engine = time.base.engine(for: Self.context)
        let grown = try #require(EngineCollections.largestCapacity(in: engine))
        #expect(grown.capacity >= burst, "the probe does not reach the side tables (\(grown.path))")
        remaining.forEach { $0.cancel() }
        remaining.removeAll()
        #expect(engine.storage().occupied == 1)
        let kept = try #require(EngineCollections.largestCapacity(in: engine))
        // The first page, one spare page, the heap's small storage: nothing near the burst's 5,000.
        #expect(kept.capacity <= 2 * SlotTable.pageSize, "\(kept.path) keeps room for \(kept.capacity)")
        withExtendedLifetime(survivor) {}
    }

    /// Tickers gather in the lowest free slots, so a page emptied by churn is reused before a new one is
    /// made; the table's invariants hold through random creation and release.
    func churnKeepsTheTableCompactAndItsInvariants() {
        let time = VirtualTime()
        var generator = ConcurrencyStressTests.SplitMix64(state: 0xC4A5)
        var live: [Ticker] = []
        let engine = time.base.engine(for: Self.context)
        for round in 0..<4_000 {
            if live.isEmpty || (live.count < 1_500 && Int.random(in: 0..<3, using: &generator) != 0) {
                let delay = Int.random(in: 1...50, using: &generator)
                live.append(time.run { Ticker.schedule(.after(.seconds(delay)), on: Self.context) { _ in } })
            } else {
                live.swapAt(Int.random(in: live.indices, using: &generator), live.count - 1)
                live.removeLast().cancel()
            }
            if round % 250 == 0 {
                #expect(engine.storageInvariantViolation() == nil)
                // Never more slots than the live tickers need, plus one page of each kind that is filling up.
                #expect(engine.storage().slots <= live.count + 2 * SlotTable.pageSize)
            }
        }
        #expect(engine.storageInvariantViolation() == nil)
        withExtendedLifetime(live) {}
    }
}

/// The invariant checks see a broken table.
@Suite struct StorageInvariantCheckTests {
    init() { LogCapture.install() }

    /// The invariant check reports a record marked free behind the table's back and a live record without its handler.
    /// Each check runs on a fresh instance of the suite.
    @Test func aDamagedTableIsReported() {
        Self().aRecordMarkedFreeBehindTheTablesBackIsReported()
        Self().aLiveRecordWithoutItsHandlerIsReported()
    }

    func aRecordMarkedFreeBehindTheTablesBackIsReported() {
        var machine = TickerStateMachine()
        let origin = TickerOrigin(fileID: #fileID, line: #line, ownerType: nil, binding: .handle)
        let times = TickSchedule.after(.seconds(1)).times
        let engine = ContractProbe()
        let ids = (0..<40).map { _ in
            machine.add(
                times: times, origin: origin, owner: nil, startsImmediately: true, handler: .tick { _ in },
                finishedAtOnce: false, now: 0, keepAlive: engine
            ).id
        }
        #expect(machine.invariantViolation() == nil)
        machine[ids[35].slot].isOccupied = false
        #expect(machine.invariantViolation() != nil)
    }

    func aLiveRecordWithoutItsHandlerIsReported() {
        var machine = TickerStateMachine()
        let origin = TickerOrigin(fileID: #fileID, line: #line, ownerType: nil, binding: .handle)
        let id = machine.add(
            times: TickSchedule.after(.seconds(1)).times, origin: origin, owner: nil, startsImmediately: false,
            handler: .tick { _ in }, finishedAtOnce: false, now: 0, keepAlive: ContractProbe()
        ).id
        #expect(machine.invariantViolation() == nil)
        machine[id.slot].handler = nil
        #expect(machine.invariantViolation() != nil)
    }
}

/// A weak reference a test can fill on another thread and read after joining it.
final class WeakBox<Object: AnyObject>: @unchecked Sendable {
    // Invariant (tests only): written by one thread before it signals, read by the test after waiting.
    weak var object: Object?
}

/// Listing live tickers reads each engine a slice at a time, and a cheap count serves monitors.
@Suite struct LiveTickerListingTests {
    init() { LogCapture.install() }

    private static let context = TickerContext.dispatch(DispatchQueue(label: "TimerKitTests.listing"))

    final class Owner: Sendable {}

    /// More tickers than one slice, with dead owners scattered across the slices: every live ticker is
    /// listed once, the ones whose owner is gone are stopped and left out, and the count follows.
    @Test func aListingSpanningSlicesIsCompleteAndSweepsDeadOwners() {
        let time = VirtualTime()
        let total = TickerEngine.listingSlice * 3 + 100
        var owners: [Owner?] = (0..<total).map { _ in Owner() }
        var handles: [Ticker] = []
        time.run {
            for index in 0..<total {
                if index % 7 == 0 {
                    Ticker.schedule(.every(.seconds(60)), on: Self.context, owner: owners[index]!) { _, _ in }
                } else {
                    handles.append(Ticker.schedule(.every(.seconds(60)), on: Self.context) { _ in })
                }
            }
        }
        let bound = (0..<total).filter { $0 % 7 == 0 }
        for (position, index) in bound.enumerated() where position % 2 == 0 { owners[index] = nil }
        let gone = (bound.count + 1) / 2
        #expect(time.run { TickerDiagnostics.liveTickerCount } == total, "the count stops nothing")
        let listed = time.run { TickerDiagnostics.liveTickers() }
        #expect(listed.count == total - gone)
        #expect(listed.filter { $0.binding == "owner" }.count == bound.count - gone)
        #expect(time.run { TickerDiagnostics.liveTickerCount } == total - gone)
        handles.removeAll()
        #expect(time.run { TickerDiagnostics.liveTickerCount } == bound.count - gone)
        withExtendedLifetime(owners) {}
    }
}

/// The byte counts the documentation and comments quote, checked against the layouts they describe.
@Suite struct StorageLayoutTests {
    init() { LogCapture.install() }

    @Test func theRecordIs64BytesAndAHeapNode16() {
        #expect(MemoryLayout<TickerRecord>.size == 64)
        #expect(MemoryLayout<TickerRecord>.stride == 64)
        // The record's doc comment draws its layout: a 17-byte handler, then the packed byte.
        #expect(MemoryLayout<TickHandler?>.size == 17)
        #expect(MemoryLayout<TickerRecord>.offset(of: \.handler) == 0)
        #expect(MemoryLayout<TickerRecord>.offset(of: \.serial) == 20)
        #expect(MemoryLayout<TickerRecord>.offset(of: \.site) == 40)
        #expect(MemoryLayout<TickerRecord>.offset(of: \.createdAt) == 48)
        #expect(MemoryLayout<HeapNode>.size == 16)
        #expect(MemoryLayout<HeapNode>.stride == 16)
    }

    /// Every record of every page starts on a cache line, so that it fills exactly one.
    @Test func recordsStartOnCacheLines() {
        var table = SlotTable()
        let site = TickerSite(
            TickerOrigin(fileID: #fileID, line: #line, ownerType: nil, binding: .handle),
            times: TickSchedule.after(.seconds(1)).times)
        // Pages 0 to 5: the small ones and a full-sized one.
        let slots = (0..<600).map { _ in
            table.insert(TickerRecord(phase: .idle, site: site, owner: nil, handler: nil, now: 0))
        }
        #expect(table.usage.allocatedPages == 6)
        for slot in slots {
            #expect(Int(bitPattern: table.address(of: slot)) % 64 == 0, "slot \(slot)")
        }
    }

    @Test func aSchedulesNumbersAre32Bytes() {
        #expect(MemoryLayout<ScheduleTimes>.size == 32)
    }

    /// A ticker whose schedule numbers differ from its call site's shared ones gets a site of its own:
    /// "about 100 bytes" (an 88-byte instance, the origin then the numbers after the 16-byte header, in a
    /// 96-byte block of glibc's allocator), and serving it reads its own numbers.
    @Test func aSiteOfItsOwnIsAbout100Bytes() {
        #expect(MemoryLayout<TickerOrigin>.stride == 40)
        #expect(16 + MemoryLayout<TickerOrigin>.stride + MemoryLayout<ScheduleTimes>.size == 88)
        var state = TickerStateMachine()
        let keepAlive = Recorder<Int>()
        let origin = TickerOrigin(fileID: #fileID, line: #line, ownerType: nil, binding: .handle)
        let ids = [1, 1, 3].map { seconds in
            state.add(
                times: TickSchedule.every(.seconds(seconds)).times, origin: origin, owner: nil,
                startsImmediately: true, handler: .tick { _ in }, finishedAtOnce: false, now: 0, keepAlive: keepAlive
            ).id
        }
        #expect(state[ids[0].slot].site === state[ids[1].slot].site)
        #expect(state[ids[2].slot].site !== state[ids[0].slot].site)
        #expect(state.storage.sites == 1)
        #if os(Linux)
            // Measured, not computed: the own site's allocation is a 96-byte glibc block (88 usable bytes),
            // or a somewhat larger free chunk glibc reuses for it (104 usable seen in a fresh-clone run).
            let usable = mallocUsableSize(Unmanaged.passUnretained(state[ids[2].slot].site).toOpaque())
            #expect((88...120).contains(usable), "\(usable) usable bytes")
        #endif
        #expect(state.nextDeadline(ofSlot: ids[2].slot) == 3_000_000_000)
        #expect(state.nextDeadline(ofSlot: ids[1].slot) == 1_000_000_000)
        #expect(state.invariantViolation() == nil)
        // A freed slot lets its own site go at once (the others keep the table, and the slot, alive).
        weak let ownSite = state[ids[2].slot].site
        _ = state.handle(.cancel, on: ids[2], now: 0)
        _ = state.handleReleased(ids[2], binding: .handle)
        let stillOccupied = state.isOccupied(ids[2].slot)
        #expect(!stillOccupied)
        #expect(ownSite == nil)
        #expect(state.invariantViolation() == nil)
    }

    /// A `Ticker` instance is its 16-byte object header and its stored properties (the engine, the slot
    /// and binding, the serial: 16 bytes, no weak owner of its own), which glibc's allocator serves from a
    /// 48-byte block (40 usable bytes).
    @Test func aTickerHandleIs32Bytes() {
        let ticker = VirtualTime().run {
            Ticker.schedule(.after(.seconds(1)), on: .precise(label: "TimerKitTests.handleSize")) { _ in }
        }
        defer { ticker.cancel() }
        let stored = Mirror(reflecting: ticker).children.map { "\(type(of: $0.value))" }
        #expect(stored == ["Unmanaged<TickerEngine>", "UInt32", "UInt32"])
        #expect(MemoryLayout<Unmanaged<TickerEngine>>.size + 2 * MemoryLayout<UInt32>.size == 16)
        #if os(Linux)
            // Measured: the handle's allocation (a 33-byte or larger instance would take a 48-byte block too,
            // but not with the three stored properties above).
            // A sanitizer's allocator sizes blocks its own way: only glibc's is measured.
            if !SanitizerCheck.isActive {
                #expect(mallocUsableSize(Unmanaged.passUnretained(ticker).toOpaque()) == 40)
            }
        #endif
    }

    /// The heap grows by an eighth of its size (plus 64 nodes): whatever the number pending, its spare
    /// capacity is at most an eighth of a node (2 bytes) per ticker, plus 64 nodes.
    @Test
    func theHeapsSpareCapacityIsAtMostAnEighth() {
        for count in [1_000, 4_321, 20_000] {
            Self().theHeapsSpareCapacityIsAtMostAnEighth(count: count)
        }
    }

    func theHeapsSpareCapacityIsAtMostAnEighth(count: Int) {
        let time = VirtualTime()
        let context = TickerContext.precise(label: "TimerKitTests.heapGrowth")
        let tickers = time.run { (0..<count).map { _ in Ticker.schedule(.after(.seconds(60)), on: context) { _ in } } }
        let capacity = time.base.engine(for: context).storage().heapCapacity
        #expect(capacity >= count, "count \(count)")
        // Allocators may round a block up by a few bytes: allow one more node.
        #expect(
            capacity <= count + count / DeadlineHeap.growthDivisor + DeadlineHeap.smallCapacity + 1, "count \(count)")
        #expect(DeadlineHeap.growthDivisor == 8, "count \(count)")
        tickers.forEach { $0.cancel() }
    }

    /// "About 135 bytes" per pending one-shot: its record and its heap position in the table's pages, its
    /// heap node and the heap's spare capacity, and its handle's allocation, for 10,000 pending tickers
    /// (the engine's own count of the slots and heap nodes it holds; the handle's block measured).
    @Test func aPendingTickerCostsAbout135Bytes() throws {
        let count = 10_000
        let time = VirtualTime()
        let context = TickerContext.precise(label: "TimerKitTests.pendingCost")
        let tickers = time.run { (0..<count).map { _ in Ticker.schedule(.after(.seconds(60)), on: context) { _ in } } }
        defer { tickers.forEach { $0.cancel() } }
        let storage = time.base.engine(for: context).storage()
        let slotBytes = MemoryLayout<TickerRecord>.stride + MemoryLayout<Int32>.stride
        let engineBytes = storage.slots * slotBytes + storage.heapCapacity * MemoryLayout<HeapNode>.stride
        #if os(Linux)
            // glibc keeps an 8-byte size field in front of each block.
            let handleBytes = mallocUsableSize(Unmanaged.passUnretained(try #require(tickers.first)).toOpaque()) + 8
        #else
            let handleBytes = 48
        #endif
        let perTicker = Double(engineBytes) / Double(count) + Double(handleBytes)
        #expect(SanitizerCheck.isActive || (130...140).contains(perTicker), "\(perTicker) bytes per pending ticker")
    }
}

/// The collections an engine's state machine holds (as the machine lists them: a noncopyable machine cannot
/// be reflected).
enum EngineCollections {
    /// The collection with the largest reserved capacity in `engine`'s state machine (by its path of
    /// property names).
    static func largestCapacity(in engine: TickerEngine) -> (path: String, capacity: Int)? {
        engine.collectionCapacities().max { $0.capacity < $1.capacity }
    }
}

/// A thread in stages, for tests of what a thread's end does to its run loop's tickers: it publishes its
/// run loop and waits; `proceed()` lets it run `body` (on the thread, which then ends); `waitUntilEnded()`
/// waits for `body` to return (the thread's destructors run right after).
private struct StagedLoopThread {
    let loop: RunLoop
    private let proceeding = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)

    /// Starts the thread and waits until its run loop is known.
    init(_ body: @escaping @Sendable () -> Void) throws {
        let loopBox = Locked<RunLoopReference?>.make(nil)
        let ready = DispatchSemaphore(value: 0)
        let (proceeding, done) = (proceeding, done)
        Thread {
            loopBox.withLock { $0 = RunLoopReference(RunLoop.current) }
            ready.signal()
            proceeding.wait()
            body()
            done.signal()
        }.start()
        ready.wait()
        loop = try #require(loopBox.withLock { $0 }).runLoop
    }

    func proceed() { proceeding.signal() }

    func waitUntilEnded() { done.wait() }
}

/// Whether a sanitizer's allocator replaces glibc's (its block sizes are not glibc's): the process has
/// ThreadSanitizer's or AddressSanitizer's runtime linked in, whatever its environment says.
enum SanitizerCheck {
    static let isActive: Bool = {
        #if os(Linux)
            dlsym(nil, "__tsan_init") != nil || dlsym(nil, "__asan_init") != nil
        #else
            false
        #endif
    }()
}
