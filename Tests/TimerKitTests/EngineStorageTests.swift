import Foundation
import Testing
import TimerKitTestSupport

@testable import TimerKit

/// The engine's table: pages released when it empties, a heap that orders deliveries by deadline and
/// arrival under churn, and creation sites shared by the tickers of one call site.
@Suite struct EngineStorageTests {
    init() { LogCapture.install() }

    private static let context = TickerContext.precise(label: "TimerKitTests.storage")

    /// Pages, order under churn and buried nodes. Each check runs on a fresh instance of the suite.
    @Test func storageKeepsOrderAndBuriesCancelledTickers() {
        Self().anEmptiedEngineKeepsOnlyItsFirstPage()
        Self().deliveriesFollowDeadlineThenCreationOrderUnderChurn()
        Self().cancelledTickersAreBuriedAndCleared()
        Self().equalDeadlinesKeepArrivalOrderAcrossTheTieCounterWrap()
        Self().buriedNodesNeverOutnumberTheLiveOnesAfterPauses()
    }

    func anEmptiedEngineKeepsOnlyItsFirstPage() {
        let time = VirtualTime()
        var tickers = time.run {
            (0..<2_000).map { _ in Ticker.schedule(.after(.seconds(60)), on: Self.context) { _ in } }
        }
        let engine = time.base.engine(for: Self.context)
        let full = engine.storage()
        #expect(full.slots == 2_000)
        #expect(full.occupied == 2_000)
        #expect(full.pages == 8)  // 32 + 32 + 64 + 128 + 256, then 512-record pages
        #expect(full.heapCapacity >= 2_000)
        tickers.forEach { $0.cancel() }
        tickers.removeAll()
        let empty = engine.storage()
        #expect(empty.slots == 0)
        #expect(empty.occupied == 0)
        #expect(empty.pages == 1)
        #expect(empty.heapCapacity <= 64)
        // The kept page serves the next ticker without growing.
        let next = time.run { Ticker.schedule(.after(.seconds(1)), on: Self.context) { _ in } }
        #expect(engine.storage().pages == 1)
        withExtendedLifetime(next) {}
    }

    func deliveriesFollowDeadlineThenCreationOrderUnderChurn() {
        var generator = ConcurrencyStressTests.SplitMix64(state: 0x5EED_7173)
        let time = VirtualTime()
        let order = Locked<[Int]>.make([])
        // Many ties (delays in whole milliseconds from a small range) and random cancels.
        let delays = (0..<600).map { _ in Int.random(in: 1...40, using: &generator) }
        let tickers = time.run {
            delays.enumerated().map { index, delay in
                Ticker.schedule(.after(.milliseconds(delay)), on: Self.context) { _ in
                    order.withLock { $0.append(index) }
                }
            }
        }
        var cancelled = Set<Int>()
        for index in delays.indices where Int.random(in: 0..<3, using: &generator) == 0 {
            tickers[index].cancel()
            cancelled.insert(index)
        }
        time.advance(by: .seconds(1))
        let expected = delays.indices.filter { !cancelled.contains($0) }.sorted {
            delays[$0] != delays[$1] ? delays[$0] < delays[$1] : $0 < $1
        }
        #expect(order.withLock { $0 } == expected)
        withExtendedLifetime(tickers) {}
    }

