import Foundation
import Testing

@testable import TimerKit

@Suite struct PreciseContextTests {
    @Test func handlersRunOnTheLabelledThreadOneAtATimeInDeadlineOrder() {
        let label = "TimerKitTests.precise.order.\(UUID().uuidString)"
        let context = TickerContext.precise(label: label)
        let seen = Locked<[(Int, String)]>.make([])
        let done = DispatchSemaphore(value: 0)
        // The engine and its thread exist before the measured tickers, whose deadlines are far enough apart
        // (40 ms) that creating them in a loop cannot reorder them.
        let warmUp = DispatchSemaphore(value: 0)
        let first = Ticker.schedule(.after(.zero), on: context) { _ in warmUp.signal() }
        #expect(warmUp.wait(timeout: .now() + 10) == .success)
        withExtendedLifetime(first) {}
        // Created in reverse order, 40 ms apart; delivered in deadline order. The order expected is that of
        // the deadlines the engine gave them (a pause while creating them, on a loaded machine, may
        // reorder the deadlines themselves, never their delivery).
        let tickers = (1...5).reversed().map { n in
            Ticker.schedule(.after(.milliseconds(n * 40)), on: context) { _ in
                let count = seen.withLock { state -> Int in
                    state.append((n, ThreadAlarm.currentThreadName))
                    return state.count
                }
                if count == 5 { done.signal() }
            }
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        let result = seen.withLock { $0 }
        // Each one-shot's deadline: its creation instant plus its delay (the kept handles keep the records).
        let deadlines = zip((1...5).reversed(), tickers).map { n, ticker in
            (n, ticker.snapshot!.createdAt.advanced(by: .milliseconds(n * 40)))
        }
        let inDeadlineOrder = deadlines.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.map(\.0)
        #expect(result.map(\.0) == inDeadlineOrder)
        #expect(result.allSatisfy { $0.1 == ThreadAlarm.threadName(label) }, "\(result.map(\.1))")
        #expect(context.description == "precise(\(label))")
        withExtendedLifetime(tickers) {}
    }

    @Test func theSharedContextIsOneThreadAndCancelInsideTheHandlerIsExact() {
        let fired = Locked<Int>.make(0)
        let done = DispatchSemaphore(value: 0)
        let box = ContractBox<Ticker>()
        // Started only once the handler can reach its own handle.
        box.set(
            Ticker.schedule(.every(.milliseconds(1)), on: .precise, startsImmediately: false) { _ in
                let count = fired.withLock { count -> Int in
                    count += 1
                    return count
                }
                if count == 3 {
                    box.value?.cancel()
                    done.signal()
                }
            })
        box.value?.start()
        #expect(done.wait(timeout: .now() + 10) == .success)
        Thread.sleep(forTimeInterval: 0.02)
        #expect(fired.withLock { $0 } == 3)
        #expect(box.value?.state == .cancelled)
        #expect(TickerContext.precise == TickerContext.precise(label: "TimerKit.precise"))
        box.set(nil)
    }

    #if os(Linux)
        /// A precise thread sleeps with 1 ns of timer slack and asks the scheduler for a short slice, which
        /// the kernel keeps where it supports slices for the default policy (6.12 on): found out on a thread
        /// of the test's own, so that the expectation holds on older kernels too. A thread created from a
        /// precise handler starts with the system's slice, not the precise one.
        @Test func thePreciseThreadAsksForNoSlackAndAShortSchedulerSliceItsChildrenDoNotInherit() {
            let systemSlice = Locked<Int64?>.make(nil)
            let kernelKeepsSlices = Locked<Bool?>.make(nil)
            let probe = Thread {
                systemSlice.withLock { $0 = ThreadAlarm.currentSchedulerSlice }
                kernelKeepsSlices.withLock {
                    $0 = ThreadAlarm.requestSchedulerSlice(ThreadAlarm.preciseSchedulerSliceNanoseconds)
                }
            }
            probe.start()
            let label = "TimerKitTests.precise.slice.\(UUID().uuidString)"
            let seen = Locked<(slack: Int, slice: Int64, child: Int64?)?>.make(nil)
            let done = DispatchSemaphore(value: 0)
            let ticker = Ticker.schedule(.after(.zero), on: .precise(label: label)) { _ in
                let child = Locked<Int64?>.make(nil)
                let childDone = DispatchSemaphore(value: 0)
                Thread {
                    child.withLock { $0 = ThreadAlarm.currentSchedulerSlice }
                    childDone.signal()
                }.start()
                childDone.wait()
                seen.withLock {
                    $0 = (ThreadAlarm.currentTimerSlack, ThreadAlarm.currentSchedulerSlice, child.withLock { $0 })
                }
                done.signal()
            }
            #expect(done.wait(timeout: .now() + 10) == .success)
            withExtendedLifetime(ticker) {}
            while kernelKeepsSlices.withLock({ $0 }) == nil { Thread.sleep(forTimeInterval: 0.001) }
            let preciseSlice = Int64(ThreadAlarm.preciseSchedulerSliceNanoseconds)
            let observed = seen.withLock { $0 }
            #expect(observed?.slack == 1)
            if kernelKeepsSlices.withLock({ $0 }) == true {
                #expect(observed?.slice == preciseSlice)
                #expect(observed?.child == systemSlice.withLock { $0 })
                #expect(observed?.child != preciseSlice)
            } else {
                #expect(observed?.slice == systemSlice.withLock { $0 })
            }
        }
    #endif
}
