import Foundation
import Testing
import TimerKitTestSupport

@testable import TimerKit

/// Contract 1, 3 and 5 for frame subscriptions, under virtual time: every state × every lifecycle call,
/// releasing handles, owners going away, and subscribing or cancelling from inside frame handlers.
@Suite struct FrameSubscriptionTests {
    init() { LogCapture.install() }

    let time = VirtualTime()
    let context = FrameTestSupport.context
    let interval = FrameTestSupport.interval

    // MARK: The matrix

    enum Call: String, CaseIterable, Sendable {
        case pause, resume, cancel

        func apply(to subscription: FrameSubscription) {
            switch self {
            case .pause: subscription.pause()
            case .resume: subscription.resume()
            case .cancel: subscription.cancel()
            }
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let state: TickerState
        let call: Call
        let expected: TickerState
        var testDescription: String { "\(state).\(call.rawValue)() → \(expected)" }
    }

    static let cases: [Case] = [
        Case(state: .running, call: .pause, expected: .paused),
        Case(state: .running, call: .resume, expected: .running),
        Case(state: .running, call: .cancel, expected: .cancelled),
        Case(state: .paused, call: .pause, expected: .paused),
        Case(state: .paused, call: .resume, expected: .running),
        Case(state: .paused, call: .cancel, expected: .cancelled),
        Case(state: .cancelled, call: .pause, expected: .cancelled),
        Case(state: .cancelled, call: .resume, expected: .cancelled),
        Case(state: .cancelled, call: .cancel, expected: .cancelled),
    ]

    @Test
    func everyCallIsSafeInEveryState() {
        for row in Self.cases {
            for twice in [false, true] {
                Self().everyCallIsSafeInEveryState(row, twice: twice)
            }
        }
    }

    func everyCallIsSafeInEveryState(_ row: Case, twice: Bool) {
        let frames = Recorder<FrameTick>()
        let (source, subscription) = time.run {
            let source = FrameSource.software(on: context)
            return (source, source.subscribe { frames.append($0) })
        }
        time.advance(by: .nanoseconds(interval))
        switch row.state {
        case .paused: subscription.pause()
        case .cancelled: subscription.cancel()
        default: break
        }
        #expect(subscription.state == row.state, "row \(row), twice \(twice)")
        row.call.apply(to: subscription)
        if twice { row.call.apply(to: subscription) }
        #expect(subscription.state == row.expected, "row \(row), twice \(twice)")
        time.advance(by: .nanoseconds(3 * interval))
        let running = row.expected == .running
        #expect(frames.count == (running ? 4 : 1), "row \(row), twice \(twice)")
        #expect(source.isRunning == running, "row \(row), twice \(twice)")
        #expect(frameLiveTickers(time).count == (running ? 1 : 0), "row \(row), twice \(twice)")
        subscription.cancel()
    }

    // MARK: Releasing handles

    /// Handles, owners and what releasing them does. Each check runs on a fresh instance of the suite.
    @Test func releasingHandlesAndOwnersStopsFramesAsDocumented() {
        Self().releasingAHandleOwnedSubscriptionCancelsItRunningOrPaused()
        Self().releasingAnOwnerBoundHandleKeepsItRunningButCancelsItWhenPaused()
        Self().droppingAHandleOwnedSubscriptionBeforeItsFirstFrameWarns()
        Self().theOwnerIsNotRetainedAndItsDeathStopsFramesAtTheNextRefresh()
        Self().anOwnerHoldingItsHandleStopsAtOnceWhenItDies()
        Self().anOwnerThatDiesWhilePausedIsCancelledAndNeverCalled()
        Self().anOwnerReleasedByAnEarlierHandlerOfTheSameRefreshIsNotCalled()
    }

    func releasingAHandleOwnedSubscriptionCancelsItRunningOrPaused() {
        let frames = Recorder<FrameTick>()
        weak var weakProbe: ContractProbe?
        let source = time.run { FrameSource.software(on: context) }
        time.run {
            let probe = ContractProbe()
            weakProbe = probe
            let running = source.subscribe { frame in
                _ = probe
                frames.append(frame)
            }
            let paused = source.subscribe { _ in _ = probe }
            paused.pause()
            _ = running
        }
        #expect(weakProbe == nil, "both handlers were released with their handles")
        #expect(source.subscriberCount == 0)
        #expect(!source.isRunning)
        time.advance(by: .nanoseconds(3 * interval))
        #expect(frames.count == 0)
    }

