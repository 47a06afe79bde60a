import Foundation
import Testing
import TimerKitTestSupport

@testable import TimerKit

/// Contract 1, 3 and 5 under virtual time, on a dispatch context and on a run-loop context: every state
/// × every lifecycle call, then the specific sequences the contract names, then lifetimes (owner,
/// handle, handler captures).
@Suite struct LifecycleMatrixTests {
    init() { LogCapture.install() }

    // MARK: The matrix

    enum Call: String, CaseIterable, Sendable {
        case start, pause, resume, restart, cancel, fire

        func apply(to ticker: Ticker) {
            switch self {
            case .start: ticker.start()
            case .pause: ticker.pause()
            case .resume: ticker.resume()
            case .restart: ticker.restart()
            case .cancel: ticker.cancel()
            case .fire: ticker.fire()
            }
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let state: TickerState
        let call: Call
        let expected: TickerState
        /// Manual deliveries the call causes (before any deadline).
        let manualCalls: Int

        var testDescription: String {
            "\(state).\(call.rawValue)() → \(expected)" + (manualCalls > 0 ? " +\(manualCalls) manual" : "")
        }
    }

    /// The contract's table: calls that do not apply to a state do nothing.
    static let cases: [Case] = {
        func row(_ state: TickerState, _ results: [Call: TickerState]) -> [Case] {
            Call.allCases.map { call in
                let expected = results[call] ?? state
                let fires = call == .fire && !state.isTerminal ? 1 : 0
                return Case(state: state, call: call, expected: expected, manualCalls: fires)
            }
        }
        return row(.idle, [.start: .running, .restart: .running, .cancel: .cancelled])
            + row(.running, [.pause: .paused, .restart: .running, .cancel: .cancelled])
            + row(.paused, [.resume: .running, .restart: .running, .cancel: .cancelled])
            + row(.finished, [:])
            + row(.cancelled, [:])
    }()

    @Test func matrixCoversEveryStateAndCall() {
        #expect(Self.cases.count == 30)
    }

    /// Brings a fresh ticker (every 1 s, count 2, so that it can be observed both running and finished)
    /// into `state` at the virtual instant `start + 0` (finished: `start + 2 s`).
    static func make(
        _ state: TickerState,
        on kind: ContractContext,
        time: VirtualTime,
        ticks: Recorder<Tick>
    ) -> Ticker {
        let ticker = time.run {
            Ticker.schedule(.every(.seconds(1), count: 2), on: kind.context, startsImmediately: state != .idle) {
                ticks.append($0)
            }
        }
        switch state {
        case .idle, .running: break
        case .paused: ticker.pause()
        case .finished: time.advance(by: .seconds(2))
        case .cancelled: ticker.cancel()
        }
        return ticker
    }

    @Test(arguments: ContractContext.allCases, LifecycleMatrixTests.cases)
    func everyCallIsSafeInEveryState(kind: ContractContext, row: Case) {
        let time = VirtualTime()
        let ticks = Recorder<Tick>()
        let ticker = Self.make(row.state, on: kind, time: time, ticks: ticks)
        #expect(ticker.state == row.state)
        let before = ticks.count

        row.call.apply(to: ticker)
        #expect(ticks.count == before, "no call ever runs the handler on the calling thread")
        #expect(ticker.state == row.expected)
        // Every live ticker here waits one full interval (made, paused or restarted at this instant).
        #expect(ticker.timeRemaining == (row.expected.isTerminal ? nil : .seconds(1)))

        // Deliver whatever the call made due now (a manual fire).
        time.advance(by: .zero)
        let manual = Array(ticks.values.dropFirst(before))
        #expect(manual.count == row.manualCalls)
        #expect(manual.allSatisfy { $0.isManual && $0.index == 0 && $0.remaining == 2 && $0.skipped == 0 })
        #expect(ticker.state == row.expected, "a manual fire does not change a repeating ticker's state")

        // One interval later: only a running ticker has had its first deadline.
        time.advance(by: .seconds(1))
        let scheduled = ticks.values.dropFirst(before + manual.count)
        #expect(scheduled.count == (row.expected == .running ? 1 : 0))
        #expect(scheduled.allSatisfy { !$0.isManual && $0.index == 1 && $0.lateness == .zero })
        #expect(ticker.fireCount == ticks.count)

        // Every transition is idempotent: the same call again leaves the same state.
        row.call.apply(to: ticker)
        time.advance(by: .zero)
        #expect(ticker.state == row.expected)
        ticker.cancel()
        #expect(ticker.state.isTerminal)
    }

