import Foundation
import Testing

@testable import TimerKit

/// The state machine behind a tick sequence's waits (`TickWaiterMachine`), event by event: when a wait
/// parks, which fire resumes it, when the ticker is stopped, and how cancellation and a stopped ticker end
/// a wait. The continuation is an `Int` here, so that each test can tell which one it got back.
@Suite struct TickWaiterMachineTests {
    typealias Machine = TickWaiterMachine<Int>

    /// When a wait parks and what a fire asks for. Each check runs on a fresh instance of the suite.
    @Test func parkingAndFiresFollowTheServedDeadline() {
        Self().aWaitParksOnlyWhileATickerServesItsDeadline()
        Self().aFireForAnEarlierDeadlineLeavesTheConsumerParked()
        Self().aConsumerWhoseClockRanAheadIsNotServedByTheRunningTicker()
        Self().aTickerRestartedOnTheGridServesTheDeadlineItStartsAtAndTheOneAfter()
        Self().aLateFireReportsTheLatestDeadlineAndAWaitForAPassedOneReturnsAtOnce()
    }

    func aWaitParksOnlyWhileATickerServesItsDeadline() {
        var machine = Machine()
        #expect(machine.park(1, for: 1).outcome == .unserved, "no ticker yet")
        let generation = machine.startServing(base: 1, count: 3)
        #expect(machine.park(1, for: 1).outcome == nil, "parked")
        #expect(machine.fired(generation: generation, engineIndex: 1, isLast: false).resumed == 1)
        // Deadlines 2 and 3 are the ticker's; 4 is past its last.
        #expect(machine.park(2, for: 3).outcome == nil)
        #expect(machine.fired(generation: generation, engineIndex: 3, isLast: true).resumed == 2)
        #expect(machine.park(3, for: 4).outcome == .unserved, "the ticker finished")
    }

    func aFireForAnEarlierDeadlineLeavesTheConsumerParked() {
        var machine = Machine()
        let generation = machine.startServing(base: 5, count: nil)
        // The consumer took deadline 5 on its own clock reading and now waits for 6; the engine's wake-up
        // for 5 comes after.
        #expect(machine.park(1, for: 6).outcome == nil)
        #expect(machine.fired(generation: generation, engineIndex: 1, isLast: false).isNone)
        #expect(machine.fired(generation: generation, engineIndex: 2, isLast: false).resumed == 1)
    }

    /// A machine whose first ticker (from deadline 1, unbounded) reached deadline 1 and resumed the
    /// consumer with it; each case that parks starts from a fresh one, so that an unexpected park is an
    /// expectation failure, not a second wait.
    static func afterTheFirstTick() -> Machine {
        var machine = Machine()
        let generation = machine.startServing(base: 1, count: nil)
        _ = machine.park(0, for: 1)
        _ = machine.fired(generation: generation, engineIndex: 1, isLast: false)
        return machine
    }

    func aConsumerWhoseClockRanAheadIsNotServedByTheRunningTicker() {
        // The consumer's clock ran ahead of the ticker's (the device slept 50 intervals, and the ticker's
        // clock stopped meanwhile): it waits for deadline 52, which this ticker would reach only interval
        // by interval. It is not served: the waiter starts a new ticker on the grid.
        var machine = Self.afterTheFirstTick()
        #expect(machine.park(1, for: 52).outcome == .unserved)
        machine = Self.afterTheFirstTick()
        #expect(machine.park(1, for: 4).outcome == .unserved, "two past the ticker's next deadline (2)")
        // One past the ticker's next deadline is served: the consumer took that one on its own reading.
        machine = Self.afterTheFirstTick()
        #expect(machine.park(1, for: 3).outcome == nil)
        #expect(machine.cancel() == 1)
    }

    func aTickerRestartedOnTheGridServesTheDeadlineItStartsAtAndTheOneAfter() {
        var machine = Self.afterTheFirstTick()
        _ = machine.startServing(base: 52, count: nil)
        #expect(machine.park(1, for: 54).outcome == .unserved, "beyond the restarted ticker's reach")
        machine = Self.afterTheFirstTick()
        let restarted = machine.startServing(base: 52, count: nil)
        #expect(machine.park(1, for: 53).outcome == nil, "the consumer took deadline 52 on its own reading")
        #expect(machine.fired(generation: restarted, engineIndex: 1, isLast: false).isNone)
        #expect(machine.fired(generation: restarted, engineIndex: 2, isLast: false).resumed == 1)
        #expect(machine.reached == 53)
    }

