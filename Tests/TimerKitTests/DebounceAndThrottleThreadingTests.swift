import Foundation
import Testing

@testable import TimerKit

// Values sent from several threads; deliveries on the context. Virtual time gives exact counts; real
// contexts check where handlers run, with generous bounds and no sleeping for correctness.

@Suite struct DebounceAndThrottleThreadingTests {
    static let threads = 8
    static let sendsPerThread = 250

    /// Sends `threads × sendsPerThread` distinct values from `threads` threads at once.
    static func sendFromSeveralThreads(_ send: @Sendable (Int) -> Void) {
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<sendsPerThread { send(thread * 10_000 + index) }
        }
    }

    static func isSentValue(_ value: Int) -> Bool {
        value % 10_000 < sendsPerThread && value / 10_000 < threads
    }

    // MARK: Virtual time: exact counts

    /// The edges of each case, and how many values one burst at one instant delivers with them.
    static let deliveriesPerEdges: [(RateLimitEdges, Int)] = [
        (.trailing, 1), (.leading, 1), (.leadingAndTrailing, 2),
    ]

    @Test
    func debouncedSendsFromSeveralThreadsAtOneInstantMakeOneBurst() {
        for (edges, expected) in Self.deliveriesPerEdges {
            Self().debouncedSendsFromSeveralThreadsAtOneInstantMakeOneBurst(edges: edges, expected: expected)
        }
    }

    func debouncedSendsFromSeveralThreadsAtOneInstantMakeOneBurst(edges: RateLimitEdges, expected: Int) {
        let time = VirtualTime()
        let delivered = Recorder<Int>()
        let offThread = Recorder<Int>()
        let advancing = rateLimitThreadID()
        let debouncer = time.run {
            Debouncer<Int>(interval: .milliseconds(50), edges: edges, on: .dispatch(.global())) { value in
                delivered.append(value)
                if rateLimitThreadID() != advancing { offThread.append(value) }
            }
        }
        Self.sendFromSeveralThreads { debouncer.send($0) }
        #expect(delivered.values.isEmpty, "a value was delivered inside send; edges \(edges), expected \(expected)")
        time.advance(by: .seconds(1))
        #expect(delivered.count == expected, "edges \(edges), expected \(expected)")
        #expect(delivered.values.allSatisfy(Self.isSentValue), "edges \(edges), expected \(expected)")
        #expect(Set(delivered.values).count == delivered.count, "edges \(edges), expected \(expected)")
        #expect(offThread.values.isEmpty, "edges \(edges), expected \(expected)")
        #expect(!debouncer.hasPendingValue, "edges \(edges), expected \(expected)")
    }

    @Test
    func throttledSendsFromSeveralThreadsAtOneInstantFallInOneWindow() {
        for (edges, expected) in Self.deliveriesPerEdges {
            Self().throttledSendsFromSeveralThreadsAtOneInstantFallInOneWindow(edges: edges, expected: expected)
        }
    }

    func throttledSendsFromSeveralThreadsAtOneInstantFallInOneWindow(edges: RateLimitEdges, expected: Int) {
        let time = VirtualTime()
        let delivered = Recorder<Int>()
        let offThread = Recorder<Int>()
        let advancing = rateLimitThreadID()
        let throttler = time.run {
            Throttler<Int>(interval: .milliseconds(50), edges: edges, on: .dispatch(.global())) { value in
                delivered.append(value)
                if rateLimitThreadID() != advancing { offThread.append(value) }
            }
        }
        Self.sendFromSeveralThreads { throttler.send($0) }
        #expect(delivered.values.isEmpty, "a value was delivered inside send; edges \(edges), expected \(expected)")
        time.advance(by: .seconds(1))
        #expect(delivered.count == expected, "edges \(edges), expected \(expected)")
        #expect(delivered.values.allSatisfy(Self.isSentValue), "edges \(edges), expected \(expected)")
        #expect(Set(delivered.values).count == delivered.count, "edges \(edges), expected \(expected)")
        #expect(offThread.values.isEmpty, "edges \(edges), expected \(expected)")
    }

    @Test func aHandlerMaySendToItsOwnDebouncer() {
        let time = VirtualTime()
        let delivered = Recorder<(value: Int, at: TickInstant)>()
        let box = ContractBox<Debouncer<Int>>()
        let debouncer = time.run {
            Debouncer<Int>(interval: .milliseconds(10), edges: .leadingAndTrailing, on: .dispatch(.global())) {
                value in
                delivered.append((value, time.now))
                if value < 3 { box.value?.send(value + 1) }  // no deadlock, delivered later on the context
            }
        }
        box.set(debouncer)
        let start = time.now
        debouncer.send(0)
        time.advance(by: .seconds(1))
        // 0 leads; 1, sent inside the handler, is the same burst's trailing value; 2 then starts a new
        // burst (leading, at once), and 3 trails it.
        #expect(delivered.values.map(\.value) == [0, 1, 2, 3])
        #expect(
            delivered.values.map { start.duration(to: $0.at) }
                == [.zero, .milliseconds(10), .milliseconds(10), .milliseconds(20)])
        box.clear()
    }

    // MARK: Real contexts

    @Test func debouncedDeliveriesRunOnTheSerialQueueContext() {
        let queue = DispatchQueue(label: "TimerKitTests.debounce.serial")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "debounce")
        let owner = RateLimitOwner(LifetimeTracker())
        let delivered = Recorder<Int>()
        let offQueue = Recorder<Int>()
        let debouncer = Debouncer<Int>(interval: .milliseconds(50), on: .dispatch(queue), owner: owner) { _, value in
            if DispatchQueue.getSpecific(key: key) != "debounce" { offQueue.append(value) }
            delivered.append(value)
        }
        Self.sendFromSeveralThreads { debouncer.send($0) }
        debouncer.send(-1)  // sent last: whatever bursts the threads made, it ends the last one
        #expect(eventually { delivered.values.last == -1 })
        queue.sync {}
        #expect(offQueue.values.isEmpty, "delivered off the context's queue")
        #expect(delivered.values.dropLast().allSatisfy(Self.isSentValue))
        #expect(Set(delivered.values).count == delivered.count)
        #expect(!debouncer.hasPendingValue)
        withExtendedLifetime(owner) {}
    }

    @Test func throttledDeliveriesRunOnTheRunLoopThreadContext() {
        let thread = RunLoopThread()
        defer { thread.stop() }
        // Thread names are unreliable on Linux (truncated, inherited): identify the loop's thread by id.
        let loopThread = Locked<UInt64?>.make(nil)
        thread.runLoop.perform { loopThread.withLock { $0 = rateLimitThreadID() } }
        #expect(eventually { loopThread.withLock { $0 } != nil })
        let delivered = Recorder<Int>()
        let offThread = Recorder<Int>()
        let throttler = Throttler<Int>(interval: .milliseconds(20), on: thread.context) { value in
            if loopThread.withLock({ $0 }) != rateLimitThreadID() { offThread.append(value) }
            delivered.append(value)
        }
        Self.sendFromSeveralThreads { throttler.send($0) }
        throttler.send(-1)
        #expect(eventually { delivered.values.last == -1 })
        #expect(offThread.values.isEmpty, "delivered off the run loop's thread")
        #expect(delivered.count >= 2)  // the leading value, and -1 at the end of a window
        #expect(delivered.values.dropLast().allSatisfy(Self.isSentValue))
        throttler.cancel()
    }

    @Test func aHardCancelOnTheSerialQueueStopsDeliveriesFromConcurrentSenders() {
        let queue = DispatchQueue(label: "TimerKitTests.throttle.cancel")
        let delivered = Recorder<Int>()
        let throttler = Throttler<Int>(interval: .milliseconds(1), on: .dispatch(queue)) { delivered.append($0) }
        let stop = Locked<Bool>.make(false)
        let senders = DispatchGroup()
        for thread in 0..<4 {
            DispatchQueue.global().async(group: senders) {
                var index = 0
                while !stop.withLock({ $0 }) {
                    throttler.send(thread * 1_000_000 + index)
                    index += 1
                }
            }
        }
        #expect(eventually { delivered.count >= 3 })
        queue.sync { throttler.cancel() }  // on the context: nothing decided after this runs
        let countAtCancel = delivered.count
        stop.withLock { $0 = true }
        senders.wait()
        queue.sync {}
        #expect(delivered.count == countAtCancel)
        #expect(throttler.isCancelled)
        #expect(!throttler.hasPendingValue)
    }
}
