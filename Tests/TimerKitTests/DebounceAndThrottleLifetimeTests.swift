import Foundation
import Testing
import TimerKitTestSupport

@testable import TimerKit

// Lifetime of Debouncer and Throttler on virtual time: owners are never retained, nothing is delivered
// once the owner is gone or after cancel, and handlers, values and tickers are released at once.

/// What the lifetime tests drive: a `Debouncer` or a `Throttler`.
protocol RateLimiting<Value>: AnyObject, Sendable {
    associatedtype Value: Sendable
    func send(_ value: Value)
    func discardPending()
    func cancel()
    var isCancelled: Bool { get }
    var hasPendingValue: Bool { get }
}

extension Debouncer: RateLimiting {}
extension Throttler: RateLimiting {}

/// A value whose instances are counted, to check that pending values are released.
final class RateLimitPayload: Sendable, CustomStringConvertible {
    let name: String
    let tracker: LifetimeTracker

    init(_ name: String, _ tracker: LifetimeTracker) {
        self.name = name
        self.tracker = tracker
        tracker.instanceMade()
    }

    deinit { tracker.instanceGone() }

    var description: String { name }
}

/// An owner (a "view model") that may keep its own rate limiter, as usual.
final class RateLimitOwner: Sendable {
    let tracker: LifetimeTracker
    let limiter = ContractBox<any RateLimiting<RateLimitPayload>>()

    init(_ tracker: LifetimeTracker) {
        self.tracker = tracker
        tracker.instanceMade()
    }

    deinit { tracker.instanceGone() }
}

/// Both rate limiters, each with a single value delivered one interval after it is sent: a trailing
/// debouncer, and a throttler with only a trailing edge.
enum RateLimiterKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case debouncer
    case throttler

    static let interval: Duration = .milliseconds(30)

    var testDescription: String { rawValue }

    func ownerBound<Owner: AnyObject & Sendable>(
        on context: TickerContext,
        owner: Owner,
        fileID: String = #fileID,
        line: Int = #line,
        _ handler: @escaping @Sendable (Owner, RateLimitPayload) -> Void
    ) -> any RateLimiting<RateLimitPayload> {
        switch self {
        case .debouncer:
            Debouncer(interval: Self.interval, on: context, owner: owner, fileID: fileID, line: line, handler)
        case .throttler:
            Throttler(
                interval: Self.interval, edges: .trailing, on: context, owner: owner, fileID: fileID, line: line,
                handler)
        }
    }

    func handleOwned(
        on context: TickerContext,
        _ handler: @escaping @Sendable (RateLimitPayload) -> Void
    ) -> any RateLimiting<RateLimitPayload> {
        switch self {
        case .debouncer: Debouncer(interval: Self.interval, on: context, handler)
        case .throttler: Throttler(interval: Self.interval, edges: .trailing, on: context, handler)
        }
    }
}

@Suite struct DebounceAndThrottleLifetimeTests {
    init() { LogCapture.install() }

    let time = VirtualTime()
    let context = TickerContext.dispatch(DispatchQueue(label: "TimerKitTests.rateLimitLifetime"))
    let values = LifetimeTracker()
    let owners = LifetimeTracker()
    let delivered = Recorder<String>()

    /// Live tickers on the test's context (the rate limiter's armed wake-up, if any).
    var liveTickers: Int { time.base.engine(for: context).liveCount() }

    /// The owner is never retained, a sweep releases a dead owner's pending value, an owner holding its rate limiter
    /// frees it, and releasing the handle keeps the delivery while the owner lives. Each check runs on a fresh instance
    /// of the suite.
    @Test func anOwnerBoundRateLimiterFollowsItsOwner() {
        Self().theOwnerIsNeverRetainedAndNothingIsDeliveredOnceItIsGone()
        Self().aDeadOwnerSweepReleasesThePendingValueBeforeTheDeadline()
        Self().anOwnerThatHoldsItsRateLimiterReleasesEverythingWithIt()
        Self().releasingAnOwnerBoundRateLimiterKeepsItsPendingDeliveryWhileTheOwnerLives()
    }

    func theOwnerIsNeverRetainedAndNothingIsDeliveredOnceItIsGone() {
        for kind in RateLimiterKind.allCases {
            Self().theOwnerIsNeverRetainedAndNothingIsDeliveredOnceItIsGone(kind: kind)
        }
    }

