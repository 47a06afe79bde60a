import Foundation
import Testing
import TimerKitTestSupport

@testable import TimerKit

/// Handlers that misbehave — run longer than their interval, cancel their own or other tickers, release
/// their owner, schedule new tickers, block their context, call lifecycle methods on themselves — and
/// contexts that go away (a run loop that stops, a queue its creator releases). Each outcome is stated in
/// "When a handler misbehaves" in the contract article. On real contexts for what is about threads and
/// system timers (with generous bounds, never a wall-clock assertion of correctness), under virtual time
/// where the logic can be pinned down exactly. What virtual-time tests already cover elsewhere (cancel or
/// owner release inside a handler in LifecycleMatrixTests, a slow handler in DriftAndSkipTests) is not
/// repeated here.
@Suite struct MisbehavingHandlerTests {
    init() { LogCapture.install() }

    // MARK: Helpers

    /// Lets `context` deliver `count` ticks of a fresh 2 ms ticker. Handlers on one context run in
    /// deadline order, so every other ticker on it has had its chance to fire meanwhile.
    static func letRun(_ context: TickerContext, deliveries count: Int = 5) -> Bool {
        let witness = Recorder<Tick>()
        let ticker = Ticker.schedule(.every(.milliseconds(2)), on: context) { witness.append($0) }
        defer { ticker.cancel() }
        return eventually { witness.count >= count }
    }

