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

    /// Keeps the actor's executor busy while `work` runs.
    func busy(_ work: () -> Void) { work() }
}

/// An actor that iterates a tick sequence bound to itself: the loop's body is isolated to the actor (the
/// `for await` runs in an actor method), so it changes the actor's state without `await`.
private actor SequencePoller {
    var ticks: [Int] = []

    func poll(count: Int) async {
        for await tick in Ticker.ticks(.every(.seconds(1), count: count), owner: self) {
            ticks.append(tick.index)
        }
    }
}

@Suite struct ActorBindingTests {
    /// Sequences and handlers bound to an actor run isolated to it, once per deadline, to a counted schedule's end, and
    /// a busy actor gets one late tick. Each check runs on a fresh instance of the suite.
    @Test func anActorBoundTickerDeliversIsolatedToItsActor() async {
        await Self().aTickSequenceOwnedByAnActorIsIteratedIsolatedToIt()
        await Self().theHandlerRunsIsolatedToTheActorOncePerDeadlineInOrder()
        await Self().aCountedScheduleDeliversItsLastTickThenFinishes()
        await Self().aBusyActorGetsOneLateTickCountingTheDeadlinesItMissed()
    }

    func aTickSequenceOwnedByAnActorIsIteratedIsolatedToIt() async {
        let time = VirtualTime()
        let poller = SequencePoller()
        let polling = time.run { Task { await poller.poll(count: 3) } }
        await time.waitForPendingTickers()
        await time.advance(by: .seconds(5))
        await polling.value
        #expect(await poller.ticks == [1, 2, 3])
    }

    func theHandlerRunsIsolatedToTheActorOncePerDeadlineInOrder() async {
        let time = VirtualTime()
        let poller = Poller()
        await time.run { await poller.start(.every(.seconds(1))) }
        await time.advance(by: .seconds(5))
        #expect(await poller.ticks == [1, 2, 3, 4, 5])
        #expect(await poller.fireCounts == [1, 2, 3, 4, 5])
        #expect(await poller.skipped == [0, 0, 0, 0, 0])
    }

    func aCountedScheduleDeliversItsLastTickThenFinishes() async {
        let time = VirtualTime()
        let poller = Poller()
        await time.run { await poller.start(.every(.seconds(1), count: 3)) }
        await time.advance(by: .seconds(10))
        #expect(await poller.ticks == [1, 2, 3])
        #expect(await poller.ticker?.state == .finished)
    }

    func aBusyActorGetsOneLateTickCountingTheDeadlinesItMissed() async {
        let time = VirtualTime()
        let poller = Poller()
        await time.run { await poller.start(.every(.seconds(1))) }
        // Four deadlines pass while the actor is busy: it moves time itself, synchronously.
        await poller.busy { ActorBindingTests.advanceWithoutWaiting(time, by: .seconds(4)) }
        await time.runDue()
        // No backlog: at most the tick already handed over plus one late tick standing for deadline 4,
        // with every deadline accounted for.
        let ticks = await poller.ticks
        let skipped = await poller.skipped
        #expect(ticks.last == 4 && ticks.count <= 2)
        #expect(ticks.count + skipped.reduce(0, +) == 4)
        #expect(await poller.fireCounts == Array(1...ticks.count))
        await time.advance(by: .seconds(1))
        #expect(await poller.ticks == ticks + [5])
    }

    /// The synchronous advance, which does not wait for consumers (an async caller would get the async one).
    fileprivate static func advanceWithoutWaiting(_ time: VirtualTime, by duration: Duration) {
        time.advance(by: duration)
    }

    /// Cancel on the actor, the end of the actor, and start and pause of an idle ticker. Each check runs on a fresh
    /// instance of the suite.
    @Test func anActorBoundTickersLifecycleIsExact() async throws {
        await Self().cancellingOnTheActorIsExact()
        try await Self().theTickerEndsWithTheActorAndReleasesItsHandler()
        await Self().anIdleTickerWaitsForStartAndPausesLikeAnyOther()
    }

    func cancellingOnTheActorIsExact() async {
        let time = VirtualTime()
        let poller = Poller()
        await poller.stop(after: 2)
        await time.run { await poller.start(.every(.seconds(1))) }
        await time.advance(by: .seconds(10))
        #expect(await poller.ticks == [1, 2])
        #expect(await poller.ticker?.state == .cancelled)
    }

