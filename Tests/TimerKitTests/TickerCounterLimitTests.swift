import Testing

@testable import TimerKit

/// A record keeps a ticker's counters in small fields (next index and fire count in 32 bits, skipped
/// deadlines in 16): a ticker that outgrows one moves all three to the machine's side table, and every
/// count stays exact on both sides of each field's limit.
@Suite struct TickerCounterLimitTests {
    private static let context = TickerContext.precise(label: "TimerKitTests.counters")
    /// What a machine keeps alive while it has live tickers (an engine, in the library).
    private static let keepAlive = Recorder<Int>()

    /// The slot of a new machine's first ticker.
    private static let slot: UInt32 = 0

    private static func machineWithOneTicker(every interval: Duration) -> TickerStateMachine {
        var state = TickerStateMachine()
        let times = TickSchedule.every(interval).times
        let (id, _, _) = state.add(
            times: times, origin: TickerOrigin(fileID: #fileID, line: #line, ownerType: nil, binding: .handle),
            owner: nil, startsImmediately: true, handler: .tick { _ in }, finishedAtOnce: false, now: 0,
            keepAlive: keepAlive)
        precondition(id.slot == slot, "a new machine's first ticker takes slot 0")
        return state
    }

    /// Serves the ticker at `now` and returns the tick it would deliver.
    private static func serve(_ state: inout TickerStateMachine, now: Int64) -> Tick? {
        state.reschedule(0)
        guard case .serve(.deliver(let delivery)) = state.nextDue(now: now, served: 0, limit: 1) else { return nil }
        return delivery.tick
    }

    @Test func countersAtTheirFieldsLimitsStayInline() {
        var state = Self.machineWithOneTicker(every: .seconds(1))
        let slot = Self.slot
        let limits = TickerCounts(
            nextIndex: Int(UInt32.max), fireCount: Int(UInt32.max), skippedTotal: Int(UInt16.max))
        state.setCounts(limits, ofSlot: slot)
        #expect(!state[slot].hasWideCounts)
        #expect(state.counts(ofSlot: slot) == limits)
        #expect(state.invariantViolation() == nil)
    }

    @Test func aFireCountPast2To32IsExact() {
        var state = Self.machineWithOneTicker(every: .seconds(1))
        let slot = Self.slot
        let start = TickerCounts(nextIndex: 10, fireCount: Int(UInt32.max), skippedTotal: 0)
        state.setCounts(start, ofSlot: slot)
        let tick = Self.serve(&state, now: 10_000_000_000)
        #expect(tick?.fireCount == 1 << 32)
        #expect(tick?.index == 10)
        #expect(state[slot].hasWideCounts)
        #expect(state.counts(ofSlot: slot) == TickerCounts(nextIndex: 11, fireCount: 1 << 32, skippedTotal: 0))
        #expect(state.invariantViolation() == nil)
        #expect(Self.serve(&state, now: 11_000_000_000)?.fireCount == 1 << 32 + 1)
    }

    @Test func anIndexPast2To32IsExact() {
        var state = Self.machineWithOneTicker(every: .seconds(1))
        let slot = Self.slot
        state.setCounts(TickerCounts(nextIndex: Int(UInt32.max), fireCount: 7, skippedTotal: 3), ofSlot: slot)
        let atLimit = Self.serve(&state, now: Int64(UInt32.max) * 1_000_000_000)
        #expect(atLimit?.index == Int(UInt32.max))
        #expect(state[slot].hasWideCounts, "the next index, 2^32, does not fit 32 bits")
        let past = Self.serve(&state, now: Int64(UInt32.max) * 1_000_000_000 + 3_000_000_000)
        #expect(past?.index == Int(UInt32.max) + 3)
        #expect(past?.skipped == 2)
        #expect(past?.fireCount == 9)
        #expect(
            state.counts(ofSlot: slot) == TickerCounts(nextIndex: Int(UInt32.max) + 4, fireCount: 9, skippedTotal: 5))
        #expect(state.invariantViolation() == nil)
    }

    @Test func skippedDeadlinesPast2To16AreExact() {
        var state = Self.machineWithOneTicker(every: .seconds(1))
        let slot = Self.slot
        state.setCounts(TickerCounts(nextIndex: 1, fireCount: 0, skippedTotal: Int(UInt16.max)), ofSlot: slot)
        _ = Self.serve(&state, now: 1_000_000_000)
        #expect(!state[slot].hasWideCounts, "65,535 skipped still fits")
        let tick = Self.serve(&state, now: 3_000_000_000)
        #expect(tick?.skipped == 1)
        #expect(state[slot].hasWideCounts)
        #expect(state.counts(ofSlot: slot).skippedTotal == Int(UInt16.max) + 1)
    }

    /// Through the public API, under virtual time: a 100 µs ticker whose handler stalls 500,000 s (five
    /// billion deadlines) skips them, and reports the index, skipped count and fire count exactly; its side
    /// table entry goes with the ticker.
    @Test func aTickerPastFiveBillionDeadlinesReportsExactCounts() {
        let time = VirtualTime()
        let ticks = Recorder<Tick>()
        let ticker = time.run {
            Ticker.schedule(.every(.microseconds(100)), on: Self.context) { tick in
                ticks.append(tick)
                if tick.fireCount == 1 { time.clock.advance(by: .seconds(500_000)) }
            }
        }
        let start = time.now
        time.advance(by: .microseconds(100))
        let indexes = ticks.values.map(\.index)
        #expect(indexes == [1, 5_000_000_001])
        #expect(ticks.values.map(\.skipped) == [0, 4_999_999_999])
        #expect(ticker.fireCount == 2)
        #expect(ticker.snapshot?.skippedCount == 4_999_999_999)
        #expect(ticker.nextDeadline == start.advanced(by: .microseconds(100) * 5_000_000_002))
        time.advance(by: .microseconds(100))
        #expect(ticks.values.last?.index == 5_000_000_002)
        #expect(ticks.values.last?.skipped == 0)
        let engine = time.base.engine(for: Self.context)
        #expect(engine.storageInvariantViolation() == nil)
        ticker.cancel()
        #expect(engine.storageInvariantViolation() == nil)
    }
}