    /// Cancelled tickers are buried in the heap rather than sifted out: the heap never holds more buried
    /// nodes than live ones (past its small size), and the survivors are delivered in deadline order.
    func cancelledTickersAreBuriedAndCleared() {
        var generator = ConcurrencyStressTests.SplitMix64(state: 0xB0_12_1E_D0)
        let time = VirtualTime()
        let order = Locked<[Int]>.make([])
        let delays = (0..<2_000).map { _ in Int.random(in: 1...500, using: &generator) }
        let tickers = time.run {
            delays.enumerated().map { index, delay in
                Ticker.schedule(.after(.milliseconds(delay)), on: Self.context) { _ in
                    order.withLock { $0.append(index) }
                }
            }
        }
        let engine = time.base.engine(for: Self.context)
        var kept: [Int] = []
        for index in delays.indices {
            if Int.random(in: 0..<10, using: &generator) == 0 {
                kept.append(index)
            } else {
                tickers[index].cancel()
            }
            if index % 100 == 0 { #expect(engine.storageInvariantViolation() == nil) }
        }
        #expect(engine.heapNodeCount() <= 2 * kept.count + DeadlineHeap.burialMinimum + 1)
        time.advance(by: .seconds(1))
        let expected = kept.sorted { delays[$0] != delays[$1] ? delays[$0] < delays[$1] : $0 < $1 }
        #expect(order.withLock { $0 } == expected)
        #expect(engine.storageInvariantViolation() == nil)
        withExtendedLifetime(tickers) {}
    }

    /// Programs with hundreds of tickers per context (the model's usual programs hold at most 40, too few
    /// for buried heap entries to outnumber live ones and be cleared in one pass) agree with the lifecycle
    /// model. Under a sanitizer (6-8× slower) one program per thread count runs, not two: that run looks
    /// for races and memory errors on the same paths, and the plain run keeps the full count.
    @Test
    func programsWithManyTickersAgreeWithTheModel() {
        for threads in [1, 4] {
            Self().programsWithManyTickersAgreeWithTheModel(threads: threads)
        }
    }

    func programsWithManyTickersAgreeWithTheModel(threads: Int) {
        let seeds: [UInt64] = SanitizerCheck.isActive ? [0xB0_12_1E_01] : [0xB0_12_1E_01, 0xB0_12_1E_02]
        for seed in seeds {
            let program = ModelProgram.random(seed: seed, length: 2_000, maxTickers: 400)
            let failure = LifecycleModelRun.check(program, threads: threads)
            #expect(
                failure == nil,
                "program \(seed), \(threads) thread(s): \(failure.map(String.init(describing:)) ?? ""); threads \(threads)"
            )
        }
    }

    func equalDeadlinesKeepArrivalOrderAcrossTheTieCounterWrap() {
        var state = TickerStateMachine()
        state.sequence = .max - 150  // the arrival counter wraps halfway through
        let site = TickerSite(
            TickerOrigin(fileID: #fileID, line: #line, ownerType: nil, binding: .handle),
            times: TickSchedule.after(.seconds(1)).times)
        var slots: [UInt32] = []
        for _ in 0..<300 {
            let id = state.insert(
                TickerRecord(phase: .running(origin: 0), site: site, owner: nil, handler: nil, now: 0))
            state.reschedule(id.slot)
            slots.append(id.slot)
        }
        // Pause and resume (take out, put back) every third one: it goes to the back of the tie.
        var moved: [UInt32] = []
        for slot in slots where slot % 3 == 0 {
            state[slot].phase = .paused(remaining: 1_000_000_000)
            state.reschedule(slot)
            state[slot].phase = .running(origin: 0)
            state.reschedule(slot)
            moved.append(slot)
        }
        var popped: [UInt32] = []
        while let top = state.heap.first {
            popped.append(top.slot)
            state.removeFromHeap(at: 0)
        }
        #expect(popped == slots.filter { $0 % 3 != 0 } + moved)
    }

    /// Call sites, snapshots and due batches. Each check runs on a fresh instance of the suite.
    @Test func callSitesAndBatchesAreKeptPerTicker() {
        Self().tickersOfOneCallSiteWithDifferentSchedulesKeepTheirOwn()
        Self().tickersOfOneCallSiteShareTheirSiteAndSnapshotsKeepEachOwn()
        Self().aBatchGrowsForATickerServedTwice()
        Self().aBatchIsSizedForTheDueTickersNotEveryPendingOne()
        Self().theDueScanNamesExactlyTheLiveDueTickers()
    }

    /// One call site making tickers with different schedules: the site keeps the first one's numbers, the
    /// others keep their own (in a side table emptied as they go), and each runs on its own schedule.
    func tickersOfOneCallSiteWithDifferentSchedulesKeepTheirOwn() {
        let time = VirtualTime()
        let fired = Recorder<(Int, Tick)>()
        let make = { (delay: Int) in
            Ticker.schedule(.every(.milliseconds(delay), count: 2), on: Self.context) { fired.append((delay, $0)) }
        }
        let tickers = time.run { [10, 30, 10, 20].map(make) }
        let engine = time.base.engine(for: Self.context)
        #expect(engine.storage().sites == 1)
        #expect(engine.storageInvariantViolation() == nil)
        #expect(tickers.map(\.timeRemaining) == [10, 30, 10, 20].map { .milliseconds($0) })
        let start = time.now
        time.advance(by: .milliseconds(60))
        let deadlines = fired.values.map { delay, tick in
            "\(delay): \(start.duration(to: tick.deadline).components.attoseconds / 1_000_000_000_000_000) ms"
        }
        #expect(
            deadlines.sorted()
                == [
                    "10: 10 ms", "10: 10 ms", "10: 20 ms", "10: 20 ms", "20: 20 ms", "20: 40 ms", "30: 30 ms",
                    "30: 60 ms",
                ]
                .sorted())
        #expect(tickers.allSatisfy { $0.state == .finished })
        #expect(engine.storageInvariantViolation() == nil)
        withExtendedLifetime(tickers) {}
    }