    func releasingAnOwnerBoundHandleKeepsItRunningButCancelsItWhenPaused() {
        let owner = FrameTestOwner()
        let source = time.run { FrameSource.software(on: context) }
        time.run {
            _ = source.subscribe(owner: owner) { owner, frame in owner.record(frame) }
            source.subscribe(owner: owner) { owner, frame in owner.record(frame) }.pause()
        }
        #expect(source.subscriberCount == 1, "the paused one could never be resumed: cancelled")
        time.advance(by: .nanoseconds(3 * interval))
        #expect(owner.frames.count == 3, "the running one keeps going while its owner lives")
        #expect(frameLiveTickers(time).count == 1)
    }

    func droppingAHandleOwnedSubscriptionBeforeItsFirstFrameWarns() {
        LogCapture.install()
        let dropped = contractUniqueFileID()
        let kept = contractUniqueFileID()
        let cancelled = contractUniqueFileID()
        let clamped = contractUniqueFileID()
        let source = time.run { FrameSource.software(on: context) }
        _ = source.subscribe(fileID: dropped) { _ in }
        let keptSubscription = source.subscribe(fileID: kept) { _ in }
        source.subscribe(fileID: cancelled) { _ in }.cancel()
        let clampedSubscription = source.subscribe(FrameRateRange(minimum: -1, maximum: 60), fileID: clamped) { _ in }
        time.advance(by: .nanoseconds(interval))
        keptSubscription.cancel()
        clampedSubscription.cancel()
        #expect(LogCapture.lines(containing: dropped).count == 1, "released while running, before any frame")
        #expect(LogCapture.lines(containing: dropped).first?.contains("will never fire") == true)
        #expect(LogCapture.lines(containing: kept).isEmpty, "it had its frame")
        #expect(LogCapture.lines(containing: cancelled).isEmpty, "cancelled on purpose")
        #expect(LogCapture.lines(containing: clamped).count == 1, "the range clamp is logged")
        #expect(LogCapture.lines(containing: clamped).first?.contains("minimum -1.0 Hz is negative") == true)
    }

    // MARK: Owners

    func theOwnerIsNotRetainedAndItsDeathStopsFramesAtTheNextRefresh() {
        LogCapture.install()
        TickerDiagnostics.logsOwnerRelease = true
        let site = contractUniqueFileID()
        let tracker = LifetimeTracker()
        let frames = Recorder<FrameTick>()
        let holder = ContractBox<FrameTestOwner>(FrameTestOwner(tracker: tracker))
        weak var weakProbe: ContractProbe?
        let source = time.run { FrameSource.software(on: context) }
        time.run {
            let probe = ContractProbe()
            weakProbe = probe
            // The handle is discarded: the owner alone defines the lifetime.
            source.subscribe(owner: holder.value!, fileID: site) { _, frame in
                _ = probe
                frames.append(frame)
            }
        }
        time.advance(by: .nanoseconds(2 * interval + interval / 2))
        #expect(frames.count == 2)
        holder.clear()
        #expect(tracker.live == 0, "the source never retained the owner")
        time.advance(by: .nanoseconds(interval))
        #expect(frames.count == 2, "no frame after the owner died")
        #expect(weakProbe == nil, "the handler was released")
        #expect(!source.isRunning)
        #expect(frameLiveTickers(time).isEmpty)
        #expect(time.clock.nextDeadline() == nil)
        #expect(LogCapture.lines(containing: site).count == 1, "the owner's release is logged when asked")
    }

    func anOwnerHoldingItsHandleStopsAtOnceWhenItDies() {
        let tracker = LifetimeTracker()
        let holder = ContractBox<FrameTestOwner>(FrameTestOwner(tracker: tracker))
        let source = time.run { FrameSource.software(on: context) }
        time.run {
            let owner = holder.value!
            owner.subscription = source.subscribe(owner: owner) { owner, frame in owner.record(frame) }
        }
        time.advance(by: .nanoseconds(interval))
        #expect(holder.value?.frames.count == 1)
        holder.clear()
        #expect(tracker.live == 0)
        // Without any refresh in between: the handle's release stopped the subscription and the source.
        #expect(source.subscriberCount == 0)
        #expect(!source.isRunning)
        #expect(frameLiveTickers(time).isEmpty)
    }

