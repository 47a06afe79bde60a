import Foundation
import Testing
import TimerKitTestSupport

@testable import TimerKit

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

// Marble diagrams for Debouncer, on virtual time. The harness (`RateLimitMarble`) is shared with
// ThrottleMarbleTests.
//
// One character is one `RateLimitMarble.unit` (10 ms) of virtual time. Input: a lowercase letter sends
// itself; `!` flushes; `~` discards pending values; `#` cancels; `-` does nothing. Output: the letter
// delivered in that slot, `(xy)` for several in one slot (in delivery order), `-` for none. Each slot's
// deadlines fire before that slot's input, so a trailing deadline and a send at the same instant read
// "deliver, then send". Every delivery must run on the advancing thread, outside `send`, at an exact
// slot; the harness records violations, and renders deliveries after the input's end too, so a late
// extra delivery makes the output longer than expected.

/// What a marble can drive: a `Debouncer<String>` or a `Throttler<String>`.
protocol RateLimitMarbleSubject: AnyObject, Sendable {
    func send(_ value: String)
    func discardPending()
    func cancel()
    func marbleFlush()
}

extension Debouncer: RateLimitMarbleSubject where Value == String {
    func marbleFlush() { flush() }
}

extension Throttler: RateLimitMarbleSubject where Value == String {
    func marbleFlush() { Issue.record("Throttler has no flush()") }
}

/// The calling thread's identity, to check that deliveries run on the advancing thread.
func rateLimitThreadID() -> UInt64 {
    #if canImport(Darwin)
        UInt64(UInt(bitPattern: pthread_self()))
    #else
        UInt64(pthread_self())
    #endif
}

/// Plays marble diagrams on one virtual time and records what a rate limiter delivers.
final class RateLimitMarble: Sendable {
    static let unit: Duration = .milliseconds(10)

    let time = VirtualTime()
    /// A dispatch context; under virtual time no real queue runs, the advancing thread delivers.
    let context = TickerContext.dispatch(DispatchQueue(label: "TimerKitTests.marble"))
    let deliveries = Recorder<(value: String, at: TickInstant)>()
    let violations = Recorder<String>()
    private let advancingThread = Locked<UInt64?>.make(nil)
    private let sending = Locked<Bool>.make(false)

    /// `count` units.
    static func units(_ count: Int) -> Duration { unit * count }

    /// The handler every test installs: records the value, the instant, and any violation.
    func record(_ value: String) {
        deliveries.append((value, time.now))
        if advancingThread.withLock({ $0 }) != rateLimitThreadID() {
            violations.append("\(value) was delivered off the advancing thread")
        }
        if sending.withLock({ $0 }) {
            violations.append("\(value) was delivered synchronously inside send")
        }
    }

    /// Plays `input` against `subject` and returns the output marble.
    func play(_ input: String, on subject: some RateLimitMarbleSubject) -> String {
        advancingThread.withLock { $0 = rateLimitThreadID() }
        let start = time.now
        for (slot, symbol) in input.enumerated() {
            time.advance(by: slot == 0 ? .zero : Self.unit)
            switch symbol {
            case "-": break
            case "!": subject.marbleFlush()
            case "~": subject.discardPending()
            case "#": subject.cancel()
            default:
                sending.withLock { $0 = true }
                subject.send(String(symbol))
                sending.withLock { $0 = false }
            }
        }
        time.advance(by: Self.units(1_000))
        return render(from: start, slots: input.count)
    }

    private func render(from start: TickInstant, slots: Int) -> String {
        var bySlot: [Int: [String]] = [:]
        for delivery in deliveries.values {
            let offset = start.duration(to: delivery.at)
            let slot = Int((offset / Self.unit).rounded(.down))
            if Self.unit * slot != offset { violations.append("\(delivery.value) was delivered between slots") }
            bySlot[slot, default: []].append(delivery.value)
        }
        let length = max(slots, (bySlot.keys.max() ?? -1) + 1)
        return (0..<length).map { slot in
            guard let values = bySlot[slot] else { return "-" }
            return values.count == 1 ? values[0] : "(" + values.joined() + ")"
        }.joined()
    }
}