    // MARK: Specific sequences

    @Test(arguments: ContractContext.allCases)
    func pauseTwiceKeepsTheFirstRemainingTime(kind: ContractContext) {
        let time = VirtualTime()
        let ticks = Recorder<Tick>()
        let ticker = time.run { Ticker.schedule(.every(.seconds(1)), on: kind.context) { ticks.append($0) } }
        time.advance(by: .milliseconds(300))
        ticker.pause()
        time.advance(by: .milliseconds(200))
        ticker.pause()
        #expect(ticker.state == .paused)
        #expect(ticker.nextDeadline == nil)
        time.advance(by: .seconds(5))
        #expect(ticks.count == 0)
        let resumedAt = time.now
        ticker.resume()
        #expect(ticker.nextDeadline == resumedAt.advanced(by: .milliseconds(700)))
        time.advance(by: .milliseconds(700))
        #expect(ticks.values.map(\.deadline) == [resumedAt.advanced(by: .milliseconds(700))])
        ticker.cancel()
    }

    @Test(arguments: ContractContext.allCases)
    func resumeTwiceDoesNotRestartTheWait(kind: ContractContext) {
        let time = VirtualTime()
        let ticks = Recorder<Tick>()
        let ticker = time.run { Ticker.schedule(.every(.seconds(1)), on: kind.context) { ticks.append($0) } }
        time.advance(by: .milliseconds(300))
        ticker.pause()
        time.advance(by: .seconds(5))
        let resumedAt = time.now
        ticker.resume()
        time.advance(by: .milliseconds(200))
        ticker.resume()
        ticker.resume()
        #expect(ticker.state == .running)
        time.advance(by: .milliseconds(500))
        #expect(ticks.values.map(\.deadline) == [resumedAt.advanced(by: .milliseconds(700))])
        time.advance(by: .seconds(1))
        #expect(ticks.values.map(\.index) == [1, 2])
        ticker.cancel()
    }

    @Test(arguments: ContractContext.allCases)
    func pauseKeepsTheRemainingTime(kind: ContractContext) {
        let time = VirtualTime()
        let ticks = Recorder<Tick>()
        let ticker = time.run { Ticker.schedule(.every(.seconds(1)), on: kind.context) { ticks.append($0) } }
        time.advance(by: .milliseconds(300))
        ticker.pause()
        time.advance(by: .seconds(10))
        #expect(ticks.count == 0)
        let resumedAt = time.now
        ticker.resume()
        time.advance(by: .milliseconds(699))
        #expect(ticks.count == 0)
        time.advance(by: .milliseconds(1))
        #expect(ticks.count == 1)
        time.advance(by: .seconds(2))
        let values = ticks.values
        #expect(values.map(\.index) == [1, 2, 3], "paused time is not counted as missed deadlines")
        #expect(values.map(\.skipped) == [0, 0, 0])
        #expect(values.map(\.deadline) == [700, 1_700, 2_700].map { resumedAt.advanced(by: .milliseconds($0)) })
        #expect(values.allSatisfy { $0.lateness == .zero })
        ticker.cancel()
    }

    @Test(arguments: ContractContext.allCases)
    func cancelTwiceAndResumeAfterCancelAreHarmless(kind: ContractContext) {
        let time = VirtualTime()
        let ticks = Recorder<Tick>()
        weak var weakProbe: ContractProbe?
        let ticker = time.run {
            let probe = ContractProbe()
            weakProbe = probe
            return Ticker.schedule(.every(.seconds(1)), on: kind.context) { tick in
                _ = probe
                ticks.append(tick)
            }
        }
        time.advance(by: .seconds(1))
        ticker.cancel()
        #expect(weakProbe == nil, "cancel releases the handler and its captures")
        ticker.cancel()
        ticker.resume()
        ticker.start()
        ticker.fire()
        ticker.pause()
        ticker.resume()
        #expect(ticker.state == .cancelled)
        #expect(ticker.nextDeadline == nil)
        time.advance(by: .seconds(10))
        #expect(ticks.count == 1)
        #expect(ticker.fireCount == 1)
    }

