import Foundation
import Testing

@testable import TimerKit

/// The dispatch context's wake-ups (on Linux a TimerKit thread that enters the queue synchronously): the
/// handler runs on the queue, never beside a block the queue is running. Serialized: the thread-limit test
/// takes every thread slot for a moment, which would give the other test's context a dispatch source.
@Suite(.serialized) struct DispatchAlarmTests {
    @Test func handlersRunOnTheQueueAndWaitForTheBlockItIsRunning() throws {
        // On Linux the context must get one of the process's thread slots, which other suites' dispatch
        // contexts may all hold for a moment: a ticker far away makes the context's alarm (and keeps it),
        // and a context that got a dispatch source instead is dropped and tried again once a slot is free.
        let (queue, keeper) = try Self.queueWithItsOwnThread()
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 7)
        let inBlock = Locked<Bool>.make(false)
        let seen = Locked<[(onQueue: Bool, duringBlock: Bool, thread: String)]>.make([])
        let done = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        // The queue is busy with a block that waits for the test; the ticker falls due meanwhile.
        queue.async {
            inBlock.withLock { $0 = true }
            started.signal()
            release.wait()
            inBlock.withLock { $0 = false }
        }
        started.wait()
        // Unbounded: the first delivery, after the block, stands for every deadline that passed meanwhile.
        let ticker = Ticker.schedule(.every(.milliseconds(5)), on: .dispatch(queue)) { _ in
            let count = seen.withLock { state -> Int in
                state.append(
                    (
                        DispatchQueue.getSpecific(key: key) == 7, inBlock.withLock { $0 },
                        ThreadAlarm.currentThreadName
                    ))
                return state.count
            }
            if count == 3 { done.signal() }
        }
        // Long enough for a wrong alarm to deliver beside the block; the assertions do not depend on it.
        Thread.sleep(forTimeInterval: 0.05)
        release.signal()
        #expect(done.wait(timeout: .now() + 10) == .success)
        ticker.cancel()
        let result = seen.withLock { $0 }
        #expect(result.count >= 3)
        #expect(result.allSatisfy { $0.onQueue }, "a delivery ran off the queue")
        #expect(result.allSatisfy { !$0.duringBlock }, "a delivery ran beside the queue's block")
        #if os(Linux)
            // Woken by a TimerKit thread, which runs the delivery itself when the queue is free.
            #expect(result.contains { $0.thread == ThreadAlarm.threadName(DispatchAlarm.threadLabel) }, "\(result)")
        #endif
        withExtendedLifetime(ticker) {}
        keeper.cancel()
    }

    /// A queue whose dispatch context is served by a TimerKit thread (on Linux; elsewhere by its dispatch
    /// source), and the ticker that keeps that alarm. Tries for up to 10 s of real time while every thread
    /// slot is taken.
    private static func queueWithItsOwnThread() throws -> (DispatchQueue, Ticker) {
        for attempt in 0..<200 {
            let queue = DispatchQueue(label: "TimerKitTests.dispatch.alarm.\(attempt)")
            let keeper = Ticker.schedule(.after(.seconds(600)), on: .dispatch(queue)) { _ in }
            #if os(Linux)
                let alarm = try #require(systemAlarm(of: .dispatch(queue)) as? DispatchAlarm)
                guard alarm.isThreadBacked else {
                    keeper.cancel()
                    Thread.sleep(forTimeInterval: 0.05)
                    continue
                }
            #endif
            return (queue, keeper)
        }
        throw ThreadSlotsBusy()
    }

    private struct ThreadSlotsBusy: Error, CustomStringConvertible {
        var description: String {
            "no dispatch thread slot came free in 10 s: other contexts held all \(DispatchAlarm.threadLimit)"
        }
    }

    #if os(Linux)
        /// The system alarm serving `context` on the system time base (read from its shared alarm, which
        /// keeps it private), or nil when the context has none.
        private static func systemAlarm(of context: TickerContext) -> (any Alarm)? {
            guard let shared = TimeBase.system.alarmRegistry.withLock({ $0.object(for: context.key) }) else {
                return nil
            }
            return Mirror(reflecting: shared).children.first { $0.label == "alarm" }?.value as? any Alarm
        }
    #endif

    /// Dispatch queues are meant to be numerous: at most `threadLimit` contexts are served by a thread at
    /// once; the others get a dispatch source, and still deliver on their queue. (Other tests running in
    /// parallel may hold slots too, so only the bound is asserted, plus that 20 alarms need a source.)
    @Test func onlySoManyDispatchContextsGetAThread() {
        let count = DispatchAlarm.threadLimit + 4
        let fired = DispatchGroup()
        let alarms = (0..<count).map { index in
            let queue = DispatchQueue(label: "TimerKitTests.dispatch.limit.\(index)")
            fired.enter()
            let once = Locked<Bool>.make(false)
            return DispatchAlarm(queue: queue, leewayNanoseconds: 0, strict: false) {
                dispatchPrecondition(condition: .onQueue(queue))
                if once.withLock({ state in
                    defer { state = true }; return !state
                }) {
                    fired.leave()
                }
            }
        }
        #expect(alarms.filter(\.isThreadBacked).count <= DispatchAlarm.threadLimit)
        if Platform.dispatchContextsMayUseThreads {
            #expect(alarms.contains { !$0.isThreadBacked }, "more contexts than thread slots, all thread-backed")
        } else {
            #expect(alarms.allSatisfy { !$0.isThreadBacked }, "a dispatch context got a thread on Apple platforms")
        }
        #expect(DispatchAlarm.threadSlotsInUse <= DispatchAlarm.threadLimit)
        // Every kind delivers, on its queue.
        let now = TimeBase.Source.system.now()
        for alarm in alarms { alarm.arm(at: now) }
        #expect(fired.wait(timeout: .now() + 10) == .success)
        for alarm in alarms { alarm.shutDown() }
        // The slots are given back: a later alarm gets a thread again. (Polled with a bound: alarms of tests
        // running in parallel may hold slots for a moment; leaked slots would never come back.)
        #if os(Linux)
            var gotThread = false
            for _ in 0..<100 where !gotThread {
                let alarm = DispatchAlarm(
                    queue: DispatchQueue(label: "TimerKitTests.dispatch.limit.again"),
                    leewayNanoseconds: 0, strict: false
                ) {}
                gotThread = alarm.isThreadBacked
                alarm.shutDown()
                if !gotThread { Thread.sleep(forTimeInterval: 0.05) }
            }
            #expect(gotThread, "thread slots were not given back")
        #endif
    }

    #if os(Linux)
        /// Tolerance is the engine's business (which deadlines one wake-up serves); it never reaches the
        /// thread's sleep, so it can never make a wake-up late. The thread of a dispatch context sleeps with
        /// the context's leeway as timer slack: 1 ns when the leeway is zero or the context is strict.
        @Test
        func theThreadSleepsWithTheLeewayAsSlackWhateverTheTolerance() {
            for (leeway, strict, slack) in [
                (leeway: Duration.zero, strict: false, slack: 1),
                (leeway: Duration.zero, strict: true, slack: 1),
                (leeway: Duration.milliseconds(3), strict: true, slack: 1),
                (leeway: Duration.milliseconds(3), strict: false, slack: 3_000_000),
            ] {
                Self().theThreadSleepsWithTheLeewayAsSlackWhateverTheTolerance(
                    leeway: leeway, strict: strict, slack: slack)
            }
        }

        func theThreadSleepsWithTheLeewayAsSlackWhateverTheTolerance(leeway: Duration, strict: Bool, slack: Int) {
            let queue = DispatchQueue(label: "TimerKitTests.dispatch.slack")
            let seen = Locked<[(thread: String, slack: Int, slice: Int64)]>.make([])
            let done = DispatchSemaphore(value: 0)
            let ticker = Ticker.schedule(
                .every(.milliseconds(5), tolerance: .milliseconds(2)),
                on: .dispatch(queue, leeway: leeway, strict: strict)
            ) { _ in
                let count = seen.withLock { state -> Int in
                    state.append(
                        (
                            ThreadAlarm.currentThreadName, ThreadAlarm.currentTimerSlack,
                            ThreadAlarm.currentSchedulerSlice
                        ))
                    return state.count
                }
                if count == 3 { done.signal() }
            }
            #expect(done.wait(timeout: .now() + 10) == .success, "leeway \(leeway), strict \(strict), slack \(slack)")
            ticker.cancel()
            let onThread = seen.withLock { $0 }.filter {
                $0.thread == ThreadAlarm.threadName(DispatchAlarm.threadLabel)
            }
            // Delivered by the context's thread (the queue is idle, so `sync` runs there).
            #expect(!onThread.isEmpty, "\(seen.withLock { $0 }); leeway \(leeway), strict \(strict), slack \(slack)")
            #expect(
                onThread.allSatisfy { $0.slack == slack },
                "\(onThread); leeway \(leeway), strict \(strict), slack \(slack)")
            // The dispatch context's thread keeps the system's scheduler slice (only precise threads ask
            // for a short one).
            #expect(
                onThread.allSatisfy { $0.slice != Int64(ThreadAlarm.preciseSchedulerSliceNanoseconds) },
                "\(onThread); leeway \(leeway), strict \(strict), slack \(slack)")
        }
    #endif
}