    func anOwnerThatDiesWhilePausedIsCancelledAndNeverCalled() {
        let frames = Recorder<FrameTick>()
        let holder = ContractBox<FrameTestOwner>(FrameTestOwner())
        let source = time.run { FrameSource.software(on: context) }
        let subscription = time.run { source.subscribe(owner: holder.value!) { _, frame in frames.append(frame) } }
        subscription.pause()
        holder.clear()
        #expect(subscription.state == .cancelled)
        subscription.resume()
        time.advance(by: .nanoseconds(3 * interval))
        #expect(frames.count == 0)
        #expect(!source.isRunning)
    }

    func anOwnerReleasedByAnEarlierHandlerOfTheSameRefreshIsNotCalled() {
        let tracker = LifetimeTracker()
        let frames = Recorder<FrameTick>()
        let holder = ContractBox<FrameTestOwner>(FrameTestOwner(tracker: tracker))
        let source = time.run { FrameSource.software(on: context) }
        let releaser = time.run {
            let releaser = source.subscribe { frame in
                if frame.index == 2 { holder.clear() }
            }
            source.subscribe(owner: holder.value!) { _, frame in frames.append(frame) }
            return releaser
        }
        time.advance(by: .nanoseconds(3 * interval))
        #expect(tracker.live == 0)
        #expect(frames.values.map(\.index) == [1], "its frame at refresh 2 came after its owner died")
        #expect(source.subscriberCount == 1)
        releaser.cancel()
    }

    // MARK: Inside handlers

    /// Subscribe, cancel and pause inside a frame handler. Each check runs on a fresh instance of the suite.
    @Test func callsInsideAHandlerAreExact() {
        Self().subscribingInsideAHandlerStartsAtALaterRefresh()
        Self().cancelInsideAHandlerIsExactEvenForAFrameDueAtTheSameRefresh()
        Self().pauseInsideAHandlerIsExactEvenForAFrameDueAtTheSameRefresh()
        Self().theLastSubscriberCanCancelAndResubscribeInsideItsHandler()
    }

    func subscribingInsideAHandlerStartsAtALaterRefresh() {
        let origin = time.now
        let first = Recorder<FrameTick>()
        let second = Recorder<FrameTick>()
        let inner = ContractBox<FrameSubscription>()
        let (source, outer) = time.run {
            let source = FrameSource.software(on: context)
            let outer = source.subscribe { frame in
                first.append(frame)
                if frame.index == 2 { inner.set(source.subscribe { second.append($0) }) }
            }
            return (source, outer)
        }
        time.advance(by: .nanoseconds(5 * interval))
        #expect(frameRefreshes(first.values, origin: origin) == [1, 2, 3, 4, 5])
        #expect(frameRefreshes(second.values, origin: origin) == [3, 4, 5], "not the refresh it was made in")
        #expect(second.values.map(\.index) == [1, 2, 3])
        #expect(source.subscriberCount == 2)
        #expect(frameLiveTickers(time).count == 1)
        outer.cancel()
        inner.value?.cancel()
    }

    func cancelInsideAHandlerIsExactEvenForAFrameDueAtTheSameRefresh() {
        let origin = time.now
        let first = Recorder<FrameTick>()
        let second = Recorder<FrameTick>()
        let handles = ContractBox<[FrameSubscription]>()
        let source = time.run { FrameSource.software(on: context) }
        time.run {
            let a = source.subscribe { frame in
                first.append(frame)
                // At refresh 2, cancel b (due later in the same refresh); at refresh 3, cancel itself.
                if frame.index == 2 { handles.value?[1].cancel() }
                if frame.index == 3 { handles.value?[0].cancel() }
            }
            let b = source.subscribe { second.append($0) }
            handles.set([a, b])
        }
        time.advance(by: .nanoseconds(6 * interval))
        #expect(frameRefreshes(first.values, origin: origin) == [1, 2, 3])
        #expect(frameRefreshes(second.values, origin: origin) == [1], "b's frame at refresh 2 was not delivered")
        #expect(handles.value!.allSatisfy { $0.state == .cancelled })
        #expect(!source.isRunning, "the last subscriber cancelled itself inside its handler")
        #expect(frameLiveTickers(time).isEmpty)
    }

    func pauseInsideAHandlerIsExactEvenForAFrameDueAtTheSameRefresh() {
        let origin = time.now
        let second = Recorder<FrameTick>()
        let other = ContractBox<FrameSubscription>()
        let source = time.run { FrameSource.software(on: context) }
        let first = time.run {
            let first = source.subscribe { frame in
                // At refresh 2, pause b (due later in the same refresh); at refresh 4, resume it.
                if frame.index == 2 { other.value?.pause() }
                if frame.index == 4 { other.value?.resume() }
            }
            other.set(source.subscribe { second.append($0) })
            return first
        }
        time.advance(by: .nanoseconds(6 * interval))
        #expect(frameRefreshes(second.values, origin: origin) == [1, 5, 6], "nothing at 2, resumed after 4")
        #expect(second.values.map(\.index) == [1, 2, 3])
        #expect(second.values.allSatisfy { $0.droppedFrames == 0 })
        first.cancel()
        other.value?.cancel()
    }