    @Test(arguments: ContractContext.allCases)
    func fireDeliversOnceWithoutMovingTheSchedule(kind: ContractContext) {
        let time = VirtualTime()
        let ticks = Recorder<Tick>()
        let start = time.now
        let ticker = time.run { Ticker.schedule(.every(.seconds(1)), on: kind.context) { ticks.append($0) } }
        time.advance(by: .milliseconds(400))
        let firedAt = time.now
        ticker.fire()
        #expect(ticks.count == 0, "fire() never calls the handler on the calling thread")
        #expect(ticker.nextDeadline == firedAt)
        time.advance(by: .zero)
        #expect(ticks.count == 1)
        let manual = ticks.values[0]
        #expect(manual.isManual)
        #expect(manual.index == 0)
        #expect(manual.deadline == firedAt)
        #expect(manual.timestamp == firedAt)
        #expect(manual.skipped == 0)
        #expect(manual.remaining == nil)
        #expect(manual.fireCount == 1)
        #expect(ticker.nextDeadline == start.advanced(by: .seconds(1)), "the schedule did not move")
        time.advance(by: .milliseconds(600))
        #expect(ticks.values.map(\.isManual) == [true, false])
        #expect(ticks.values[1].index == 1)
        #expect(ticks.values[1].deadline == start.advanced(by: .seconds(1)))
        #expect(ticks.values[1].fireCount == 2)
        // Two fire() calls are two deliveries; a manual tick reports the last deadline delivered.
        ticker.fire()
        ticker.fire()
        time.advance(by: .zero)
        #expect(ticks.values.suffix(2).map(\.isManual) == [true, true])
        #expect(ticks.values.suffix(2).map(\.index) == [1, 1])
        time.advance(by: .seconds(1))
        #expect(ticks.values.last?.deadline == start.advanced(by: .seconds(2)))
        #expect(ticker.state == .running)
        ticker.cancel()
    }

    @Test(arguments: ContractContext.allCases)
    func fireOnAOneShotIsItsOneTick(kind: ContractContext) {
        let time = VirtualTime()
        let ticks = Recorder<Tick>()
        let ticker = time.run { Ticker.schedule(.after(.seconds(5)), on: kind.context) { ticks.append($0) } }
        time.advance(by: .seconds(1))
        let firedAt = time.now
        ticker.fire()
        time.advance(by: .zero)
        #expect(ticks.count == 1)
        let tick = ticks.values[0]
        #expect(tick.isManual)
        #expect(tick.index == 1)
        #expect(tick.remaining == 0)
        #expect(tick.deadline == firedAt)
        #expect(ticker.state == .finished)
        time.advance(by: .seconds(10))
        #expect(ticks.count == 1)
        ticker.fire()
        time.advance(by: .zero)
        #expect(ticks.count == 1)
    }

    @Test(arguments: ContractContext.allCases)
    func fireWhilePausedDeliversAndStaysPaused(kind: ContractContext) {
        let time = VirtualTime()
        let ticks = Recorder<Tick>()
        let ticker = time.run { Ticker.schedule(.every(.seconds(1)), on: kind.context) { ticks.append($0) } }
        time.advance(by: .milliseconds(300))
        ticker.pause()
        time.advance(by: .seconds(1))
        ticker.fire()
        time.advance(by: .zero)
        #expect(ticks.values.map(\.isManual) == [true])
        #expect(ticker.state == .paused)
        #expect(ticker.nextDeadline == nil)
        time.advance(by: .seconds(10))
        #expect(ticks.count == 1)
        let resumedAt = time.now
        ticker.resume()
        time.advance(by: .seconds(1))
        #expect(
            ticks.values.last?.deadline == resumedAt.advanced(by: .milliseconds(700)), "fire() kept the remaining time")
        ticker.cancel()
    }