    func aLateFireReportsTheLatestDeadlineAndAWaitForAPassedOneReturnsAtOnce() {
        var machine = Machine()
        let generation = machine.startServing(base: 1, count: nil)
        #expect(machine.park(1, for: 1).outcome == nil)
        // The engine was late: its tick stands for its deadline 4 (sequence deadline 4), 2 and 3 skipped.
        #expect(machine.fired(generation: generation, engineIndex: 4, isLast: false).resumed == 1)
        #expect(machine.reached == 4)
        #expect(machine.park(2, for: 3).outcome == .reached)
    }

    /// When the ticker stops, and how stops and cancellation end a wait. Each check runs on a fresh instance of the suite.
    @Test func stopsEndsAndCancellationsAreExact() {
        Self().aFireThatFindsNobodyWaitingStopsTheTicker()
        Self().aLastFireThatFindsNobodyWaitingAsksNothing()
        Self().anOlderTickerChangesNothing()
        Self().aTickerThatStopsWithoutFiringEndsTheParkedWait()
        Self().cancellationEndsTheParkedWaitAndEveryLaterOne()
        Self().aConsumerCancelledWhileBusyStopsTheTickerAtTheNextFire()
    }

    func aFireThatFindsNobodyWaitingStopsTheTicker() {
        var machine = Machine()
        let generation = machine.startServing(base: 1, count: nil)
        #expect(machine.fired(generation: generation, engineIndex: 1, isLast: false).isStop)
        // The deadline is recorded: a wait for it returns at once; the next one needs a new ticker.
        #expect(machine.park(1, for: 1).outcome == .reached)
        #expect(machine.park(2, for: 2).outcome == .unserved)
    }

    func aLastFireThatFindsNobodyWaitingAsksNothing() {
        var machine = Machine()
        let generation = machine.startServing(base: 1, count: 1)
        #expect(machine.fired(generation: generation, engineIndex: 1, isLast: true).isNone, "it finished by itself")
        #expect(machine.park(1, for: 2).outcome == .unserved)
    }

    func anOlderTickerChangesNothing() {
        var machine = Machine()
        let old = machine.startServing(base: 1, count: nil)
        let current = machine.startServing(base: 2, count: nil)
        #expect(machine.park(1, for: 2).outcome == nil)
        #expect(machine.fired(generation: old, engineIndex: 5, isLast: false).isNone)
        #expect(machine.handlerReleased(generation: old) == nil)
        #expect(machine.reached == 0)
        #expect(machine.fired(generation: current, engineIndex: 1, isLast: false).resumed == 1)
    }

    func aTickerThatStopsWithoutFiringEndsTheParkedWait() {
        var machine = Machine()
        let generation = machine.startServing(base: 1, count: nil)
        #expect(machine.park(7, for: 1).outcome == nil)
        #expect(machine.handlerReleased(generation: generation) == 7)
        #expect(machine.park(8, for: 1).outcome == .unserved)
    }

    func cancellationEndsTheParkedWaitAndEveryLaterOne() {
        var machine = Machine()
        let generation = machine.startServing(base: 1, count: nil)
        #expect(machine.park(1, for: 1).outcome == nil)
        #expect(machine.cancel() == 1)
        // Nobody will wait again: the next fire stops the ticker.
        #expect(machine.fired(generation: generation, engineIndex: 1, isLast: false).isStop)
        #expect(machine.park(2, for: 1).outcome == .ended)
        #expect(machine.cancel() == nil)
    }

    /// A cancellation that lands after a fire resumed the consumer, while it is busy with its tick, leaves
    /// nobody to wait: the next fire stops the ticker, as for any consumer that is away, so a cancelled
    /// task that blocks in its loop body costs no further wake-ups.
    func aConsumerCancelledWhileBusyStopsTheTickerAtTheNextFire() {
        var machine = Machine()
        let generation = machine.startServing(base: 1, count: nil)
        #expect(machine.park(1, for: 1).outcome == nil)
        #expect(machine.fired(generation: generation, engineIndex: 1, isLast: false).resumed == 1)
        #expect(machine.cancel() == nil)
        #expect(machine.fired(generation: generation, engineIndex: 2, isLast: false).isStop)
        #expect(machine.park(2, for: 2).outcome == .ended)
    }
}

extension TickWaiterMachine.Parking {
    /// The outcome of a park that did not wait; `nil` when it parked.
    var outcome: TickWaiterMachine.Outcome? {
        if case .resumeNow(let outcome) = self { return outcome }
        return nil
    }
}

extension TickWaiterMachine.FireAction {
    var resumed: Continuation? {
        if case .resume(let continuation) = self { return continuation }
        return nil
    }

    var isStop: Bool {
        if case .stop = self { return true }
        return false
    }

    var isNone: Bool {
        if case .none = self { return true }
        return false
    }
}