    func theLastSubscriberCanCancelAndResubscribeInsideItsHandler() {
        let origin = time.now
        let first = Recorder<FrameTick>()
        let second = Recorder<FrameTick>()
        let handles = ContractBox<[FrameSubscription]>([])
        let source = time.run { FrameSource.software(on: context) }
        time.run {
            let a = source.subscribe { frame in
                first.append(frame)
                guard frame.index == 2 else { return }
                handles.value?[0].cancel()  // the source stops: its ticker is cancelled from its own handler
                handles.set(handles.value! + [source.subscribe(FrameRateRange(preferred: 30)) { second.append($0) }])
            }
            handles.set([a])
        }
        time.advance(by: .nanoseconds(8 * interval))
        #expect(frameRefreshes(first.values, origin: origin) == [1, 2])
        #expect(frameRefreshes(second.values, origin: origin) == [4, 6, 8], "restarted on the same grid")
        #expect(frameLiveTickers(time).count == 1, "exactly one ticker after the restart")
        handles.value?.forEach { $0.cancel() }
        #expect(frameLiveTickers(time).isEmpty)
    }

    @Test func lifecycleCallsInsideAHandlerOnEverySubscriberInEveryState() {
        let origin = time.now
        let driverFrames = Recorder<FrameTick>()
        let otherFrames = Recorder<FrameTick>()
        let other = ContractBox<FrameSubscription>()
        let states = Recorder<TickerState>()
        let source = time.run { FrameSource.software(on: context) }
        let driver = time.run {
            other.set(source.subscribe { otherFrames.append($0) })
            return source.subscribe { frame in
                driverFrames.append(frame)
                let subject = other.value!
                switch frame.index {
                case 1: subject.pause()
                case 2: subject.pause()  // paused twice
                case 3:
                    subject.resume()
                    subject.resume()  // resumed twice
                case 4:
                    subject.cancel()
                    subject.cancel()  // cancelled twice
                case 5:
                    subject.resume()  // after cancel
                    subject.pause()
                default: break
                }
                states.append(subject.state)
            }
        }
        time.advance(by: .nanoseconds(6 * interval))
        #expect(states.values == [.paused, .paused, .running, .cancelled, .cancelled, .cancelled])
        #expect(frameRefreshes(driverFrames.values, origin: origin) == [1, 2, 3, 4, 5, 6])
        // `other` was subscribed first, so it ran before the driver at refresh 1; resumed at refresh 3, it
        // got refresh 4 before the driver cancelled it there.
        #expect(frameRefreshes(otherFrames.values, origin: origin) == [1, 4])
        #expect(otherFrames.values.map(\.droppedFrames) == [0, 0], "paused frames are not dropped ones")
        #expect(otherFrames.values.map(\.index) == [1, 2], "time spent paused is not counted")
        driver.pause()
        driver.pause()
        #expect(!source.isRunning)
        driver.cancel()
    }

    // MARK: Threads

    @Test func lifecycleCallsFromManyThreadsWhileTimeAdvances() {
        let frames = Recorder<Int>()
        let source = time.run { FrameSource.software(on: context) }
        let done = Locked<Bool>.make(false)
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            DispatchQueue.concurrentPerform(iterations: 8) { worker in
                var mine: [FrameSubscription] = []
                for step in 0..<200 {
                    switch (step + worker) % 5 {
                    case 0, 1: mine.append(source.subscribe { _ in frames.append(worker) })
                    case 2: mine.randomElement()?.pause()
                    case 3: mine.randomElement()?.resume()
                    default: if !mine.isEmpty { mine.removeFirst().cancel() }
                    }
                }
                mine.forEach { $0.cancel() }
            }
            done.withLock { $0 = true }
        }
        while !done.withLock({ $0 }) {
            time.advance(by: .nanoseconds(interval))
        }
        group.wait()
        time.advance(by: .nanoseconds(interval))
        #expect(source.subscriberCount == 0)
        #expect(!source.isRunning)
        #expect(frameLiveTickers(time).isEmpty)
    }
}