    @Test(arguments: ContractContext.allCases)
    func fireWhileIdleDeliversAndStaysIdle(kind: ContractContext) {
        let time = VirtualTime()
        let ticks = Recorder<Tick>()
        let ticker = time.run {
            Ticker.schedule(.every(.seconds(1)), on: kind.context, startsImmediately: false) { ticks.append($0) }
        }
        ticker.fire()
        time.advance(by: .seconds(5))
        #expect(ticks.values.map(\.isManual) == [true])
        #expect(ticker.state == .idle)
        let startedAt = time.now
        ticker.start()
        time.advance(by: .seconds(1))
        #expect(ticks.values.last?.deadline == startedAt.advanced(by: .seconds(1)), "deadlines count from start()")
        ticker.cancel()
    }

    @Test(arguments: ContractContext.allCases)
    func cancelInsideTheHandlerStopsAtOnce(kind: ContractContext) {
        let time = VirtualTime()
        let owner = ContractOwner()
        time.run {
            owner.ticker = Ticker.schedule(.every(.seconds(1)), on: kind.context, owner: owner) { owner, tick in
                owner.record(tick)
                if tick.index == 2 { owner.ticker?.cancel() }
            }
        }
        time.advance(by: .seconds(10))
        #expect(owner.ticks.values.map(\.index) == [1, 2])
        #expect(owner.ticker?.state == .cancelled)
    }

    @Test(arguments: ContractContext.allCases)
    func cancelInsideAHandlerIsExactForATickDueAtTheSameInstant(kind: ContractContext) {
        let time = VirtualTime()
        let calls = Recorder<String>()
        let victim = ContractBox<Ticker>()
        let killer = time.run {
            let killer = Ticker.schedule(.every(.seconds(1)), on: kind.context) { _ in
                calls.append("killer")
                victim.value?.cancel()
            }
            victim.set(Ticker.schedule(.every(.seconds(1)), on: kind.context) { _ in calls.append("victim") })
            return killer
        }
        time.advance(by: .seconds(3))
        #expect(calls.values == ["killer", "killer", "killer"])
        #expect(victim.value?.state == .cancelled)
        killer.cancel()
    }

    @Test(arguments: ContractContext.allCases)
    func cancelInsideTheHandlerOfASkippingDelivery(kind: ContractContext) {
        let time = VirtualTime()
        let ticks = Recorder<Tick>()
        let box = ContractBox<Ticker>()
        time.run {
            box.set(
                Ticker.schedule(.every(.seconds(1)), on: kind.context) { tick in
                    ticks.append(tick)
                    time.clock.advance(by: .seconds(5))  // slow: deadlines pile up
                    box.value?.cancel()
                })
        }
        time.advance(by: .seconds(20))
        #expect(ticks.count == 1)
        #expect(box.value?.state == .cancelled)
    }

    // MARK: Owners

    @Test(arguments: ContractContext.allCases)
    func ownerReleasedInsideItsHandlerWhileHoldingItsHandle(kind: ContractContext) {
        let time = VirtualTime()
        let tracker = LifetimeTracker()
        let ticks = Recorder<Tick>()
        let holder = ContractBox<ContractOwner>(ContractOwner(tracker: tracker))
        weak var weakProbe: ContractProbe?
        time.run {
            let owner = holder.value!
            let probe = ContractProbe()
            weakProbe = probe
            owner.ticker = Ticker.schedule(.every(.seconds(1)), on: kind.context, owner: owner) { _, tick in
                _ = probe
                ticks.append(tick)
                if tick.index == 2 { holder.clear() }  // drops the last strong reference to the owner
            }
        }
        #expect(tracker.live == 1)
        time.advance(by: .seconds(2))
        #expect(tracker.live == 0, "the owner's deinit ran once the handler returned")
        #expect(weakProbe == nil, "the owner's handle cancelled the ticker at once, freeing the handler")
        if kind.engineIsReleasedWhenIdle {
            #expect(time.clock.nextDeadline() == nil, "the context's alarm went away with its last ticker")
        }
        time.advance(by: .seconds(10))
        #expect(ticks.values.map(\.index) == [1, 2])
    }

