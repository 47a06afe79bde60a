import Dispatch
import Foundation
import Testing
import TimerKit
import TimerKitTestSupport

@testable import TimerKitTesting

/// What an advance does when the code under test keeps it waiting: a consumer that awaits something else,
/// a queue or main actor blocked while another thread advances. The waiting periods (ten seconds of real
/// time by default) are shortened per `VirtualTime` here, so that these tests take a fraction of a second.
@Suite struct WaitingLimitsTests {
    init() { LogCapture.install() }

    /// A consumer resumed by a deadline that then awaits something other than its tick sequence: the
    /// advance waits for it for the grace period, logs a warning and goes on to its target.
    @Test func anAdvanceWaitsForABlockedConsumerOnlyTheGraceThenWarnsAndGoesOn() async {
        let time = VirtualTime(consumerGrace: .milliseconds(200), deliveryNotice: VirtualTime.deliveryNotice)
        // An odd offset makes the instants this test's warnings name its own among tests run in parallel.
        await time.advance(by: .nanoseconds(7_654_321))
        let mark = "007654321 ns)"
        let gate = Gate()
        let values = Log()
        let consumer = time.run {
            Task {
                for await tick in Ticker.ticks(.every(.seconds(1), count: 3)) {
                    values.append("\(tick.index) skipped \(tick.skipped)")
                    await gate.wait()  // something other than the tick sequence
                }
            }
        }
        await time.waitForPendingTickers()
        let wakeUps = await time.advance(by: .seconds(3))
        // The advance returned although the consumer still waits at the gate, and moved time to its target.
        #expect(values.all == ["1 skipped 0"])
        #expect(wakeUps == 1, "the blocked consumer asked for no further deadline")
        #expect(time.now == VirtualTime.start.advanced(by: .nanoseconds(7_654_321) + .seconds(3)))
        let warnings = LogCapture.lines(containing: mark)
        #expect(warnings.count == 1, "one warning per advance: \(warnings)")
        #expect(
            warnings.first?.contains(
                "a consumer resumed at TickInstant(2007654321 ns) neither waited on virtual time again nor ended "
                    + "within 0.2 seconds of real time; advancing went on without it") == true, "\(warnings)")
        // Let it go: its late `next()` reports the deadline it missed, and the sequence ends.
        gate.open()
        await consumer.value
        #expect(values.all == ["1 skipped 0", "3 skipped 1"])
    }

    /// A dispatch handler's queue blocked while another thread advances: the advance logs what it waits
    /// for and the fix, and completes once the queue is free.
    @Test func aDeliveryToABlockedQueueIsReportedAndCompletesOnceTheQueueIsFree() async {
        let label = "WaitingLimitsTests.blocked-queue"
        let queue = DispatchQueue(label: label)
        await Self.blockWhileAnotherThreadAdvances(
            on: .dispatch(queue), block: queue,
            expecting: "advancing waits for the queue \"\(label)\" to run a handler that is due, and it has not "
                + "run it in 0.1 seconds of real time. If the queue \"\(label)\" is waiting for this advance, it "
                + "never will: do not block that queue while advancing, or advance from it.")
    }

    /// The same for a main-actor handler when the main actor is blocked.
    @Test func aDeliveryToABlockedMainActorIsReportedAndCompletesOnceItIsFree() async {
        await Self.blockWhileAnotherThreadAdvances(
            on: .main, block: .main,
            expecting: "advancing waits for the main actor to run a handler that is due, and it has not run it in "
                + "0.1 seconds of real time. If the main actor is waiting for this advance, it never will: "
                + "advance from the main actor")
    }

    /// Blocks `queue` and, from there, starts another thread advancing onto a handler on `context`; frees
    /// the queue once the line `expecting` (its whole text checked) is logged, then checks that the advance
    /// completes. Nothing here waits on the cooperative pool while the queue is blocked: other tests'
    /// synchronous advances may be holding its threads, waiting for the main actor this test blocks.
    static func blockWhileAnotherThreadAdvances(
        on context: TickerContext, block queue: DispatchQueue, expecting message: String
    ) async {
        let time = VirtualTime(consumerGrace: VirtualTime.consumerGrace, deliveryNotice: .milliseconds(100))
        let log = Log()
        let ticker = time.run { Ticker.schedule(.after(.seconds(1)), on: context) { _ in log.append("fired") } }
        let seen = Log()
        let wakeUps = await withCheckedContinuation { (done: CheckedContinuation<Int, Never>) in
            queue.async {
                Thread { done.resume(returning: time.advance(by: .seconds(1))) }.start()
                let lines = LogCapture.waitForLines(containing: message)
                seen.append("\(lines.count) line(s), handler run \(log.all.count) time(s) meanwhile")
            }  // the queue is free from here
        }
        #expect(seen.all == ["1 line(s), handler run 0 time(s) meanwhile"], "reported once, while it waited")
        #expect(wakeUps == 1)
        #expect(log.all == ["fired"])
        #expect(ticker.state == .finished)
        #expect(LogCapture.lines(containing: message).count == 1)
    }
}

/// An async gate: `wait()` suspends until `open()`.
final class Gate: Sendable {
    private let state = Mutexed<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
    }
}