@Suite struct DebounceMarbleTests {
    init() { LogCapture.install() }

    /// A debouncer on the marble's virtual time whose handler records into the marble.
    private func debouncer(
        _ marble: RateLimitMarble,
        interval units: Int,
        edges: RateLimitEdges = .trailing,
        maxWait: Int? = nil
    ) -> Debouncer<String> {
        marble.time.run {
            Debouncer<String>(
                interval: RateLimitMarble.units(units), edges: edges, maxWait: maxWait.map(RateLimitMarble.units),
                on: marble.context
            ) { marble.record($0) }
        }
    }

    /// The trailing and leading edges of a debouncer. Each check runs on a fresh instance of the suite.
    @Test func trailingAndLeadingEdgesDeliverAsDrawn() {
        Self().trailingDeliversTheLatestValueOneIntervalAfterTheLastSend()
        Self().aLoneValueIsDeliveredExactlyOneIntervalLater()
        Self().everySendMovesTheTrailingDeadline()
        Self().leadingDeliversTheFirstValueOfEachBurstAndDropsTheRest()
        Self().leadingAndTrailingDeliversBothEdgesAndALoneValueOnce()
    }

    func trailingDeliversTheLatestValueOneIntervalAfterTheLastSend() {
        let marble = RateLimitMarble()
        let subject = debouncer(marble, interval: 3)
        #expect(marble.play("ab-c----d-e--f---", on: subject) == "------c------e--f")
        #expect(marble.violations.values.isEmpty, "\(marble.violations.values)")
    }

    func aLoneValueIsDeliveredExactlyOneIntervalLater() {
        let marble = RateLimitMarble()
        let subject = debouncer(marble, interval: 5)
        let start = marble.time.now
        #expect(marble.play("--a--------", on: subject) == "-------a---")
        #expect(marble.deliveries.values.map(\.at) == [start.advanced(by: RateLimitMarble.units(2 + 5))])
    }

    func everySendMovesTheTrailingDeadline() {
        let marble = RateLimitMarble()
        let subject = debouncer(marble, interval: 3)
        // A send every two units never leaves three units of quiet until the stream stops.
        #expect(marble.play("a-b-c-d-e-f------", on: subject) == "-------------f---")
    }

    func leadingDeliversTheFirstValueOfEachBurstAndDropsTheRest() {
        let marble = RateLimitMarble()
        let subject = debouncer(marble, interval: 3, edges: .leading)
        #expect(marble.play("ab-c----d-e--f---", on: subject) == "a-------d----f---")
        #expect(marble.violations.values.isEmpty, "\(marble.violations.values)")
    }

    func leadingAndTrailingDeliversBothEdgesAndALoneValueOnce() {
        let marble = RateLimitMarble()
        let subject = debouncer(marble, interval: 3, edges: .leadingAndTrailing)
        // e ends its burst at 13 (its deadline fires first); f, sent at 13, starts a new burst at once.
        #expect(marble.play("ab-c----d-e--f---", on: subject) == "a-----c-d----(ef)---")
        #expect(marble.violations.values.isEmpty, "\(marble.violations.values)")
    }

    /// maxWait during streams and bursts. Each check runs on a fresh instance of the suite.
    @Test func maxWaitBoundsTheDelayOfAStream() {
        Self().maxWaitDeliversDuringAContinuousStream()
        Self().maxWaitWithALeadingEdgeCountsFromTheLeadingDelivery()
        Self().maxWaitLeavesABurstThatGoesQuietInTimeToTheTrailingEdge()
        Self().maxWaitShorterThanTheIntervalIsRaisedToIt()
    }

    func maxWaitDeliversDuringAContinuousStream() {
        let marble = RateLimitMarble()
        let subject = debouncer(marble, interval: 3, maxWait: 5)
        // maxWait counts from the burst's first send (0), then from each delivery (5, 10).
        #expect(marble.play("a-b-c-d-e-------", on: subject) == "-----c----e-----")
    }