    @Test(arguments: ContractContext.allCases)
    func ownerReleasedInsideItsHandlerStopsAtTheNextDeadline(kind: ContractContext) {
        let time = VirtualTime()
        let tracker = LifetimeTracker()
        let ticks = Recorder<Tick>()
        let holder = ContractBox<ContractOwner>(ContractOwner(tracker: tracker))
        weak var weakProbe: ContractProbe?
        let ticker = time.run {
            let probe = ContractProbe()
            weakProbe = probe
            return Ticker.schedule(.every(.seconds(1)), on: kind.context, owner: holder.value!) { _, tick in
                _ = probe
                ticks.append(tick)
                if tick.index == 2 { holder.clear() }
            }
        }
        time.advance(by: .seconds(2))
        #expect(tracker.live == 0, "the owner's deinit ran once the handler returned")
        time.advance(by: .seconds(1))
        #expect(ticker.state == .cancelled, "stopped at the next deadline at the latest")
        #expect(weakProbe == nil)
        time.advance(by: .seconds(10))
        #expect(ticks.values.map(\.index) == [1, 2])
    }

    @Test(arguments: ContractContext.allCases)
    func ownerBoundHandleDiscardedKeepsFiringWhileTheOwnerLives(kind: ContractContext) {
        let time = VirtualTime()
        let owner = ContractOwner()
        time.run {
            _ = Ticker.schedule(.every(.seconds(1)), on: kind.context, owner: owner) { owner, tick in owner.record(tick)
            }
            // Target–action (public on the main actor only) through its binding, on every context.
            _ = Ticker.makeBound(
                .every(.seconds(1)), on: kind.context, owner: owner, binding: .target, startsImmediately: true,
                fileID: #fileID, line: #line
            ) { owner, tick in owner.record(tick) }
        }
        time.advance(by: .seconds(3))
        #expect(owner.ticks.count == 6)
        let live = time.run { TickerDiagnostics.liveTickers() }
        #expect(live.count == 2)
        #expect(live.allSatisfy { $0.ownerType == "ContractOwner" && $0.state == .running })
    }

    @Test(arguments: ContractContext.allCases)
    func ownerDeathStopsAtTheNextDeadlineWithoutCalling(kind: ContractContext) {
        let time = VirtualTime()
        let tracker = LifetimeTracker()
        let ticks = Recorder<Tick>()
        let holder = ContractBox<ContractOwner>(ContractOwner(tracker: tracker))
        weak var weakProbe: ContractProbe?
        time.run {
            let probe = ContractProbe()
            weakProbe = probe
            // The handle is discarded: the owner alone defines the lifetime.
            _ = Ticker.schedule(.every(.seconds(1)), on: kind.context, owner: holder.value!) { owner, tick in
                _ = probe
                ticks.append(tick)
            }
        }
        time.advance(by: .milliseconds(1_500))
        holder.clear()
        #expect(tracker.live == 0)
        time.advance(by: .milliseconds(500))
        #expect(weakProbe == nil, "stopped at the next deadline at the latest, handler freed")
        #expect(ticks.count == 1, "without calling the handler")
        #expect(time.run { TickerDiagnostics.liveTickers() }.isEmpty)
        if kind.engineIsReleasedWhenIdle {
            #expect(time.clock.nextDeadline() == nil)
        }
    }

