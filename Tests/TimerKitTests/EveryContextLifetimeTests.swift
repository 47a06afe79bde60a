import Foundation
import Testing
import TimerKitTestSupport

@testable import TimerKit

/// The contract's core promise over every kind of timer TimerKit offers, under virtual time: an owner is
/// never retained, it is freed when its last reference goes, nothing is delivered to it afterwards, and
/// nothing is left running.
@Suite struct EveryContextLifetimeTests {
    init() { LogCapture.install() }

    enum Kind: String, CaseIterable, Sendable {
        case runLoopTicker, dispatchTicker, frameSubscription, debouncer, throttler, tickSequence
    }

    final class Owner: Sendable {
        let deliveries: Recorder<Int>
        init(deliveries: Recorder<Int>) { self.deliveries = deliveries }
    }

    /// Binds `owner` with `kind`; returns what must stay alive for the binding (never the owner) and a
    /// closure that produces one delivery opportunity (sends a value, or pulls from a sequence).
    static func bind(_ kind: Kind, owner: Owner, time: VirtualTime) -> (keep: [AnyObject], poke: () async -> Void) {
        let queue = DispatchQueue(label: "every-context")
        switch kind {
        case .runLoopTicker, .dispatchTicker:
            let context: TickerContext = kind == .runLoopTicker ? .runLoop(RunLoop.main) : .dispatch(queue)
            time.run {
                Ticker.schedule(.every(.seconds(1)), on: context, owner: owner) { owner, _ in owner.deliveries.append(1)
                }
            }
            return ([], {})
        case .frameSubscription:
            let source = time.run { FrameSource.software(refreshRate: 10, on: .dispatch(queue)) }
            source.subscribe(owner: owner) { owner, _ in owner.deliveries.append(1) }
            return ([source], {})
        case .debouncer:
            let debouncer = time.run {
                Debouncer<Int>(interval: .milliseconds(100), on: .dispatch(queue), owner: owner) { owner, value in
                    owner.deliveries.append(value)
                }
            }
            return ([debouncer], { debouncer.send(1) })
        case .throttler:
            let throttler = time.run {
                Throttler<Int>(interval: .milliseconds(100), on: .dispatch(queue), owner: owner) { owner, value in
                    owner.deliveries.append(value)
                }
            }
            return ([throttler], { throttler.send(1) })
        case .tickSequence:
            let iterator = IteratorBox(time.run { Ticker.ticks(.every(.seconds(1)), owner: owner) }.makeAsyncIterator())
            let deliveries = owner.deliveries  // the poke must not capture the owner
            return ([iterator], { if await iterator.next() != nil { deliveries.append(1) } })
        }
    }

    @Test
    func theOwnerIsFreedAndNothingReachesItAfterwards() async {
        for kind in Kind.allCases {
            await Self().theOwnerIsFreedAndNothingReachesItAfterwards(kind: kind)
        }
    }

    func theOwnerIsFreedAndNothingReachesItAfterwards(kind: Kind) async {
        let time = VirtualTime()
        let deliveries = Recorder<Int>()
        weak var weakOwner: Owner?
        var keep: [AnyObject] = []
        var poke: () async -> Void = {}
        do {
            let owner = Owner(deliveries: deliveries)
            weakOwner = owner
            (keep, poke) = Self.bind(kind, owner: owner, time: time)
            // Time first, then the poke: a sequence's `next()` finds its deadline passed and does not wait.
            for _ in 0..<3 {
                time.advance(by: .seconds(1))
                await poke()
            }
            #expect(deliveries.count >= 1, "nothing was delivered while the owner lived; kind \(kind)")
        }
        #expect(weakOwner == nil, "the owner was retained; kind \(kind)")
        let before = deliveries.count
        for _ in 0..<3 {
            time.advance(by: .seconds(1))
            await poke()
        }
        time.advance(by: .seconds(1))
        #expect(deliveries.count == before, "deliveries continued after the owner went away; kind \(kind)")
        #expect(time.run { TickerDiagnostics.liveTickers() }.isEmpty, "tickers were left running; kind \(kind)")
        _ = keep
    }
}

/// Lets a test share a mutable async iterator with a closure.
final class IteratorBox<Base: AsyncIteratorProtocol>: @unchecked Sendable {
    // Invariant (tests only): used from one task at a time.
    private var base: Base
    init(_ base: Base) { self.base = base }
    func next() async -> Base.Element? { try? await base.next() }
}