    func maxWaitWithALeadingEdgeCountsFromTheLeadingDelivery() {
        let marble = RateLimitMarble()
        let subject = debouncer(marble, interval: 3, edges: .leading, maxWait: 5)
        #expect(marble.play("a-b-c-d-e-------", on: subject) == "a----c----e-----")
    }

    func maxWaitLeavesABurstThatGoesQuietInTimeToTheTrailingEdge() {
        let marble = RateLimitMarble()
        let subject = debouncer(marble, interval: 3, maxWait: 10)
        // b's burst goes quiet at 5, before its maxWait (10). c starts a burst at 8 that never goes quiet
        // in time: maxWait delivers g at 18, just before g's quiet end (19).
        #expect(marble.play("a-b-----c-d-e-f-g-------", on: subject) == "-----b------------g-----")
    }

    func maxWaitShorterThanTheIntervalIsRaisedToIt() {
        let marble = RateLimitMarble()
        let subject = debouncer(marble, interval: 4, maxWait: 1)
        #expect(subject.maxWait == RateLimitMarble.units(4))
        // Slot 4's deadline fires before e is sent there, so d is the value pending at maxWait.
        #expect(marble.play("abcdefgh-------", on: subject) == "----d---h------")
    }

    /// flush, discardPending and cancel. Each check runs on a fresh instance of the suite.
    @Test func flushDiscardAndCancelActOnThePendingValue() {
        Self().flushDeliversThePendingValueNowAndTheBurstGoesOn()
        Self().flushDoesNotStartANewLeadingEdge()
        Self().flushDeliversEvenWhenTheTrailingEdgeIsOff()
        Self().discardPendingDropsTheValueAndEndsTheBurst()
        Self().cancelDropsThePendingValueAndEverythingSentAfterwards()
        Self().cancelAfterALeadingValueWasDecidedDropsItToo()
    }

    func flushDeliversThePendingValueNowAndTheBurstGoesOn() {
        let marble = RateLimitMarble()
        let subject = debouncer(marble, interval: 4)
        // b is flushed at 3; c, sent at 4 within b's burst, waits for its own deadline (8).
        #expect(marble.play("a-b!c-------!--", on: subject) == "---b----c------")
        #expect(marble.violations.values.isEmpty, "\(marble.violations.values)")
    }

    func flushDoesNotStartANewLeadingEdge() {
        let marble = RateLimitMarble()
        let subject = debouncer(marble, interval: 4, edges: .leadingAndTrailing)
        // c, sent at 3 within the burst that a started, is no leading edge: it waits for its quiet end (7).
        #expect(marble.play("ab!c---------", on: subject) == "a-b----c-----")
    }

    func flushDeliversEvenWhenTheTrailingEdgeIsOff() {
        let marble = RateLimitMarble()
        let subject = debouncer(marble, interval: 4, edges: .leading)
        #expect(marble.play("ab-!---------", on: subject) == "a--b---------")
    }

    func discardPendingDropsTheValueAndEndsTheBurst() {
        let marble = RateLimitMarble()
        let subject = debouncer(marble, interval: 3, edges: .leadingAndTrailing)
        #expect(marble.play("ab~--c-d-----", on: subject) == "a----c----d--")
    }

    func cancelDropsThePendingValueAndEverythingSentAfterwards() {
        let marble = RateLimitMarble()
        let subject = debouncer(marble, interval: 3)
        #expect(marble.play("a-b#--c--!--d-----", on: subject) == "------------------")
        #expect(subject.isCancelled)
        #expect(!subject.hasPendingValue)
    }

    func cancelAfterALeadingValueWasDecidedDropsItToo() {
        let marble = RateLimitMarble()
        let subject = debouncer(marble, interval: 3, edges: .leading)
        marble.time.run { subject.send("a") }
        subject.cancel()
        #expect(marble.play("--b---", on: subject) == "------")
    }

