import Foundation
import Testing
import TimerKitTestSupport

@testable import TimerKit

/// An owner-bound ticker whose handle was discarded learns of its owner's death at its next deadline
/// by itself; between deadlines the engine's sweeps release it, so a long interval does not keep the
/// handler (and what it captures) alive.
@Suite struct DeadOwnerSweepTests {
    init() { LogCapture.install() }

    final class Owner: Sendable {}
    final class Captured: Sendable {}

    @Test func addingTickersSweepsTickersWhoseOwnerIsGone() {
        let time = VirtualTime()
        let queue = DispatchQueue(label: "sweep")
        weak var weakCaptured: Captured?
        var owner: Owner? = Owner()
        time.run {
            let captured = Captured()
            weakCaptured = captured
            Ticker.schedule(.every(.seconds(3_600)), on: .dispatch(queue), owner: owner!) { _, _ in _ = captured }
        }
        owner = nil
        #expect(weakCaptured != nil, "nothing has noticed the owner's death yet")
        // Each new ticker examines two records: the dead one is found without waiting an hour.
        let keeper = Owner()
        time.run {
            Ticker.schedule(.every(.seconds(1)), on: .dispatch(queue), owner: keeper) { _, _ in }
            Ticker.schedule(.every(.seconds(1)), on: .dispatch(queue), owner: keeper) { _, _ in }
        }
        #expect(weakCaptured == nil, "the dead owner's handler was not released")
        #expect(time.base.engine(for: .dispatch(queue)).liveCount() == 2)
    }

    @Test func listingLiveTickersStopsThoseWhoseOwnerIsGone() {
        let time = VirtualTime()
        var owner: Owner? = Owner()
        time.run {
            Ticker.schedule(.every(.seconds(3_600)), on: .dispatch(.global()), owner: owner!) { _, _ in }
        }
        owner = nil
        #expect(time.run { TickerDiagnostics.liveTickers() }.isEmpty)
        #expect(time.base.engine(for: .dispatch(.global())).liveCount() == 0)
    }
}