    /// Runs `body` on another thread and tells whether it returned within `timeout`: a call that waited
    /// for a blocked handler would not.
    static func returnsPromptly(within timeout: TimeInterval = 5, _ body: @escaping @Sendable () -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            body()
            done.signal()
        }
        return done.wait(timeout: .now() + timeout) == .success
    }

    /// Whether `ticks` are deliveries of one repeating schedule: each deadline at most once, every missed
    /// one counted in the next delivery's `skipped`, all on the grid of the first one, none early.
    static func areOneScheduleWithoutBurstOrSlide(_ ticks: [Tick], interval: Duration) -> Bool {
        guard let first = ticks.first else { return true }
        let onGrid = ticks.allSatisfy {
            first.deadline.duration(to: $0.deadline) == interval * ($0.index - first.index)
                && $0.timestamp >= $0.deadline
        }
        let skipsCounted = zip(ticks, ticks.dropFirst()).allSatisfy { previous, tick in
            tick.index > previous.index && tick.skipped == tick.index - previous.index - 1
        }
        return onGrid && skipsCounted
    }

    // MARK: Runs longer than its interval

    /// A handler that overruns skips without overlap, burst or slide, and takes turns with the other tickers of its
    /// context. Each check runs on a fresh instance of the suite.
    @Test func anOverrunningHandlerSkipsAndTakesTurns() {
        Self().overrunningHandlerSkipsWithoutOverlapBurstOrSlide()
        Self().overrunningHandlerTakesTurnsWithTheOtherTickersOfItsContext()
    }

    /// One call takes five intervals, the next five take two and a half each: every call is for the
    /// latest deadline that passed, the missed ones are counted, calls never overlap and the deadlines stay
    /// on the grid.
    func overrunningHandlerSkipsWithoutOverlapBurstOrSlide() {
        for kind in ContextKind.allCases {
            Self().overrunningHandlerSkipsWithoutOverlapBurstOrSlide(kind: kind)
        }
    }

    func overrunningHandlerSkipsWithoutOverlapBurstOrSlide(kind: ContextKind) {
        let live = LiveContext(kind)
        defer { live.tearDown() }
        let interval = Duration.milliseconds(10)
        let ticks = Recorder<Tick>()
        let detector = ConcurrencyStressTests.OverlapDetector()
        let box = ContractBox<Ticker>()
        box.set(
            Ticker.schedule(.every(interval), on: live.context, startsImmediately: false) { tick in
                detector.enter()
                ticks.append(tick)
                switch tick.fireCount {
                case 1: usleep(50_000)  // five intervals
                case 2...6: usleep(25_000)  // two and a half intervals, call after call
                case 10: box.value?.cancel()
                default: break
                }
                detector.leave()
            })
        box.value?.start()
        #expect(eventually { box.value?.state == .cancelled }, "kind \(kind)")
        #expect(Self.letRun(live.context), "kind \(kind)")
        let values = ticks.values
        #expect(values.map(\.fireCount) == Array(1...10), "nothing after the cancel inside the handler; kind \(kind)")
        #expect(detector.overlaps == 0, "a call started while the previous one was still running; kind \(kind)")
        #expect(Self.areOneScheduleWithoutBurstOrSlide(values, interval: interval), "\(values); kind \(kind)")
        guard values.count == 10 else { return }
        #expect(values[1].skipped >= 3, "five intervals of work, then one call, not a catch-up burst; kind \(kind)")
        #expect(values[2...6].allSatisfy { $0.skipped >= 1 }, "each overrun of 2.5 intervals skips; kind \(kind)")
        #expect(values.allSatisfy { !$0.isManual }, "kind \(kind)")
        box.clear()
    }

    /// A handler that overruns call after call does not starve the other tickers of its context: due
    /// tickers are served in deadline order, so they take turns, each skipping what passed meanwhile.
    func overrunningHandlerTakesTurnsWithTheOtherTickersOfItsContext() {
        for kind in ContractContext.allCases {
            Self().overrunningHandlerTakesTurnsWithTheOtherTickersOfItsContext(kind: kind)
        }
    }

    func overrunningHandlerTakesTurnsWithTheOtherTickersOfItsContext(kind: ContractContext) {
        let time = VirtualTime()
        let order = Recorder<String>()
        let start = time.now
        let (hog, steady) = time.run {
            let hog = Ticker.schedule(.every(.seconds(1)), on: kind.context) { tick in
                order.append("hog#\(tick.index)/\(tick.skipped)")
                if tick.fireCount <= 4 { time.clock.advance(by: .milliseconds(2_500)) }
            }
            let steady = Ticker.schedule(.every(.seconds(1)), on: kind.context) { tick in
                order.append("steady#\(tick.index)/\(tick.skipped)")
            }
            return (hog, steady)
        }
        time.advance(by: .seconds(1))
        #expect(
            order.values == [
                "hog#1/0", "steady#3/2", "hog#3/1", "steady#6/2", "hog#6/2", "steady#8/1", "hog#8/1", "steady#11/2",
                "hog#11/2",
            ], "kind \(kind)")
        #expect(time.now == start.advanced(by: .seconds(11)), "kind \(kind)")
        #expect(hog.nextDeadline == start.advanced(by: .seconds(12)), "the schedule did not slide; kind \(kind)")
        #expect(steady.nextDeadline == start.advanced(by: .seconds(12)), "kind \(kind)")
        hog.cancel()
        steady.cancel()
    }

    // MARK: Cancels its own ticker, or other tickers of its context

    /// A handler that cancels itself and its neighbours, or releases its owner on a real context. Each check runs on a
    /// fresh instance of the suite.
    @Test func aHandlerCancellingTickersOrReleasingItsOwnerIsExact() {
        Self().cancellingItselfAndItsNeighboursInsideAHandlerIsExact()
        Self().ownerReleasedInsideItsHandlerOnARealContext()
    }

    func cancellingItselfAndItsNeighboursInsideAHandlerIsExact() {
        for kind in ContextKind.allCases {
            Self().cancellingItselfAndItsNeighboursInsideAHandlerIsExact(kind: kind)
        }
    }

    func cancellingItselfAndItsNeighboursInsideAHandlerIsExact(kind: ContextKind) {
        let live = LiveContext(kind)
        defer { live.tearDown() }
        let owner = ContractOwner()
        let victimTicks = Recorder<Tick>()
        let killerTicks = Recorder<Tick>()
        let countsAtCancel = ContractBox<[Int]>()
        let statesAfterCancel = Recorder<TickerState>()
        let victims = ContractBox<[Ticker]>()
        let killer = ContractBox<Ticker>()
        weak var weakProbe: ContractProbe?
        do {
            let probe = ContractProbe()
            weakProbe = probe
            victims.set([
                Ticker.schedule(.every(.milliseconds(1)), on: live.context) { tick in
                    _ = probe
                    victimTicks.append(tick)
                },
                Ticker.schedule(.every(.milliseconds(1)), on: live.context, owner: owner) { owner, tick in
                    _ = probe
                    owner.record(tick)
                },
            ])
            killer.set(
                Ticker.schedule(.every(.milliseconds(2)), on: live.context, startsImmediately: false) { tick in
                    _ = probe
                    killerTicks.append(tick)
                    guard tick.fireCount == 3 else { return }
                    let all = (victims.value ?? []) + [killer.value].compactMap { $0 }
                    all.forEach { $0.cancel() }
                    countsAtCancel.set([victimTicks.count, owner.ticks.count])
                    all.forEach { statesAfterCancel.append($0.state) }
                })
        }
        killer.value?.start()
        #expect(eventually { killerTicks.count == 3 }, "kind \(kind)")
        #expect(Self.letRun(live.context), "the context keeps serving other tickers; kind \(kind)")
        #expect(killerTicks.count == 3, "nothing after cancelling itself; kind \(kind)")
        #expect(
            countsAtCancel.value == [victimTicks.count, owner.ticks.count],
            "nothing after being cancelled; kind \(kind)")
        #expect(
            countsAtCancel.value?.allSatisfy { $0 >= 1 } == true, "earlier deadlines were served first; kind \(kind)")
        #expect(statesAfterCancel.values == [.cancelled, .cancelled, .cancelled], "kind \(kind)")
        #expect(eventually { weakProbe == nil }, "every cancelled handler was freed; kind \(kind)")
        #expect(eventually { live.liveTickers == 0 }, "kind \(kind)")
    }

    // MARK: Releases its owner

    /// The handler drops the last strong reference to its owner. The engine holds the owner for the call,
    /// so the owner's deinit runs after the handler returns; then the ticker stops — at once when the owner
    /// held the handle, at the next deadline without calling otherwise — and its handler is freed.
    func ownerReleasedInsideItsHandlerOnARealContext() {
        for kind in ContextKind.allCases {
            for ownerHoldsHandle in [true, false] {
                Self().ownerReleasedInsideItsHandlerOnARealContext(kind: kind, ownerHoldsHandle: ownerHoldsHandle)
            }
        }
    }

    func ownerReleasedInsideItsHandlerOnARealContext(kind: ContextKind, ownerHoldsHandle: Bool) {
        let live = LiveContext(kind)
        defer { live.tearDown() }
        let tracker = LifetimeTracker()
        let holder = ContractBox<ContractOwner>(ContractOwner(tracker: tracker))
        let calls = Recorder<Int>()
        let releasedAt = Recorder<Int>()
        let ownersLiveAtReturn = Recorder<Int>()
        let mayRelease = Locked<Bool>.make(false)
        weak var weakProbe: ContractProbe?
        do {
            let probe = ContractProbe()
            weakProbe = probe
            let owner = holder.value!
            let ticker = Ticker.schedule(.every(.milliseconds(2)), on: live.context, owner: owner) { owner, tick in
                _ = probe
                owner.record(tick)
                calls.append(tick.fireCount)
                guard mayRelease.withLock({ $0 }), releasedAt.count == 0 else { return }
                releasedAt.append(tick.fireCount)
                holder.clear()  // the last strong reference to the owner
                ownersLiveAtReturn.append(tracker.live)
            }
            if ownerHoldsHandle { owner.ticker = ticker }
        }
        // Only now is the holder the last strong reference outside the engine.
        mayRelease.withLock { $0 = true }
        #expect(
            eventually { tracker.live == 0 },
            "the owner was not deinitialised; kind \(kind), ownerHoldsHandle \(ownerHoldsHandle)")
        #expect(
            ownersLiveAtReturn.values == [1],
            "the owner lived until its handler returned; kind \(kind), ownerHoldsHandle \(ownerHoldsHandle)")
        #expect(
            eventually { weakProbe == nil },
            "the handler was not freed; kind \(kind), ownerHoldsHandle \(ownerHoldsHandle)")
        #expect(
            eventually { live.liveTickers == 0 },
            "the ticker did not stop; kind \(kind), ownerHoldsHandle \(ownerHoldsHandle)")
        #expect(Self.letRun(live.context), "kind \(kind), ownerHoldsHandle \(ownerHoldsHandle)")
        #expect(
            calls.values.last == releasedAt.values.first,
            "a call after the owner went away; kind \(kind), ownerHoldsHandle \(ownerHoldsHandle)")
        #expect(calls.values == Array(1...calls.count), "kind \(kind), ownerHoldsHandle \(ownerHoldsHandle)")
    }

    // MARK: Schedules new tickers

    /// A handler that schedules tickers, on a real context and exactly under virtual time. Each check runs on a fresh
    /// instance of the suite.
    @Test func tickersScheduledInsideAHandlerFireAtTheirOwnDeadlines() {
        Self().schedulingTickersInsideAHandlerOnARealContext()
        Self().tickersScheduledInsideAHandlerFireExactlyAtTheirOwnDeadlines()
    }

    /// A handler that schedules tickers — one on its own context, one on another, fifty at once, and a
    /// one-shot that schedules its successor from its own handler twenty times — does not deadlock; each
    /// fires at its own deadline, and everything is freed once done.
    func schedulingTickersInsideAHandlerOnARealContext() {
        for kind in ContextKind.allCases {
            Self().schedulingTickersInsideAHandlerOnARealContext(kind: kind)
        }
    }

    func schedulingTickersInsideAHandlerOnARealContext(kind: ContextKind) {
        let (live, other) = (LiveContext(kind), LiveContext(kind))
        defer { [live, other].forEach { $0.tearDown() } }
        let owner = ContractOwner()
        let ticks = Recorder<(String, Tick)>()
        let parentTick = ContractBox<Tick>()
        let context = live.context
        let otherContext = other.context
        weak var weakProbe: ContractProbe?
        do {
            let probe = ContractProbe()
            weakProbe = probe
            @Sendable func link(_ n: Int, owner: ContractOwner) {
                Ticker.schedule(.after(.milliseconds(1)), on: context, owner: owner) { owner, tick in
                    _ = probe
                    ticks.append(("link\(n)", tick))
                    if n < 20 { link(n + 1, owner: owner) }
                }
            }
            Ticker.schedule(.after(.milliseconds(1)), on: context, owner: owner) { owner, tick in
                _ = probe
                parentTick.set(tick)
                Ticker.schedule(.after(.milliseconds(5)), on: context, owner: owner) { _, tick in
                    _ = probe
                    ticks.append(("same", tick))
                }
                Ticker.schedule(.after(.milliseconds(5)), on: otherContext, owner: owner) { _, tick in
                    _ = probe
                    ticks.append(("other", tick))
                }
                for n in 1...50 {
                    Ticker.schedule(.after(.milliseconds(n)), on: context, owner: owner) { _, tick in
                        _ = probe
                        ticks.append(("many\(n)", tick))
                    }
                }
                link(1, owner: owner)
            }
        }
        #expect(eventually { ticks.count == 1 + 1 + 50 + 20 }, "\(ticks.count) of 72 ticks; kind \(kind)")
        #expect(eventually { weakProbe == nil }, "a finished handler was not freed; kind \(kind)")
        #expect(eventually { live.liveTickers == 0 && other.liveTickers == 0 }, "kind \(kind)")
        let values = ticks.values
        #expect(
            values.allSatisfy { $0.1.timestamp >= $0.1.deadline && $0.1.index == 1 && $0.1.fireCount == 1 },
            "kind \(kind)")
        guard let parent = parentTick.value else { return }
        func delay(_ name: String) -> Duration {
            if name.hasPrefix("many") { return .milliseconds(Int(name.dropFirst(4))!) }
            return name.hasPrefix("link") ? .milliseconds(1) : .milliseconds(5)
        }
        #expect(
            values.allSatisfy { parent.timestamp.advanced(by: delay($0.0)) <= $0.1.deadline },
            "a new ticker counts from its creation inside the handler; kind \(kind)")
        let many = values.filter { $0.0.hasPrefix("many") }.map(\.0)
        #expect(many == (1...50).map { "many\($0)" }, "one context serves its deadlines in order; kind \(kind)")
        let links = values.filter { $0.0.hasPrefix("link") }
        #expect(links.map(\.0) == (1...20).map { "link\($0)" }, "kind \(kind)")
        #expect(
            zip(links, links.dropFirst()).allSatisfy { $0.1.timestamp.advanced(by: .milliseconds(1)) <= $1.1.deadline },
            "each link counts from its predecessor's call; kind \(kind)")
    }

    /// Under virtual time a ticker made inside a handler counts from the handler's instant and is served
    /// at exactly its own deadline, within the same advance, on either context.
    func tickersScheduledInsideAHandlerFireExactlyAtTheirOwnDeadlines() {
        for kind in ContractContext.allCases {
            Self().tickersScheduledInsideAHandlerFireExactlyAtTheirOwnDeadlines(kind: kind)
        }
    }

    func tickersScheduledInsideAHandlerFireExactlyAtTheirOwnDeadlines(kind: ContractContext) {
        let time = VirtualTime()
        let owner = ContractOwner()
        let ticks = Recorder<(String, Tick)>()
        let start = time.now
        let context = kind.context
        let otherContext = (kind == .dispatch ? ContractContext.runLoop : .dispatch).context
        @Sendable func link(_ n: Int, owner: ContractOwner) {
            Ticker.schedule(.after(.seconds(1)), on: context, owner: owner) { owner, tick in
                ticks.append(("link\(n)", tick))
                if n < 5 { link(n + 1, owner: owner) }
            }
        }
        time.run {
            Ticker.schedule(.after(.seconds(1)), on: context, owner: owner) { owner, _ in
                Ticker.schedule(.after(.milliseconds(500)), on: context, owner: owner) { _, tick in
                    ticks.append(("same", tick))
                }
                Ticker.schedule(.after(.milliseconds(500)), on: otherContext, owner: owner) { _, tick in
                    ticks.append(("other", tick))
                }
                for n in 1...10 {
                    Ticker.schedule(.after(.milliseconds(100 * n)), on: context, owner: owner) { _, tick in
                        ticks.append(("many\(n)", tick))
                    }
                }
                link(1, owner: owner)
            }
        }
        time.advance(by: .seconds(10))
        let expected: [String: Duration] = Dictionary(
            uniqueKeysWithValues: [("same", .milliseconds(1_500)), ("other", .milliseconds(1_500))]
                + (1...10).map { ("many\($0)", .seconds(1) + .milliseconds(100 * $0)) }
                + (1...5).map { ("link\($0)", .seconds(1 + $0)) })
        let values = ticks.values
        #expect(values.count == expected.count, "kind \(kind)")
        for (name, tick) in values {
            #expect(tick.deadline == start.advanced(by: expected[name] ?? .zero), "\(name); kind \(kind)")
            #expect(tick.lateness == .zero, "\(name); kind \(kind)")
        }
        #expect(values.map(\.0).filter { $0.hasPrefix("link") } == (1...5).map { "link\($0)" }, "kind \(kind)")
        #expect(
            time.run { TickerDiagnostics.liveTickers() }.isEmpty, "every one-shot finished and was freed; kind \(kind)")
    }

    // MARK: Blocks its context

    /// A handler blocks its context (it waits on a semaphore for at least 200 ms). Its context's other
    /// tickers wait, then skip what they missed; another context is unaffected; lifecycle calls from other
    /// threads return while it is still blocked, including `cancel()` of the blocked ticker, after which
    /// it is never called again, and its handler is freed once the running call returns.
    @Test
    func blockedHandlerHoldsUpOnlyItsContextAndNoCallWaitsForIt() {
        for kind in ContextKind.allCases {
            Self().blockedHandlerHoldsUpOnlyItsContextAndNoCallWaitsForIt(kind: kind)
        }
    }

    func blockedHandlerHoldsUpOnlyItsContextAndNoCallWaitsForIt(kind: ContextKind) {
        let (live, elsewhere) = (LiveContext(kind), LiveContext(kind))
        defer { [live, elsewhere].forEach { $0.tearDown() } }
        let interval = Duration.milliseconds(10)
        let gate = DispatchSemaphore(value: 0)
        let entered = DispatchSemaphore(value: 0)
        let blockerTicks = Recorder<Tick>()
        let neighbourTicks = Recorder<Tick>()
        let bystanderTicks = Recorder<Tick>()
        let remoteTicks = Recorder<Tick>()
        weak var weakProbe: ContractProbe?
        let (blocker, neighbour, bystander, remote) = {
            let probe = ContractProbe()
            weakProbe = probe
            let blocker = Ticker.schedule(.every(interval), on: live.context) { tick in
                _ = probe
                blockerTicks.append(tick)
                guard tick.fireCount == 1 else { return }
                entered.signal()
                _ = gate.wait(timeout: .now() + 30)  // bounded, so that a failing test cannot hang
            }
            return (
                blocker,
                Ticker.schedule(.every(interval), on: live.context) { neighbourTicks.append($0) },
                Ticker.schedule(.every(.seconds(3_600)), on: live.context) { bystanderTicks.append($0) },
                Ticker.schedule(.every(interval), on: elsewhere.context) { remoteTicks.append($0) }
            )
        }()
        #expect(entered.wait(timeout: .now() + 10) == .success, "kind \(kind)")
        let blockedSince = Date()
        let neighbourBefore = neighbourTicks.count
        let remoteBefore = remoteTicks.count
        // The gate stays closed until all of these have returned: none of them waits for the handler.
        let prompt = Self.returnsPromptly {
            bystander.pause()
            _ = (bystander.state, bystander.fireCount, bystander.nextDeadline, bystander.description)
            bystander.resume()
            bystander.fire()
            _ = TickerDiagnostics.liveTickers()
            blocker.cancel()
        }
        #expect(prompt, "a call from another thread waited for the blocked handler; kind \(kind)")
        #expect(blocker.state == .cancelled, "kind \(kind)")
        #expect(weakProbe != nil, "the running call still holds its handler; kind \(kind)")
        #expect(eventually { remoteTicks.count >= remoteBefore + 5 }, "another context was held up; kind \(kind)")
        Thread.sleep(until: blockedSince.addingTimeInterval(0.2))
        #expect(neighbourTicks.count == neighbourBefore, "a handler ran beside the blocked one; kind \(kind)")
        #expect(bystanderTicks.count == 0, "kind \(kind)")
        gate.signal()

        #expect(eventually { neighbourTicks.count >= neighbourBefore + 3 && bystanderTicks.count == 1 }, "kind \(kind)")
        #expect(
            eventually { weakProbe == nil }, "the cancelled handler was not freed after its call returned; kind \(kind)"
        )
        #expect(Self.letRun(live.context), "kind \(kind)")
        #expect(blockerTicks.count == 1, "the blocked ticker was called again after cancel(); kind \(kind)")
        #expect(
            bystanderTicks.values.map(\.isManual) == [true],
            "fire() from another thread was delivered once; kind \(kind)")
        let after = Array(neighbourTicks.values.dropFirst(neighbourBefore))
        #expect(
            after.first.map { $0.skipped >= 10 } == true, "200 ms blocked: one call that skips, \(after); kind \(kind)")
        #expect(Self.areOneScheduleWithoutBurstOrSlide(neighbourTicks.values, interval: interval), "kind \(kind)")
        for ticker in [neighbour, bystander, remote] { ticker.cancel() }
    }

    // MARK: Calls lifecycle methods on itself

    /// A handler that calls lifecycle methods on its own ticker, on a real context and under virtual time. Each check
    /// runs on a fresh instance of the suite.
    @Test func lifecycleCallsOnItselfInsideTheHandlerAreSafe() {
        Self().firingAndPausingItselfInsideTheHandlerDoesNotRecurse()
        Self().lifecycleCallsOnItselfInsideTheHandlerUnderVirtualTime()
    }

    /// Inside its own handler a ticker fires and pauses itself: `fire()` does not call the handler on the
    /// calling thread (no recursion; the manual tick comes after the call returns, while paused), and
    /// `pause()` holds until `resume()` from outside.
    func firingAndPausingItselfInsideTheHandlerDoesNotRecurse() {
        for kind in ContextKind.allCases {
            Self().firingAndPausingItselfInsideTheHandlerDoesNotRecurse(kind: kind)
        }
    }

    func firingAndPausingItselfInsideTheHandlerDoesNotRecurse(kind: ContextKind) {
        let live = LiveContext(kind)
        defer { live.tearDown() }
        let ticks = Recorder<Tick>()
        let inside = Recorder<String>()
        let detector = ConcurrencyStressTests.OverlapDetector()
        let box = ContractBox<Ticker>()
        box.set(
            Ticker.schedule(.every(.milliseconds(5)), on: live.context, startsImmediately: false) { tick in
                detector.enter()
                defer { detector.leave() }
                ticks.append(tick)
                guard let me = box.value, tick.fireCount == 1 else {
                    inside.append("call \(tick.fireCount): \(box.value?.state.rawValue ?? "?")")
                    return
                }
                me.fire()
                inside.append("after fire(): \(ticks.count) call(s)")
                me.pause()
                inside.append("after pause(): \(me.state)")
            })
        box.value?.start()
        #expect(eventually { ticks.count == 2 }, "kind \(kind)")
        #expect(Self.letRun(live.context), "kind \(kind)")
        #expect(ticks.count == 2, "a paused ticker delivered a scheduled tick; kind \(kind)")
        #expect(ticks.values.map(\.isManual) == [false, true], "kind \(kind)")
        #expect(
            inside.values == ["after fire(): 1 call(s)", "after pause(): paused", "call 2: paused"], "kind \(kind)")
        box.value?.resume()
        #expect(eventually { ticks.count >= 3 }, "kind \(kind)")
        box.value?.cancel()
        #expect(ticks.values.dropFirst(2).allSatisfy { !$0.isManual }, "kind \(kind)")
        #expect(detector.overlaps == 0, "kind \(kind)")
        box.clear()
    }

    /// The same calls, and what the handle reads inside, pinned down under virtual time: the manual tick
    /// is served right after the call, at the same instant; pausing inside keeps the time left; inside the
    /// last call of a schedule the ticker already reads `finished`, so a `cancel()` there changes nothing.
    func lifecycleCallsOnItselfInsideTheHandlerUnderVirtualTime() {
        for kind in ContractContext.allCases {
            Self().lifecycleCallsOnItselfInsideTheHandlerUnderVirtualTime(kind: kind)
        }
    }

    func lifecycleCallsOnItselfInsideTheHandlerUnderVirtualTime(kind: ContractContext) {
        let time = VirtualTime()
        let start = time.now
        let ticks = Recorder<Tick>()
        let seen = Recorder<String>()
        let seenByCounted = Recorder<String>()
        let box = ContractBox<Ticker>()
        let counted = ContractBox<Ticker>()
        let oneShot = ContractBox<Ticker>()
        @Sendable func offset(_ instant: TickInstant?) -> String {
            instant.map { "\(start.duration(to: $0))" } ?? "none"
        }
        time.run {
            box.set(
                Ticker.schedule(.every(.seconds(1)), on: kind.context) { tick in
                    ticks.append(tick)
                    guard let me = box.value, !tick.isManual else { return }
                    if tick.index == 1 { me.fire() }
                    if tick.index == 2 { me.pause() }
                    seen.append("#\(tick.index) \(me.state), fired \(me.fireCount), next \(offset(me.nextDeadline))")
                })
            counted.set(
                Ticker.schedule(.every(.seconds(1), count: 2), on: kind.context) { tick in
                    guard let me = counted.value else { return }
                    let before = me.state
                    if tick.isLast { me.cancel() }
                    seenByCounted.append("#\(tick.index) \(before), \(me.state), next \(offset(me.nextDeadline))")
                })
            oneShot.set(
                Ticker.schedule(.after(.seconds(1)), on: kind.context) { tick in
                    guard let me = oneShot.value else { return }
                    seenByCounted.append("one-shot \(me.state), fired \(me.fireCount), next \(offset(me.nextDeadline))")
                })
        }
        time.advance(by: .seconds(1))
        #expect(ticks.values.map(\.isManual) == [false, true], "the manual tick follows the call; kind \(kind)")
        #expect(
            ticks.values.map(\.timestamp) == [start.advanced(by: .seconds(1)), start.advanced(by: .seconds(1))],
            "kind \(kind)")
        time.advance(by: .seconds(11))
        #expect(ticks.count == 3, "paused inside its handler; kind \(kind)")
        let resumedAt = time.now
        box.value?.resume()
        time.advance(by: .seconds(1))
        #expect(
            ticks.values.last?.deadline == resumedAt.advanced(by: .seconds(1)), "pause kept the time left; kind \(kind)"
        )
        #expect(
            seen.values == [
                "#1 running, fired 1, next 1.0 seconds", "#2 paused, fired 3, next none",
                "#3 running, fired 4, next 14.0 seconds",
            ], "kind \(kind)")
        #expect(
            seenByCounted.values.sorted() == [
                "#1 running, running, next 2.0 seconds", "#2 finished, finished, next none",
                "one-shot finished, fired 1, next none",
            ], "kind \(kind)")
        #expect(counted.value?.state == .finished, "kind \(kind)")
        box.value?.cancel()
    }

    // MARK: A run loop that stops running

    /// A run loop that stops running and a queue its creator releases. Each check runs on a fresh instance of the
    /// suite.
    @Test func contextsThatGoAwayStopTheirTickersSafely() {
        Self().tickersOnARunLoopThatStopsRunningStayLiveButNeverFire()
        Self().aReleasedQueueLivesUntilItsLastTickerStopsAndItsLastHandleGoes()
    }

    /// The thread of a run-loop context stops running its loop but lives on. Its tickers stay live —
    /// `running`, listed by diagnostics, their deadlines passing unserved — and nothing fires or crashes:
    /// scheduling, `fire()`, `pause()` and `resume()` only change state. `cancel()` and releasing a handle
    /// free the handler at once; an owner that goes away is freed at once (never retained) and its ticker
    /// is stopped, with its handler freed, at the next sweep. When the thread then ends, the loop's
    /// remaining tickers are cancelled.
    func tickersOnARunLoopThatStopsRunningStayLiveButNeverFire() {
        let thread = RunLoopThread(name: "TimerKitTests.misbehaving.stoppedLoop")
        let context = thread.context
        let tag = contractUniqueFileID()
        let tracker = LifetimeTracker()
        let holder = ContractBox<ContractOwner>(ContractOwner(tracker: tracker))
        let ticks = Recorder<String>()
        weak var weakHandleProbe: ContractProbe?
        weak var weakCancelProbe: ContractProbe?
        weak var weakOwnerProbe: ContractProbe?
        var handleOwned: Ticker?
        let cancelled: Ticker
        do {
            let (handleProbe, cancelProbe, ownerProbe) = (ContractProbe(), ContractProbe(), ContractProbe())
            (weakHandleProbe, weakCancelProbe, weakOwnerProbe) = (handleProbe, cancelProbe, ownerProbe)
            handleOwned = Ticker.schedule(.every(.milliseconds(2)), on: context, fileID: tag) { _ in
                _ = handleProbe
                ticks.append("handle")
            }
            cancelled = Ticker.schedule(.every(.milliseconds(2)), on: context, fileID: tag) { _ in
                _ = cancelProbe
                ticks.append("cancel")
            }
            Ticker.schedule(.every(.milliseconds(2)), on: context, owner: holder.value!, fileID: tag) { _, _ in
                _ = ownerProbe
                ticks.append("owner")
            }
        }
        #expect(eventually { Set(ticks.values).count == 3 }, "the loop was running")
        thread.stopRunningLoop()
        let countAtStop = ticks.count
        let late = Ticker.schedule(.after(.zero), on: context, fileID: tag) { _ in ticks.append("late") }
        late.fire()
        cancelled.pause()
        cancelled.fire()
        cancelled.resume()
        Thread.sleep(forTimeInterval: 0.05)  // 25 intervals: the absence of ticks is asserted, not timing
        #expect(ticks.count == countAtStop, "a ticker fired on a loop that no longer runs")
        let listed = TickerDiagnostics.liveTickers().filter { $0.fileID == tag }
        #expect(listed.count == 4)
        #expect(listed.allSatisfy { $0.state == .running })
        let now = cancelled.engine.now()
        #expect(handleOwned?.nextDeadline.map { $0 < now } == true, "its deadline passed unserved")

        cancelled.cancel()
        #expect(weakCancelProbe == nil, "cancel() freed the handler at once")
        handleOwned = nil
        #expect(weakHandleProbe == nil, "releasing the handle freed the handler at once")
        holder.clear()
        #expect(tracker.live == 0, "the owner was retained")
        #expect(TickerDiagnostics.liveTickers().filter { $0.fileID == tag }.map(\.binding) == ["handle"])
        #expect(weakOwnerProbe == nil, "the sweep stopped the dead owner's ticker and freed its handler")
        #expect(late.state == .running)
        thread.stop()
        #expect(eventually { late.state == .cancelled }, "the thread's end cancels the loop's tickers")
        #expect(TickerDiagnostics.liveTickers().filter { $0.fileID == tag }.isEmpty)
        #expect(ticks.count == countAtStop)
    }

    // MARK: A queue its creator releases

    /// The creator of a dispatch queue lets it go while tickers are on it. The context holds the queue
    /// (`Ticker.context` names it), so the tickers keep firing — a pending one-shot included — until they
    /// stop; once the last one has stopped and no handle is left, the queue is freed.
    func aReleasedQueueLivesUntilItsLastTickerStopsAndItsLastHandleGoes() {
        let tracker = LifetimeTracker()
        let holder = ContractBox<ContractOwner>(ContractOwner(tracker: tracker))
        let ticks = Recorder<String>()
        weak var weakQueue: DispatchQueue?
        var handle: Ticker?
        do {
            let queue = DispatchQueue(label: "TimerKitTests.misbehaving.releasedQueue.\(UUID().uuidString)")
            weakQueue = queue
            let owner = holder.value!
            handle = Ticker.schedule(.every(.milliseconds(2)), on: .dispatch(queue)) { _ in ticks.append("handle") }
            Ticker.schedule(.every(.milliseconds(2)), on: .dispatch(queue), owner: owner) { _, _ in
                ticks.append("owner")
            }
            Ticker.schedule(.after(.milliseconds(50)), on: .dispatch(queue), owner: owner) { _, _ in
                ticks.append("oneShot")
            }
        }
        #expect(eventually { ticks.values.contains("oneShot") }, "the one-shot did not fire on the released queue")
        let firedBefore = ticks.values.filter { $0 != "oneShot" }.count
        #expect(eventually { ticks.values.filter { $0 != "oneShot" }.count >= firedBefore + 10 }, "ticking stopped")
        #expect(weakQueue != nil)

        handle?.cancel()
        holder.clear()  // the owner-bound ticker stops at its next deadline
        #expect(eventually { tracker.live == 0 }, "the owner was retained")
        #expect(eventually { handle?.engine.liveCount() == 0 }, "a ticker is still live")
        #expect(weakQueue != nil, "a handle still names the context, and so the queue")
        weakQueue?.sync {}
        let stopped = ticks.count
        handle = nil
        #expect(eventually { weakQueue == nil }, "the queue was not freed after its last ticker and handle went")
        #expect(ticks.count == stopped)
        #expect(ticks.values.filter { $0 == "oneShot" }.count == 1)
    }
}
