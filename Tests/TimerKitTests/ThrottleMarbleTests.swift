import Foundation
import Testing

@testable import TimerKit

// Marble diagrams for Throttler, on virtual time; notation and harness (`RateLimitMarble`) are described
// in DebounceMarbleTests.

@Suite struct ThrottleMarbleTests {
    private func throttler(
        _ marble: RateLimitMarble,
        interval units: Int,
        edges: RateLimitEdges = .leadingAndTrailing
    ) -> Throttler<String> {
        marble.time.run {
            Throttler<String>(interval: RateLimitMarble.units(units), edges: edges, on: marble.context) {
                marble.record($0)
            }
        }
    }

    /// The edges of a throttler window, for streams and lone values. Each check runs on a fresh instance of the suite.
    @Test func windowsDeliverTheirEdgesAsDrawn() {
        Self().leadingAndTrailingDeliversTheFirstValueAtOnceAndTheLatestAtTheWindowsEnd()
        Self().leadingDeliversTheValueThatOpensAWindowAndDropsTheRest()
        Self().trailingDeliversTheLatestValueAtEachWindowsEnd()
        Self().aContinuousStreamIsDeliveredOncePerInterval()
        Self().aContinuousStreamWithOnlyATrailingEdgeIsDeliveredOncePerInterval()
        Self().aLoneValueIsDeliveredOnceWithBothEdges()
    }

    func leadingAndTrailingDeliversTheFirstValueAtOnceAndTheLatestAtTheWindowsEnd() {
        let marble = RateLimitMarble()
        let subject = throttler(marble, interval: 4)
        // c ends a's window at 4 and opens one to 8, which closes empty; d opens a new window at once.
        #expect(marble.play("ab-c----d-------e--f-", on: subject) == "a---c---d-------e---f")
        #expect(marble.violations.values.isEmpty, "\(marble.violations.values)")
    }

    func leadingDeliversTheValueThatOpensAWindowAndDropsTheRest() {
        let marble = RateLimitMarble()
        let subject = throttler(marble, interval: 4, edges: .leading)
        #expect(marble.play("ab-c----d-------e--f-", on: subject) == "a-------d-------e----")
        #expect(marble.violations.values.isEmpty, "\(marble.violations.values)")
    }

    func trailingDeliversTheLatestValueAtEachWindowsEnd() {
        let marble = RateLimitMarble()
        let subject = throttler(marble, interval: 4, edges: .trailing)
        #expect(marble.play("ab-c----d-------e--f-", on: subject) == "----c-------d-------f")
        #expect(marble.violations.values.isEmpty, "\(marble.violations.values)")
    }

    func aContinuousStreamIsDeliveredOncePerInterval() {
        let marble = RateLimitMarble()
        let subject = throttler(marble, interval: 3)
        // Each window's end fires before that slot's send: c, f and i end windows; j, sent at 9, ends the last.
        #expect(marble.play("abcdefghij-----", on: subject) == "a--c--f--i--j--")
    }

    func aContinuousStreamWithOnlyATrailingEdgeIsDeliveredOncePerInterval() {
        let marble = RateLimitMarble()
        let subject = throttler(marble, interval: 3, edges: .trailing)
        #expect(marble.play("abcdefghij-----", on: subject) == "---c--f--i--j--")
    }

    func aLoneValueIsDeliveredOnceWithBothEdges() {
        let marble = RateLimitMarble()
        let subject = throttler(marble, interval: 4)
        #expect(marble.play("--a---------", on: subject) == "--a---------")
    }

    /// discardPending, cancel and a zero interval. Each check runs on a fresh instance of the suite.
    @Test func discardCancelAndZeroIntervalAreExact() {
        Self().discardPendingDropsTheTrailingValueButKeepsTheWindow()
        Self().cancelDropsThePendingValueAndEverythingSentAfterwards()
        Self().aZeroIntervalDeliversEveryValue()
    }

    func discardPendingDropsTheTrailingValueButKeepsTheWindow() {
        let marble = RateLimitMarble()
        let subject = throttler(marble, interval: 4)
        // b is dropped at 2; c, sent in the same window, is still held back until the window's end.
        #expect(marble.play("ab~c----", on: subject) == "a---c---")
    }