    @Test(arguments: ContractContext.allCases)
    func ownerHoldingItsOwnHandleStopsAtOnceWhenItDies(kind: ContractContext) {
        let time = VirtualTime()
        let tracker = LifetimeTracker()
        let ticks = Recorder<Tick>()
        let holder = ContractBox<ContractOwner>(ContractOwner(tracker: tracker))
        weak var weakProbe: ContractProbe?
        weak var weakTicker: Ticker?
        time.run {
            let probe = ContractProbe()
            weakProbe = probe
            let owner = holder.value!
            owner.ticker = Ticker.schedule(.every(.seconds(1)), on: kind.context, owner: owner) { _, tick in
                _ = probe
                ticks.append(tick)
            }
            weakTicker = owner.ticker
        }
        time.advance(by: .milliseconds(1_500))
        #expect(weakProbe != nil && weakTicker != nil)
        holder.clear()
        #expect(tracker.live == 0)
        #expect(weakTicker == nil)
        #expect(weakProbe == nil, "stopped at once: the handler's captures are already freed")
        #expect(time.run { TickerDiagnostics.liveTickers() }.isEmpty)
        if kind.engineIsReleasedWhenIdle {
            #expect(time.clock.nextDeadline() == nil)
        }
        time.advance(by: .seconds(10))
        #expect(ticks.count == 1)
    }

    @Test(arguments: ContractContext.allCases)
    func ownerDeathWhilePausedIsNoticedAtTheFirstDeadlineAfterResume(kind: ContractContext) {
        let time = VirtualTime()
        let holder = ContractBox<ContractOwner>(ContractOwner())
        weak var weakProbe: ContractProbe?
        var ticker: Ticker? = time.run {
            let probe = ContractProbe()
            weakProbe = probe
            return Ticker.schedule(.every(.seconds(1)), on: kind.context, owner: holder.value!) { _, _ in _ = probe }
        }
        ticker?.pause()
        holder.clear()
        ticker?.resume()
        time.advance(by: .seconds(1))
        #expect(ticker?.state == .cancelled)
        #expect(weakProbe == nil)
        ticker = nil
        time.advance(by: .seconds(1))
    }

    // MARK: Handles

    @Test(arguments: ContractContext.allCases)
    func releasingAnIdleHandleCancelsWithoutEverFiring(kind: ContractContext) {
        let time = VirtualTime()
        let ticks = Recorder<Tick>()
        weak var weakProbe: ContractProbe?
        var ticker: Ticker? = time.run {
            let probe = ContractProbe()
            weakProbe = probe
            return Ticker.schedule(.every(.seconds(1)), on: kind.context, startsImmediately: false) { tick in
                _ = probe
                ticks.append(tick)
            }
        }
        #expect(ticker?.state == .idle)
        #expect(weakProbe != nil)
        ticker = nil
        #expect(weakProbe == nil)
        time.advance(by: .seconds(5))
        #expect(ticks.count == 0)
        #expect(time.run { TickerDiagnostics.liveTickers() }.isEmpty)
    }

    @Test(arguments: ContractContext.allCases)
    func releasingAPausedHandleCancelsAndFreesTheHandler(kind: ContractContext) {
        let time = VirtualTime()
        let ticks = Recorder<Tick>()
        weak var weakProbe: ContractProbe?
        var ticker: Ticker? = time.run {
            let probe = ContractProbe()
            weakProbe = probe
            return Ticker.schedule(.every(.seconds(1)), on: kind.context) { tick in
                _ = probe
                ticks.append(tick)
            }
        }
        time.advance(by: .milliseconds(1_500))
        ticker?.pause()
        #expect(weakProbe != nil, "the handler holds its captures while the ticker lives")
        ticker = nil
        #expect(weakProbe == nil)
        time.advance(by: .seconds(5))
        #expect(ticks.count == 1)
        #expect(time.run { TickerDiagnostics.liveTickers() }.isEmpty)
        if kind.engineIsReleasedWhenIdle {
            #expect(time.clock.nextDeadline() == nil)
        }
    }

    @Test(arguments: ContractContext.allCases)
    func releasingARunningHandleCancelsAndFreesTheHandler(kind: ContractContext) {
        let time = VirtualTime()
        let ticks = Recorder<Tick>()
        weak var weakProbe: ContractProbe?
        weak var weakTicker: Ticker?
        var ticker: Ticker? = time.run {
            let probe = ContractProbe()
            weakProbe = probe
            return Ticker.schedule(.every(.seconds(1)), on: kind.context) { tick in
                _ = probe
                ticks.append(tick)
            }
        }
        weakTicker = ticker
        time.advance(by: .seconds(2))
        ticker = nil
        #expect(weakTicker == nil)
        #expect(weakProbe == nil)
        time.advance(by: .seconds(5))
        #expect(ticks.count == 2)
        if kind.engineIsReleasedWhenIdle {
            #expect(time.clock.nextDeadline() == nil, "no alarm is left behind")
        }
    }