    func theOwnerIsNeverRetainedAndNothingIsDeliveredOnceItIsGone(kind: RateLimiterKind) {
        weak var weakOwner: RateLimitOwner?
        var limiter: (any RateLimiting<RateLimitPayload>)?
        do {
            let owner = RateLimitOwner(owners)
            weakOwner = owner
            limiter = time.run {
                kind.ownerBound(on: context, owner: owner) { [delivered] _, value in delivered.append(value.name) }
            }
            limiter?.send(RateLimitPayload("a", values))
            #expect(liveTickers == 1, "kind \(kind)")
        }
        #expect(weakOwner == nil, "the rate limiter retained its owner; kind \(kind)")
        #expect(owners.live == 0, "kind \(kind)")
        time.advance(by: .seconds(1))
        #expect(delivered.values.isEmpty, "kind \(kind)")
        // The engine found the owner gone at the deadline: the ticker, the value and the limiter stop.
        #expect(liveTickers == 0, "kind \(kind)")
        #expect(values.live == 0, "the pending value outlived the owner; kind \(kind)")
        #expect(limiter?.isCancelled == true, "kind \(kind)")
        limiter?.send(RateLimitPayload("b", values))
        #expect(values.live == 0, "a value sent after the owner went away was kept; kind \(kind)")
        #expect(liveTickers == 0, "kind \(kind)")
        time.advance(by: .seconds(1))
        #expect(delivered.values.isEmpty, "kind \(kind)")
    }

    func aDeadOwnerSweepReleasesThePendingValueBeforeTheDeadline() {
        for kind in RateLimiterKind.allCases {
            Self().aDeadOwnerSweepReleasesThePendingValueBeforeTheDeadline(kind: kind)
        }
    }

    func aDeadOwnerSweepReleasesThePendingValueBeforeTheDeadline(kind: RateLimiterKind) {
        var owner: RateLimitOwner? = RateLimitOwner(owners)
        let limiter = time.run {
            kind.ownerBound(on: context, owner: owner!) { [delivered] _, value in delivered.append(value.name) }
        }
        limiter.send(RateLimitPayload("a", values))
        owner = nil
        #expect(values.live == 1, "kind \(kind)")
        _ = time.run { TickerDiagnostics.liveTickers() }  // sweeps tickers whose owner is gone
        #expect(values.live == 0, "kind \(kind)")
        #expect(liveTickers == 0, "kind \(kind)")
        #expect(limiter.isCancelled, "kind \(kind)")
        time.advance(by: .seconds(1))
        #expect(delivered.values.isEmpty, "kind \(kind)")
    }

    func anOwnerThatHoldsItsRateLimiterReleasesEverythingWithIt() {
        for kind in RateLimiterKind.allCases {
            Self().anOwnerThatHoldsItsRateLimiterReleasesEverythingWithIt(kind: kind)
        }
    }

    func anOwnerThatHoldsItsRateLimiterReleasesEverythingWithIt(kind: RateLimiterKind) {
        weak var weakLimiter: (any RateLimiting<RateLimitPayload>)?
        do {
            let owner = RateLimitOwner(owners)
            let limiter = time.run {
                kind.ownerBound(on: context, owner: owner) { [delivered] _, value in delivered.append(value.name) }
            }
            owner.limiter.set(limiter)
            weakLimiter = limiter
            limiter.send(RateLimitPayload("a", values))
        }
        // No time passed: the owner's release cancelled its rate limiter at once.
        #expect(owners.live == 0, "kind \(kind)")
        #expect(weakLimiter == nil, "kind \(kind)")
        #expect(values.live == 0, "kind \(kind)")
        #expect(liveTickers == 0, "kind \(kind)")
        time.advance(by: .seconds(1))
        #expect(delivered.values.isEmpty, "kind \(kind)")
    }

    func releasingAnOwnerBoundRateLimiterKeepsItsPendingDeliveryWhileTheOwnerLives() {
        for kind in RateLimiterKind.allCases {
            Self().releasingAnOwnerBoundRateLimiterKeepsItsPendingDeliveryWhileTheOwnerLives(kind: kind)
        }
    }

    func releasingAnOwnerBoundRateLimiterKeepsItsPendingDeliveryWhileTheOwnerLives(kind: RateLimiterKind) {
        let owner = RateLimitOwner(owners)
        weak var weakLimiter: (any RateLimiting<RateLimitPayload>)?
        do {
            let limiter = time.run {
                kind.ownerBound(on: context, owner: owner) { [delivered] _, value in delivered.append(value.name) }
            }
            weakLimiter = limiter
            limiter.send(RateLimitPayload("a", values))
        }
        #expect(weakLimiter == nil, "kind \(kind)")
        time.advance(by: RateLimiterKind.interval)
        #expect(delivered.values == ["a"], "kind \(kind)")
        #expect(values.live == 0, "kind \(kind)")
        #expect(liveTickers == 0, "kind \(kind)")
        withExtendedLifetime(owner) {}
    }