    /// Zero and negative intervals. Each check runs on a fresh instance of the suite.
    @Test func zeroAndNegativeIntervalsDeliverEveryValue() {
        Self().aZeroIntervalDeliversEveryValueInOrder()
        Self().aNegativeIntervalIsClampedToZeroWithAWarning()
    }

    func aZeroIntervalDeliversEveryValueInOrder() {
        let marble = RateLimitMarble()
        let subject = debouncer(marble, interval: 0)
        marble.time.run {
            subject.send("x")
            subject.send("y")
        }
        #expect(marble.play("a-b---", on: subject) == "(xya)-b---")
    }

    func aNegativeIntervalIsClampedToZeroWithAWarning() {
        LogCapture.install()
        let marble = RateLimitMarble()
        let site = contractUniqueFileID()
        let subject = marble.time.run {
            Debouncer<String>(interval: .seconds(-1), maxWait: .seconds(-2), on: marble.context, fileID: site) {
                marble.record($0)
            }
        }
        #expect(subject.interval == .zero)
        #expect(subject.maxWait == .zero)
        #expect(marble.play("ab--", on: subject) == "ab--")
        let warnings = LogCapture.lines(containing: site)
        #expect(warnings.contains { $0.contains("interval -1.0 seconds is negative; clamped to zero") })
        #expect(warnings.contains { $0.contains("maxWait -2.0 seconds is shorter than the interval") })
    }
}

/// The debounce timing alone, without engine or clock: a late wake-up decides what on-time ones would.
@Suite struct DebounceMachineTests {
    init() { LogCapture.install() }

    /// The debounce state machine on its own. Each check runs on a fresh instance of the suite.
    @Test func theMachineOrdersEdgesAndDeadlines() {
        Self().aLateWakeUpDeliversTheOldBurstsTrailingValueBeforeTheNewBurstsLeadingOne()
        Self().maxWaitDeadlineComesBeforeTheQuietEnd()
        Self().theTrailingEdgeOffLetsThePendingValueGoAtTheQuietEnd()
    }

    func aLateWakeUpDeliversTheOldBurstsTrailingValueBeforeTheNewBurstsLeadingOne() {
        var machine = DebounceMachine<String>(interval: 100, maxWait: nil, edges: .leadingAndTrailing)
        var dropped = Dropped<String>()
        machine.receive("a", at: 0, dropping: &dropped)
        machine.receive("b", at: 50, dropping: &dropped)
        #expect(machine.takeReady() == "a")
        // No wake-up ran at 150 (a stalled context): the next send still ends b's burst first.
        machine.receive("c", at: 400, dropping: &dropped)
        #expect(machine.takeReady() == "b")
        #expect(machine.takeReady() == "c")
        #expect(machine.takeReady() == nil)
        #expect(machine.nextWake == nil)
    }

    func maxWaitDeadlineComesBeforeTheQuietEnd() {
        var machine = DebounceMachine<Int>(interval: 30, maxWait: 50, edges: .trailing)
        var dropped = Dropped<Int>()
        for (value, at) in [(1, 0), (2, 20), (3, 40)] {
            machine.receive(value, at: Int64(at), dropping: &dropped)
        }
        #expect(machine.nextWake == 50)
        machine.settle(at: 50, dropping: &dropped)
        #expect(machine.takeReady() == 3)
        #expect(machine.nextWake == nil)
    }

    func theTrailingEdgeOffLetsThePendingValueGoAtTheQuietEnd() {
        var machine = DebounceMachine<Int>(interval: 30, maxWait: nil, edges: .leading)
        var dropped = Dropped<Int>()
        machine.receive(1, at: 0, dropping: &dropped)
        #expect(machine.nextWake == .min)  // the leading value: at once
        #expect(machine.takeReady() == 1)
        machine.receive(2, at: 10, dropping: &dropped)
        #expect(machine.nextWake == 40)
        machine.settle(at: 40, dropping: &dropped)
        #expect(machine.takeReady() == nil)
        #expect(!machine.hasPendingValue)
    }
}