    @Test(arguments: ContractContext.allCases)
    func releasingAHandleInsideItsOwnHandler(kind: ContractContext) {
        let time = VirtualTime()
        let ticks = Recorder<Tick>()
        let box = ContractBox<Ticker>()
        weak var weakProbe: ContractProbe?
        time.run {
            let probe = ContractProbe()
            weakProbe = probe
            box.set(
                Ticker.schedule(.every(.seconds(1)), on: kind.context) { tick in
                    _ = probe
                    ticks.append(tick)
                    if tick.index == 2 { box.clear() }
                })
        }
        time.advance(by: .seconds(5))
        #expect(ticks.values.map(\.index) == [1, 2])
        #expect(weakProbe == nil)
    }

    @Test(arguments: ContractContext.allCases)
    func finishedHandleOwnedTickerFreesItsHandlerBeforeTheHandleGoes(kind: ContractContext) {
        let time = VirtualTime()
        weak var weakProbe: ContractProbe?
        let ticker = time.run {
            let probe = ContractProbe()
            weakProbe = probe
            return Ticker.schedule(.every(.seconds(1), count: 2), on: kind.context) { _ in _ = probe }
        }
        time.advance(by: .seconds(2))
        #expect(ticker.state == .finished)
        #expect(ticker.fireCount == 2)
        #expect(weakProbe == nil)
    }

    /// An owner-bound ticker whose handle is dropped while it is idle or paused can never be started or
    /// resumed again (only the handle can), so releasing the handle cancels it at once.
    @Test(arguments: ContractContext.allCases, [TickerState.idle, .paused])
    func ownerBoundTickerStrandedWithoutItsHandleIsCancelled(kind: ContractContext, state: TickerState) {
        let time = VirtualTime()
        let owner = ContractOwner()
        weak var weakProbe: ContractProbe?
        weak var weakTicker: Ticker?
        time.run {
            let probe = ContractProbe()
            weakProbe = probe
            let ticker = Ticker.schedule(
                .every(.seconds(1)), on: kind.context, owner: owner, startsImmediately: state != .idle
            ) { owner, tick in
                _ = probe
                owner.record(tick)
            }
            if state == .paused { ticker.pause() }
            weakTicker = ticker
        }
        #expect(weakTicker == nil)
        #expect(weakProbe == nil, "the handler is freed although the owner lives")
        #expect(time.run { TickerDiagnostics.liveTickers() }.isEmpty)
        time.advance(by: .seconds(5))
        #expect(owner.ticks.count == 0)
    }

    @Test func virtualTimeBaseIsFreedAfterUse() {
        weak var weakDispatchBase: TimeBase?
        weak var weakRunLoopBase: TimeBase?
        for kind in ContractContext.allCases {
            let time = VirtualTime()
            if kind == .dispatch { weakDispatchBase = time.base } else { weakRunLoopBase = time.base }
            let owner = ContractOwner()
            time.run {
                // One stopped, one left running (cancelled when the virtual time goes).
                Ticker.schedule(.every(.seconds(1)), on: kind.context) { _ in }.cancel()
                Ticker.schedule(.every(.seconds(1)), on: kind.context, owner: owner) { owner, tick in owner.record(tick)
                }
            }
            time.advance(by: .seconds(1))
            #expect(owner.ticks.count == 1)
        }
        #expect(weakDispatchBase == nil)
        #expect(weakRunLoopBase == nil, "a run-loop engine does not keep its virtual time base alive")
    }

    // MARK: Releasing handlers outside the lock

    /// Where a stopped ticker's handler (and what it captures) is released.
    enum ReleasePath: String, CaseIterable, Sendable {
        case cancel, handleReleased, finished, ownerFoundDeadAtDeadline, ownerSweptByListing, virtualTimeTornDown
    }