    /// Releasing a handle, cancel, discardPending and a release from inside the handler each stop or clear exactly what
    /// they should. Each check runs on a fresh instance of the suite.
    @Test func stoppingARateLimiterReleasesWhatItHeld() {
        Self().releasingAHandleOwnedRateLimiterCancelsItAndReleasesItsHandler()
        Self().nothingIsDeliveredAfterCancel()
        Self().discardPendingReleasesTheValueAndTheWakeUpButKeepsWorking()
        Self().aRateLimiterReleasedFromInsideItsOwnHandlerStops()
    }

    func releasingAHandleOwnedRateLimiterCancelsItAndReleasesItsHandler() {
        for kind in RateLimiterKind.allCases {
            Self().releasingAHandleOwnedRateLimiterCancelsItAndReleasesItsHandler(kind: kind)
        }
    }

    func releasingAHandleOwnedRateLimiterCancelsItAndReleasesItsHandler(kind: RateLimiterKind) {
        weak var weakProbe: ContractProbe?
        var limiter: (any RateLimiting<RateLimitPayload>)?
        do {
            let probe = ContractProbe()
            weakProbe = probe
            limiter = time.run {
                kind.handleOwned(on: context) { [delivered] value in
                    withExtendedLifetime(probe) { delivered.append(value.name) }
                }
            }
            limiter?.send(RateLimitPayload("a", values))
        }
        #expect(liveTickers == 1, "kind \(kind)")
        limiter = nil
        #expect(weakProbe == nil, "the handler outlived its rate limiter; kind \(kind)")
        #expect(values.live == 0, "kind \(kind)")
        #expect(liveTickers == 0, "kind \(kind)")
        time.advance(by: .seconds(1))
        #expect(delivered.values.isEmpty, "kind \(kind)")
    }

    func nothingIsDeliveredAfterCancel() {
        for kind in RateLimiterKind.allCases {
            Self().nothingIsDeliveredAfterCancel(kind: kind)
        }
    }

    func nothingIsDeliveredAfterCancel(kind: RateLimiterKind) {
        let limiter = time.run { kind.handleOwned(on: context) { [delivered] in delivered.append($0.name) } }
        limiter.send(RateLimitPayload("a", values))
        limiter.cancel()
        #expect(limiter.isCancelled, "kind \(kind)")
        #expect(!limiter.hasPendingValue, "kind \(kind)")
        #expect(values.live == 0, "cancel kept the pending value; kind \(kind)")
        #expect(liveTickers == 0, "cancel kept the armed ticker; kind \(kind)")
        limiter.send(RateLimitPayload("b", values))
        #expect(values.live == 0, "a value sent after cancel was kept; kind \(kind)")
        limiter.cancel()
        limiter.discardPending()
        time.advance(by: .seconds(1))
        #expect(delivered.values.isEmpty, "kind \(kind)")
        #expect(liveTickers == 0, "kind \(kind)")
    }

    func discardPendingReleasesTheValueAndTheWakeUpButKeepsWorking() {
        for kind in RateLimiterKind.allCases {
            Self().discardPendingReleasesTheValueAndTheWakeUpButKeepsWorking(kind: kind)
        }
    }

    func discardPendingReleasesTheValueAndTheWakeUpButKeepsWorking(kind: RateLimiterKind) {
        let limiter = time.run { kind.handleOwned(on: context) { [delivered] in delivered.append($0.name) } }
        limiter.send(RateLimitPayload("a", values))
        limiter.discardPending()
        #expect(values.live == 0, "kind \(kind)")
        #expect(liveTickers == 0, "kind \(kind)")
        #expect(!limiter.isCancelled, "kind \(kind)")
        time.advance(by: .seconds(1))
        limiter.send(RateLimitPayload("b", values))
        time.advance(by: .seconds(1))
        #expect(delivered.values == ["b"], "kind \(kind)")
    }

    func aRateLimiterReleasedFromInsideItsOwnHandlerStops() {
        for kind in RateLimiterKind.allCases {
            Self().aRateLimiterReleasedFromInsideItsOwnHandlerStops(kind: kind)
        }
    }