    func tickersOfOneCallSiteShareTheirSiteAndSnapshotsKeepEachOwn() {
        let time = VirtualTime()
        let (first, second) = time.run {
            let first = (0..<10).map { _ in Ticker.schedule(.after(.seconds(60)), on: Self.context) { _ in } }
            let second = Ticker.schedule(.after(.seconds(60)), on: Self.context) { _ in }
            return (first, second)
        }
        let engine = time.base.engine(for: Self.context)
        #expect(engine.storage().sites == 2)
        let lines = Set(first.compactMap { $0.snapshot?.line })
        #expect(lines.count == 1)
        #expect(second.snapshot?.line != lines.first)
        #expect(second.snapshot?.fileID == "TimerKitTests/EngineStorageTests.swift")
        withExtendedLifetime((first, second)) {}
    }

    /// A batch of deliveries starts small and grows as due tickers are found: a ticker with several pending
    /// `fire()` requests is served once per request in the same batch, in order, each delivered once.
    func aBatchGrowsForATickerServedTwice() {
        var state = TickerStateMachine()
        let keepAlive = Recorder<Int>()
        let origin = TickerOrigin(fileID: #fileID, line: #line, ownerType: nil, binding: .handle, isBatched: true)
        let (id, _, _) = state.add(
            times: TickSchedule.every(.seconds(1)).times, origin: origin, owner: nil, startsImmediately: true,
            handler: .tick { _ in }, finishedAtOnce: false, now: 0, keepAlive: keepAlive)
        for _ in 0..<3 { _ = state.handle(.fire, on: id, now: 10) }
        guard case .serveBatch(let batch) = state.nextDue(now: 20, served: 0, limit: 100) else {
            Issue.record("a batched ticker is served in a batch")
            return
        }
        #expect(batch.count == 3)
        var ticks: [Tick] = []
        batch.serveAll { due in
            if case .deliver(let delivery) = due { ticks.append(delivery.tick) }
        }
        #expect(ticks.map(\.isManual) == [true, true, true])
        #expect(ticks.map(\.fireCount) == [1, 2, 3])
        #expect(state.invariantViolation() == nil)
    }

    /// A wake-up that finds one batched ticker due among a thousand pending allocates a batch for that one,
    /// not one sized for every pending ticker (a delivery is over a hundred bytes).
    func aBatchIsSizedForTheDueTickersNotEveryPendingOne() {
        var state = TickerStateMachine()
        let keepAlive = Recorder<Int>()
        let origin = TickerOrigin(fileID: #fileID, line: #line, ownerType: nil, binding: .handle, isBatched: true)
        for index in 0..<1_000 {
            _ = state.add(
                times: TickSchedule.every(.seconds(1 + index)).times, origin: origin, owner: nil,
                startsImmediately: true, handler: .tick { _ in }, finishedAtOnce: false, now: 0, keepAlive: keepAlive)
        }
        guard case .serveBatch(let batch) = state.nextDue(now: 1_000_000_000, served: 0, limit: 10_000) else {
            Issue.record("a batched ticker is served in a batch")
            return
        }
        #expect(batch.count == 1)
        #expect(batch.capacity == 1)
        batch.serveAll { _ in }
        #expect(state.invariantViolation() == nil)
    }

    /// A wake-up asks for the records of the tickers due before serving them (see `DeadlineHeap.forEachDue`):
    /// the scan names every live due node once, no buried or later one, stops at its limit, and the batch
    /// it sizes holds the due tickers without growing.
    func theDueScanNamesExactlyTheLiveDueTickers() {
        var generator = ConcurrencyStressTests.SplitMix64(state: 0xD0E5_CA17)
        var state = TickerStateMachine()
        let keepAlive = Recorder<Int>()
        let origin = TickerOrigin(fileID: #fileID, line: #line, ownerType: nil, binding: .handle, isBatched: true)
        // Whole milliseconds from a small range: many ties, as with aligned tickers.
        let ids = (0..<600).map { _ in
            state.add(
                times: TickSchedule.after(.milliseconds(Int.random(in: 1...50, using: &generator))).times,
                origin: origin, owner: nil, startsImmediately: true, handler: .tick { _ in }, finishedAtOnce: false,
                now: 0, keepAlive: keepAlive
            ).id
        }
        for id in ids where Int.random(in: 0..<4, using: &generator) == 0 { _ = state.handle(.cancel, on: id, now: 0) }
        #expect(state.deadlines.buried > 0)
        for milliseconds: Int64 in [0, 1, 7, 25, 50] {
            let now = milliseconds * 1_000_000
            let due = state.heap.filter { $0.deadline <= now && $0.slot != DeadlineHeap.tombstone }.map(\.slot)
            var named: [UInt32] = []
            #expect(state.deadlines.forEachDue(now: now, limit: 1_000) { named.append($0) } == due.count)
            #expect(named.sorted() == due.sorted())
            var limited: [UInt32] = []
            #expect(state.deadlines.forEachDue(now: now, limit: 10) { limited.append($0) } == min(10, due.count))
            #expect(Set(limited).isSubset(of: Set(due)) && Set(limited).count == limited.count)
        }
        let now: Int64 = 20_000_000
        let dueCount = state.heap.count { $0.deadline <= now && $0.slot != DeadlineHeap.tombstone }
        guard case .serveBatch(let batch) = state.nextDue(now: now, served: 0, limit: 10_000) else {
            Issue.record("batched tickers are served in a batch")
            return
        }
        #expect(batch.count == dueCount)
        #expect(batch.capacity == dueCount)
        batch.serveAll { _ in }
        #expect(state.invariantViolation() == nil)
    }

    /// Cancelling buries a node; pausing removes a live one. However the two mix, buried nodes never come to
    /// outnumber the live ones (they are cleared in one pass first), so the heap's memory stays bounded by
    /// its live tickers.
    func buriedNodesNeverOutnumberTheLiveOnesAfterPauses() {
        var state = TickerStateMachine()
        let keepAlive = Recorder<Int>()
        let origin = TickerOrigin(fileID: #fileID, line: #line, ownerType: nil, binding: .handle)
        let ids = (0..<40).map { index in
            state.add(
                times: TickSchedule.every(.seconds(1_000 + index)).times, origin: origin, owner: nil,
                startsImmediately: true, handler: .tick { _ in }, finishedAtOnce: false, now: 0, keepAlive: keepAlive
            ).id
        }
        for id in ids.suffix(9) { _ = state.handle(.cancel, on: id, now: 0) }
        for id in ids.prefix(25) {
            _ = state.handle(.pause, on: id, now: 0)
            #expect(state.invariantViolation() == nil)
        }
    }
}