    /// An object whose deinit calls straight back into the engine that releases it: schedules, cancels
    /// and lists tickers on the same context, and drops another ticker's handle. If any release happened
    /// under the engine's (non-recursive) lock, this would deadlock.
    final class Reentrant: Sendable {
        let context: TickerContext
        let log: Recorder<String>
        let other: ContractBox<Ticker>

        init(context: TickerContext, log: Recorder<String>, other: Ticker) {
            self.context = context
            self.log = log
            self.other = ContractBox(other)
        }

        deinit {
            let extra = Ticker.schedule(.after(.seconds(1)), on: context) { _ in }
            extra.fire()
            extra.cancel()
            other.value?.pause()
            other.clear()  // the other ticker's last handle goes: it is cancelled from here
            _ = TickerDiagnostics.liveTickers()
            log.append("deinit")
        }
    }

    @Test(arguments: ContractContext.allCases, ReleasePath.allCases)
    func handlerCapturesAreReleasedOutsideTheEngineLock(kind: ContractContext, path: ReleasePath) {
        var time: VirtualTime? = VirtualTime()
        let log = Recorder<String>()
        let holder = ContractBox<ContractOwner>(ContractOwner())
        let otherCalls = Recorder<Tick>()
        var ticker: Ticker? = time!.run {
            let other = Ticker.schedule(.every(.seconds(1)), on: kind.context) { otherCalls.append($0) }
            let reentrant = Reentrant(context: kind.context, log: log, other: other)
            let schedule: TickSchedule = path == .finished ? .after(.seconds(1)) : .every(.seconds(1))
            switch path {
            case .ownerFoundDeadAtDeadline, .ownerSweptByListing:
                return Ticker.schedule(schedule, on: kind.context, owner: holder.value!) { _, _ in _ = reentrant }
            default:
                return Ticker.schedule(schedule, on: kind.context) { _ in _ = reentrant }
            }
        }
        #expect(log.values.isEmpty)
        switch path {
        case .cancel:
            time!.run { ticker?.cancel() }
        case .handleReleased:
            time!.run { ticker = nil }
        case .finished:
            time!.advance(by: .seconds(1))
        case .ownerFoundDeadAtDeadline:
            ticker = nil
            holder.clear()
            time!.advance(by: .seconds(1))
        case .ownerSweptByListing:
            ticker = nil
            holder.clear()
            time!.run { _ = TickerDiagnostics.liveTickers() }
        case .virtualTimeTornDown:
            time = nil
        }
        #expect(log.values == ["deinit"])
        time?.advance(by: .seconds(5))
        #expect(otherCalls.count <= 1, "the other ticker stopped when its handle went")
        _ = ticker
    }

    // MARK: Known issues

    /// When the owner is found dead at a deadline, the engine has already counted the delivery (and, for
    /// the last deadline of a counted schedule or a one-shot, already finished the ticker) before the
    /// handler reports the owner gone. See the report.
    @Test(arguments: ContractContext.allCases)
    func ownerFoundDeadAtADeadlineIsNotCountedAsAFire(kind: ContractContext) {
        let time = VirtualTime()
        let holder = ContractBox<ContractOwner>(ContractOwner())
        let repeating = time.run {
            Ticker.schedule(.every(.seconds(1)), on: kind.context, owner: holder.value!) { owner, tick in
                owner.record(tick)
            }
        }
        let oneShot = time.run {
            Ticker.schedule(.after(.milliseconds(2_500)), on: kind.context, owner: holder.value!) { owner, tick in
                owner.record(tick)
            }
        }
        time.advance(by: .seconds(1))
        #expect(holder.value?.ticks.count == 1)
        holder.clear()
        time.advance(by: .seconds(2))
        #expect(repeating.state == .cancelled)
        #expect(repeating.fireCount == 1, "the handler ran once")
        #expect(oneShot.fireCount == 0, "the one-shot's handler never ran")
        #expect(oneShot.state == .cancelled, "stopped because its owner went away, not finished")
    }
}
