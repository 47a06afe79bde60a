import Foundation
import Testing
import TimerKit
import TimerKitTesting

/// An actor that counts its ticks in its own state: the handler is isolated to it.
private actor Poller {
    var ticks: [Int] = []
    var skipped: [Int] = []
    var fireCounts: [Int] = []
    var ticker: Ticker?
    var stopAfter: Int?

    func start(_ schedule: TickSchedule) {
        ticker = Ticker.schedule(schedule, owner: self) { poller, tick in
            poller.record(tick)
        }
    }

    private func record(_ tick: Tick) {
        ticks.append(tick.index)
        skipped.append(tick.skipped)
        fireCounts.append(tick.fireCount)
        if let stopAfter, ticks.count == stopAfter { ticker?.cancel() }
    }

    func stop(after count: Int) { stopAfter = count }

    /// Keeps the actor's executor busy until `gate` opens.
    func block(until gate: DispatchSemaphore, entered: DispatchSemaphore) {
        entered.signal()
        gate.wait()
    }
}

@Suite struct ActorBindingTests {
    @Test func theHandlerRunsIsolatedToTheActorOncePerDeadlineInOrder() async {
        let time = VirtualTime()
        let poller = Poller()
        await time.run { await poller.start(.every(.seconds(1))) }
        await time.advance(by: .seconds(5))
        #expect(await poller.ticks == [1, 2, 3, 4, 5])
        #expect(await poller.fireCounts == [1, 2, 3, 4, 5])
        #expect(await poller.skipped == [0, 0, 0, 0, 0])
    }

    @Test func aCountedScheduleDeliversItsLastTickThenFinishes() async {
        let time = VirtualTime()
        let poller = Poller()
        await time.run { await poller.start(.every(.seconds(1), count: 3)) }
        await time.advance(by: .seconds(10))
        #expect(await poller.ticks == [1, 2, 3])
        #expect(await poller.ticker?.state == .finished)
    }

    @Test func aBusyActorGetsOneLateTickCountingTheDeadlinesItMissed() async {
        let time = VirtualTime()
        let poller = Poller()
        await time.run { await poller.start(.every(.seconds(1))) }
        let gate = DispatchSemaphore(value: 0)
        let entered = DispatchSemaphore(value: 0)
        let blocker = Task.detached { await poller.block(until: gate, entered: entered) }
        await Task.detached { entered.wait() }.value
        // The synchronous advance does not wait for consumers: four deadlines pass while the actor is busy.
        Self.advanceWithoutWaiting(time, by: .seconds(4))
        gate.signal()
        await blocker.value
        await time.runDue()
        // The first tick was handed over before the actor was free; the three later ones became one.
        #expect(await poller.ticks == [1, 4])
        #expect(await poller.skipped == [0, 2])
        #expect(await poller.fireCounts == [1, 2])
        await time.advance(by: .seconds(1))
        #expect(await poller.ticks == [1, 4, 5])
    }

    /// The synchronous advance, which does not wait for consumers (an async caller would get the async one).
    private static func advanceWithoutWaiting(_ time: VirtualTime, by duration: Duration) {
        time.advance(by: duration)
    }

    @Test func cancellingOnTheActorIsExact() async {
        let time = VirtualTime()
        let poller = Poller()
        await poller.stop(after: 2)
        await time.run { await poller.start(.every(.seconds(1))) }
        await time.advance(by: .seconds(10))
        #expect(await poller.ticks == [1, 2])
        #expect(await poller.ticker?.state == .cancelled)
    }

    @Test func theTickerEndsWithTheActorAndReleasesItsHandler() async throws {
        let time = VirtualTime()
        weak var weakPoller: Poller?
        let captured = Log()
        weak var weakCaptured: Log?
        let ticker: Ticker = time.run {
            let poller = Poller()
            weakPoller = poller
            weakCaptured = captured
            return Ticker.schedule(.every(.seconds(1)), owner: poller) { _, _ in captured.append("tick") }
        }
        #expect(weakPoller == nil)
        await time.advance(by: .seconds(3))
        #expect(captured.all.isEmpty)
        #expect(ticker.state == .cancelled)
        _ = consume captured
        // The delivering task lets go of the handler once it sees the inbox closed.
        for _ in 0..<1_000 where weakCaptured != nil { try await Task.sleep(for: .milliseconds(1)) }
        #expect(weakCaptured == nil)
    }

    @Test func anIdleTickerWaitsForStartAndPausesLikeAnyOther() async {
        let time = VirtualTime()
        let poller = Poller()
        let ticker = time.run {
            Ticker.schedule(.every(.seconds(1)), owner: poller, startsImmediately: false) { poller, tick in
                poller.ticks.append(tick.index)
            }
        }
        await time.advance(by: .seconds(2))
        #expect(await poller.ticks.isEmpty)
        ticker.start()
        await time.advance(by: .seconds(2))
        ticker.pause()
        await time.advance(by: .seconds(5))
        #expect(await poller.ticks == [1, 2])
        ticker.cancel()
    }

    @Test func inRealTimeTheHandlerRunsOnTheActor() async throws {
        let poller = Poller()
        await poller.start(.every(.milliseconds(5), count: 3))
        for _ in 0..<2_000 where await poller.ticks.count < 3 { try await Task.sleep(for: .milliseconds(1)) }
        #expect(await poller.ticks == [1, 2, 3])
        #expect(await poller.ticker?.state == .finished)
    }
}