    func aRateLimiterReleasedFromInsideItsOwnHandlerStops(kind: RateLimiterKind) {
        let box = ContractBox<any RateLimiting<RateLimitPayload>>()
        weak var weakLimiter: (any RateLimiting<RateLimitPayload>)?
        do {
            let limiter = time.run {
                kind.handleOwned(on: context) { [delivered] value in
                    delivered.append(value.name)
                    box.clear()  // the last reference: the rate limiter is released inside its handler
                }
            }
            box.set(limiter)
            weakLimiter = limiter
            limiter.send(RateLimitPayload("a", values))
        }
        time.advance(by: RateLimiterKind.interval)
        #expect(delivered.values == ["a"], "kind \(kind)")
        #expect(weakLimiter == nil, "kind \(kind)")
        #expect(values.live == 0, "kind \(kind)")
        #expect(liveTickers == 0, "kind \(kind)")
    }

    /// Cancel inside the debouncer's and the throttler's handler. Each check runs on a fresh instance of the suite.
    @Test func cancelInsideTheHandlerIsExact() {
        Self().cancelInsideTheDebouncerHandlerIsExactEvenWithTwoValuesDecided()
        Self().cancelInsideTheThrottlerHandlerDropsTheTrailingValue()
    }

    func cancelInsideTheDebouncerHandlerIsExactEvenWithTwoValuesDecided() {
        // a is decided at once (leading), b by the flush: both wait for the same wake-up.
        let box = ContractBox<Debouncer<String>>()
        let target = time.run {
            Debouncer<String>(interval: .milliseconds(30), edges: .leadingAndTrailing, on: context) {
                [delivered] value in
                delivered.append(value)
                box.value?.cancel()
            }
        }
        box.set(target)
        target.send("a")
        target.send("b")
        target.flush()
        time.advance(by: .seconds(1))
        #expect(delivered.values == ["a"])
        #expect(target.isCancelled)
        box.clear()
    }

    func cancelInsideTheThrottlerHandlerDropsTheTrailingValue() {
        let box = ContractBox<Throttler<String>>()
        let throttler = time.run {
            Throttler<String>(interval: .milliseconds(30), on: context) { [delivered] value in
                delivered.append(value)
                box.value?.cancel()
            }
        }
        box.set(throttler)
        throttler.send("a")
        throttler.send("b")
        time.advance(by: .seconds(1))
        #expect(delivered.values == ["a"])
        #expect(liveTickers == 0)
        box.clear()
    }

    /// The armed wake-up names the rate limiter's site and owner type, and a stream of sends arms one ticker per
    /// interval. Each check runs on a fresh instance of the suite.
    @Test func theWakeUpTickerIsOnePerIntervalAndNamed() {
        Self().theArmedWakeUpShowsTheRateLimitersCreationSiteAndOwnerType()
        Self().aStreamOfSendsArmsOneTickerPerIntervalNotOnePerSend()
    }

    func theArmedWakeUpShowsTheRateLimitersCreationSiteAndOwnerType() {
        let owner = RateLimitOwner(owners)
        let site = contractUniqueFileID()
        let debouncer = time.run {
            Debouncer<Int>(interval: .seconds(5), on: context, owner: owner, fileID: site, line: 7) { _, _ in }
        }
        debouncer.send(1)
        let snapshots = time.run { TickerDiagnostics.liveTickers() }.filter { $0.fileID == site }
        #expect(snapshots.count == 1)
        #expect(snapshots.first?.line == 7)
        #expect(snapshots.first?.ownerType == "RateLimitOwner")
        #expect(snapshots.first?.nextDeadline == time.now.advanced(by: .seconds(5)))
        debouncer.cancel()
        #expect(time.run { TickerDiagnostics.liveTickers() }.filter { $0.fileID == site }.isEmpty)
    }

    func aStreamOfSendsArmsOneTickerPerIntervalNotOnePerSend() {
        let debouncer = time.run {
            Debouncer<Int>(interval: .milliseconds(100), on: context) { [delivered] in delivered.append("\($0)") }
        }
        var wakeUps = 0
        for value in 0..<1_000 {
            debouncer.send(value)
            wakeUps += time.advance(by: .milliseconds(1))
        }
        wakeUps += time.advance(by: .seconds(1))
        #expect(delivered.values == ["999"])
        // One wake-up per interval of the stream (about ten), plus the final delivery.
        #expect(wakeUps <= 12)
    }
}