    func cancelDropsThePendingValueAndEverythingSentAfterwards() {
        let marble = RateLimitMarble()
        let subject = throttler(marble, interval: 4)
        #expect(marble.play("ab#-c---d---", on: subject) == "a-----------")
        #expect(subject.isCancelled)
        #expect(!subject.hasPendingValue)
    }

    func aZeroIntervalDeliversEveryValue() {
        let marble = RateLimitMarble()
        let subject = throttler(marble, interval: 0)
        marble.time.run {
            subject.send("x")
            subject.send("y")
        }
        #expect(marble.play("ab--", on: subject) == "(xya)b--")
    }

    /// A pseudo-random stream, deterministic per seed: deliveries are decided at least one interval
    /// apart and in the order sent, every value is delivered or superseded within one interval, and the
    /// last value sent is delivered.
    @Test
    func randomStreamsKeepTheThrottleInvariants() {
        for seed in [1, 7, 42, 1_234, 99_991] {
            Self().randomStreamsKeepTheThrottleInvariants(seed: seed)
        }
    }

    func randomStreamsKeepTheThrottleInvariants(seed: Int) {
        let time = VirtualTime()
        let interval = RateLimitMarble.units(5)
        let deliveries = Recorder<(value: Int, at: TickInstant)>()
        let subject = time.run {
            Throttler<Int>(interval: interval, on: .dispatch(DispatchQueue(label: "TimerKitTests.random"))) {
                deliveries.append(($0, time.now))
            }
        }
        var state = UInt64(seed)
        var sent: [(value: Int, at: TickInstant)] = []
        for value in 0..<300 {
            time.advance(by: RateLimitMarble.unit)
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            if (state >> 33) % 3 == 0 {
                subject.send(value)
                sent.append((value, time.now))
            }
        }
        time.advance(by: interval * 2)
        let delivered = deliveries.values
        #expect(delivered.count > 10, "seed \(seed)")
        for (earlier, later) in zip(delivered, delivered.dropFirst()) {
            #expect(earlier.value < later.value, "seed \(seed)")
            #expect(earlier.at.duration(to: later.at) >= interval, "seed \(seed)")
        }
        for value in sent {
            let covered = delivered.contains { $0.value >= value.value && $0.at <= value.at.advanced(by: interval) }
            #expect(
                covered,
                "value \(value.value) sent at \(value.at) was neither delivered nor superseded in time; seed \(seed)")
        }
        #expect(delivered.last?.value == sent.last?.value, "seed \(seed)")
    }
}

/// The throttle timing alone, without engine or clock.
@Suite struct ThrottleMachineTests {
    /// The throttle state machine on its own. Each check runs on a fresh instance of the suite.
    @Test func theMachineOpensWindowsFromItsDeliveries() {
        Self().aLateWakeUpStillOpensTheNextWindowFromTheTrailingDelivery()
        Self().aLeadingOnlyThrottlerKeepsNoPendingValue()
    }

    func aLateWakeUpStillOpensTheNextWindowFromTheTrailingDelivery() {
        var machine = ThrottleMachine<String>(interval: 100, edges: .leadingAndTrailing)
        var dropped = Dropped<String>()
        machine.receive("a", at: 0, dropping: &dropped)
        #expect(machine.takeReady() == "a")
        machine.receive("b", at: 50, dropping: &dropped)
        #expect(machine.nextWake == 100)
        // The context stalls until 130: b is decided then, and its window runs to 230.
        machine.settle(at: 130, dropping: &dropped)
        #expect(machine.takeReady() == "b")
        machine.receive("c", at: 200, dropping: &dropped)
        #expect(machine.takeReady() == nil)
        #expect(machine.nextWake == 230)
    }

    func aLeadingOnlyThrottlerKeepsNoPendingValue() {
        var machine = ThrottleMachine<Int>(interval: 100, edges: .leading)
        var dropped = Dropped<Int>()
        machine.receive(1, at: 0, dropping: &dropped)
        machine.receive(2, at: 10, dropping: &dropped)
        #expect(machine.takeReady() == 1)
        #expect(!machine.hasPendingValue)
        #expect(machine.nextWake == nil)
    }
}
