import Foundation
import Testing

@testable import TimerKit

/// The dispatch context's wake-ups (on Linux a TimerKit thread that enters the queue synchronously): the
/// handler runs on the queue, never beside a block the queue is running.
@Suite struct DispatchAlarmTests {
    @Test func handlersRunOnTheQueueAndWaitForTheBlockItIsRunning() {
        let queue = DispatchQueue(label: "TimerKitTests.dispatch.alarm")
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
    }
}
