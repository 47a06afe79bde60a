import Foundation
import Testing
import TimerKitTestSupport

@testable import TimerKit

/// Frame subscriptions follow the lifetime rules tickers follow (`Lifetime`): one "never fires" window,
/// one owner-release log line, and storage whose cost does not grow with the number of subscribers.
@Suite struct FrameLifetimeTests {
    init() { LogCapture.install() }

    let time = VirtualTime()
    let context = FrameTestSupport.context
    let interval = FrameTestSupport.interval

    @Test func theNeverFiresWarningHasTheTickersWindow() {
        LogCapture.install()
        let early = contractUniqueFileID()
        let late = contractUniqueFileID()
        let source = time.run { FrameSource.software(on: context) }
        // One frame a second: the first frame comes at refresh 60, a second after subscribing.
        let slow = FrameRateRange(minimum: 1, maximum: 1, preferred: 1)
        time.run {
            _ = source.subscribe(slow, fileID: early) { _ in }
        }
        let kept = ContractBox<FrameSubscription>(time.run { source.subscribe(slow, fileID: late) { _ in } })
        time.advance(by: .milliseconds(200))
        #expect(kept.value?.state == .running)
        // Released 200 ms after creation, before its first frame: releasing later is the normal way to
        // cancel, as for a ticker (the frame rule had no window: this warned).
        time.run { kept.clear() }
        #expect(LogCapture.lines(containing: early).count == 1, "released right after creation")
        #expect(LogCapture.lines(containing: early).first?.contains("will never fire") == true)
        #expect(LogCapture.lines(containing: late).isEmpty, "released after the window: no warning")
        #expect(source.subscriberCount == 0)
    }

    /// `self.displayLink = source.subscribe(owner: self) { … }` done again replaces the subscription,
    /// as for tickers; a subscription whose handle was discarded is never replaced.
    @Test func assigningANewSubscriptionToTheStoredHandleStopsTheOldOne() {
        let owner = FrameTestOwner()
        let source = time.run { FrameSource.software(on: context) }
        func subscribe() {
            owner.subscription = source.subscribe(owner: owner) { owner, frame in owner.record(frame) }
        }
        time.run { subscribe() }
        time.advance(by: .nanoseconds(interval))
        time.run { subscribe() }
        #expect(source.subscriberCount == 1)
        time.advance(by: .nanoseconds(interval))
        #expect(owner.frames.values.map(\.index) == [1, 1])
        // Discarded handles: nothing replaces anything.
        time.run {
            for _ in 0..<2 { source.subscribe(owner: owner) { owner, frame in owner.record(frame) } }
        }
        #expect(source.subscriberCount == 3)
        owner.subscription = nil
        #expect(source.subscriberCount == 3, "dropping the stored handle alone keeps the subscription")
    }

    @Test func theOwnerReleaseLineNamesTheOwnerTypeAndContextAsForTickers() {
        LogCapture.install()
        TickerDiagnostics.logsOwnerRelease = true
        let site = contractUniqueFileID()
        let holder = ContractBox<FrameTestOwner>(FrameTestOwner())
        let source = time.run { FrameSource.software(on: context) }
        time.run {
            source.subscribe(owner: holder.value!, fileID: site) { owner, frame in owner.record(frame) }
        }
        time.advance(by: .nanoseconds(interval))
        holder.clear()
        time.advance(by: .nanoseconds(interval))
        let lines = LogCapture.lines(containing: site)
        #expect(lines.count == 1)
        #expect(
            lines.first?.contains("frame subscription created at \(site):") == true
                && lines.first?.contains("stopped because its owner FrameTestOwner went away (\(context))") == true,
            "\(lines)")
    }

    @Test func anOwnerHoldingItsHandleLogsItsReleaseAsItGoes() {
        LogCapture.install()
        TickerDiagnostics.logsOwnerRelease = true
        let site = contractUniqueFileID()
        let holder = ContractBox<FrameTestOwner>(FrameTestOwner())
        let source = time.run { FrameSource.software(on: context) }
        time.run {
            let owner = holder.value!
            owner.subscription = source.subscribe(owner: owner, fileID: site) { owner, frame in owner.record(frame) }
        }
        holder.clear()
        // No refresh in between: the handle's release saw the owner gone.
        #expect(source.subscriberCount == 0)
        #expect(LogCapture.lines(containing: site).count == 1)
        #expect(LogCapture.lines(containing: site).first?.contains("its owner FrameTestOwner went away") == true)
    }

    @Test func readingAStateLooksAtThatSubscriberOnly() {
        // Reading one subscription's state neither sweeps the others (it costs the same with 10,000
        // subscribers) nor misses its own owner's death.
        let dead = ContractBox<FrameTestOwner>(FrameTestOwner())
        let mine = ContractBox<FrameTestOwner>(FrameTestOwner())
        let source = time.run { FrameSource.software(on: context) }
        let (other, subscription) = time.run {
            (
                source.subscribe(owner: dead.value!) { _, _ in },
                source.subscribe(owner: mine.value!) { _, _ in }
            )
        }
        other.pause()
        subscription.pause()
        dead.clear()
        #expect(subscription.state == .paused)
        #expect(source.subscriberCount == 2, "the other dead owner is found by a sweep, not by this read")
        mine.clear()
        #expect(subscription.state == .cancelled, "its own owner's death is seen at once")
        #expect(other.state == .cancelled)
        #expect(source.subscriberCount == 0)
        #expect(source.storageInvariantViolation() == nil)
    }

    @Test func deadOwnersOfPausedSubscribersAreSweptAFewPerCallAndAllAtEachRefresh() {
        let source = time.run { FrameSource.software(on: context) }
        let owners = (0..<10).map { _ in ContractBox<FrameTestOwner>(FrameTestOwner()) }
        time.run {
            for owner in owners {
                source.subscribe(owner: owner.value!) { _, _ in }.pause()  // released while paused: cancelled
            }
        }
        #expect(source.subscriberCount == 0, "a paused owner-bound subscription without its handle is cancelled")
        let paused = time.run { owners.map { owner in source.subscribe(owner: owner.value!) { _, _ in } } }
        paused.forEach { $0.pause() }
        let runner = time.run { source.subscribe { _ in } }
        owners.forEach { $0.clear() }
        runner.pause()
        runner.resume()
        #expect(source.subscriberCount <= 11 - 2 * 2 + 0, "two calls looked at two slots each")
        #expect(source.subscriberCount >= 11 - 2 * 2 - 1)
        time.advance(by: .nanoseconds(interval))
        #expect(source.subscriberCount == 1, "one refresh swept every slot")
        #expect(source.storageInvariantViolation() == nil)
        runner.cancel()
        withExtendedLifetime(paused) {}
    }

    @Test func subscriptionOrderSurvivesRemovalsAndSlotReuse() {
        let order = Recorder<Int>()
        let source = time.run { FrameSource.software(on: context) }
        var handles = time.run { (0..<8).map { index in source.subscribe { _ in order.append(index) } } }
        // Remove from the middle, the head and the tail, then add two (they reuse freed slots).
        for index in [3, 0, 7] { handles[index].cancel() }
        handles += time.run { [8, 9].map { index in source.subscribe { _ in order.append(index) } } }
        #expect(source.storageInvariantViolation() == nil)
        time.advance(by: .nanoseconds(interval))
        #expect(order.values == [1, 2, 4, 5, 6, 8, 9], "delivery order is subscription order")
        handles.forEach { $0.cancel() }
        #expect(source.subscriberCount == 0)
        #expect(source.storageInvariantViolation() == nil)
    }
}