    func theTickerEndsWithTheActorAndReleasesItsHandler() async throws {
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

    func anIdleTickerWaitsForStartAndPausesLikeAnyOther() async {
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
        for _ in 0..<2_000 where await poller.ticks.last != 3 { try await Task.sleep(for: .milliseconds(1)) }
        // Under load ticks may merge (a late tick counts the others as skipped); the last one always comes.
        let ticks = await poller.ticks
        #expect(ticks.last == 3)
        #expect(ticks.count + (await poller.skipped).reduce(0, +) == 3)
        #expect(await poller.ticker?.state == .finished)
    }

    /// Debouncers, throttlers and frame subscriptions bound to an actor deliver isolated to it, and cancel there is
    /// exact. Each check runs on a fresh instance of the suite.
    @Test func rateLimitersAndFramesBoundToAnActorDeliverIsolated() async {
        await Self().aDebouncedSearchInsideAnActorDeliversTheLastQueryIsolated()
        await Self().cancellingADebouncerOnItsActorDropsAValueAlreadyDecided()
        await Self().aThrottlerBoundToAnActorDeliversEdgesIsolated()
        await Self().frameSubscriptionsBoundToAnActorGetEveryFrameIsolated()
    }

    func aDebouncedSearchInsideAnActorDeliversTheLastQueryIsolated() async {
        let time = VirtualTime()
        let search = ActorSearch()
        await time.run { await search.start() }
        for query in ["s", "sw", "swi", "swift"] { await search.type(query) }
        await time.advance(by: .milliseconds(299))
        #expect(await search.searched.isEmpty)
        await time.advance(by: .milliseconds(1))
        #expect(await search.searched == ["swift"])
    }

    func cancellingADebouncerOnItsActorDropsAValueAlreadyDecided() async {
        let time = VirtualTime()
        let search = ActorSearch()
        await time.run { await search.start() }
        await search.type("swift")
        // The delivery is decided (handed to the actor) while the actor is busy, and the actor cancels
        // before it runs: nothing is delivered.
        await search.busy { search in
            ActorBindingTests.advanceWithoutWaiting(time, by: .seconds(1))
            search.cancel()
        }
        await time.runDue()
        #expect(await search.searched.isEmpty)
    }

    func aThrottlerBoundToAnActorDeliversEdgesIsolated() async {
        let time = VirtualTime()
        let scroll = ScrollModel()
        await time.run { await scroll.start() }
        for offset in 1...5 { await scroll.scrolled(to: offset) }
        #expect(await scroll.handled.isEmpty)  // nothing runs before the context does
        await time.runDue()
        #expect(await scroll.handled == [1])
        await time.advance(by: .milliseconds(100))
        #expect(await scroll.handled == [1, 5])
    }

    func frameSubscriptionsBoundToAnActorGetEveryFrameIsolated() async {
        let time = VirtualTime()
        let animation = Animation()
        let subscription = await time.run { await animation.start() }
        await time.advance(by: .milliseconds(100))
        let frames = await animation.frames
        #expect(frames == Array(1...frames.count))
        #expect(frames.count >= 5)
        await animation.stop()
        await time.advance(by: .milliseconds(100))
        #expect(await animation.frames == frames)
        #expect(subscription.state == .cancelled)
    }
}

private actor ActorSearch {
    var searched: [String] = []
    private var debouncer: Debouncer<String>?

    func start() {
        debouncer = Debouncer(interval: .milliseconds(300), owner: self) { model, query in
            model.searched.append(query)
        }
    }

    func type(_ query: String) { debouncer?.send(query) }

    func cancel() { debouncer?.cancel() }

    /// Keeps the actor's executor busy while `work` runs.
    func busy(_ work: @Sendable (isolated ActorSearch) -> Void) { work(self) }
}

private actor ScrollModel {
    var handled: [Int] = []
    private var throttler: Throttler<Int>?

    func start() {
        throttler = Throttler(interval: .milliseconds(100), owner: self) { model, offset in
            model.handled.append(offset)
        }
    }

    func scrolled(to offset: Int) { throttler?.send(offset) }
}

private actor Animation {
    var frames: [Int] = []
    private var subscription: FrameSubscription?

    func start() -> FrameSubscription {
        let subscription = FrameSource.software(refreshRate: 60, on: .precise).subscribe(owner: self) {
            animation, frame in animation.frames.append(frame.index)
        }
        self.subscription = subscription
        return subscription
    }

    func stop() { subscription?.cancel() }
}
