import Foundation
import Testing
import TimerKitTestSupport

@testable import TimerKit

/// A frame source's subscriber storage gives its pages back as subscribers go, not only when the source
/// empties, while ids of live subscriptions stay valid, stale ones reach nobody, and delivery stays in
/// subscription order. Counted in pages and slots, never in time.
@Suite struct FrameStorageTests {
    init() { LogCapture.install() }

    let time = VirtualTime()
    let context = FrameTestSupport.context
    let interval = FrameTestSupport.interval
    let pageSize = SlotStore<FrameRecord>.pageSize

    /// The page of the store that holds `slot`.
    private func page(of slot: Int) -> Int { SlotStore<FrameRecord>.location(of: slot).page }

    /// Subscribes `count` handle-owned subscribers that record their number in `order`.
    private func burst(
        _ count: Int, numberedFrom first: Int = 0, on source: FrameSource, into order: Recorder<Int>
    ) -> [FrameSubscription] {
        time.run { (first..<first + count).map { number in source.subscribe { _ in order.append(number) } } }
    }

    @Test
    func storageShrinksAfterABurstWhileOneSubscriberStays() {
        for survivor in [0, 517, 999] {
            Self().storageShrinksAfterABurstWhileOneSubscriberStays(survivor: survivor)
        }
    }

    func storageShrinksAfterABurstWhileOneSubscriberStays(survivor: Int) {
        let order = Recorder<Int>()
        let source = time.run { FrameSource.software(on: context) }
        let handles = burst(1_000, on: source, into: order)
        #expect(source.storageUsage.slots == 1_000, "survivor \(survivor)")
        // Cancel in an order that empties pages from both ends and the middle.
        for number in (0..<1_000).sorted(by: { ($0 * 7_919) % 1_000 < ($1 * 7_919) % 1_000 }) where number != survivor {
            handles[number].cancel()
            if number % 97 == 0 { #expect(source.storageInvariantViolation() == nil, "survivor \(survivor)") }
        }
        let usage = source.storageUsage
        // The first page, the survivor's page, and one emptied page kept as a spare.
        #expect(usage.allocatedPages <= 3, "\(usage); survivor \(survivor)")
        #expect(usage.slotCapacity <= 3 * pageSize, "\(usage); survivor \(survivor)")
        // No page is listed above the survivor's, but for the spare (the lowest page emptied last).
        #expect(usage.pages <= max(page(of: survivor), 1) + 1, "\(usage); survivor \(survivor)")
        #expect(source.storageInvariantViolation() == nil, "survivor \(survivor)")
        time.advance(by: .nanoseconds(interval))
        #expect(order.values == [survivor], "the survivor keeps its frames; survivor \(survivor)")
        #expect(handles[survivor].state == .running, "survivor \(survivor)")
        handles[survivor].cancel()
        #expect(
            source.storageUsage.allocatedPages == 0,
            "the last subscriber's departure frees every page; survivor \(survivor)")
        #expect(source.storageUsage.pages == 0, "survivor \(survivor)")
    }

    @Test func staleIDsReachNoNewSubscriberAndOrderIsSubscriptionOrder() {
        let order = Recorder<Int>()
        let source = time.run { FrameSource.software(on: context) }
        let old = burst(200, on: source, into: order)
        let kept: Set = [5, 150]
        for (number, handle) in old.enumerated() where !kept.contains(number) { handle.cancel() }
        // The new subscribers take the freed slots (the lowest pages first), and the slots of freed pages.
        let new = burst(60, numberedFrom: 1_000, on: source, into: order)
        #expect(source.storageInvariantViolation() == nil)
        // The stale handles name slots the new subscribers now hold: every call on them reaches nobody.
        for (number, handle) in old.enumerated() where !kept.contains(number) {
            #expect(handle.state == .cancelled)
            handle.resume()
            handle.pause()
            handle.cancel()
        }
        #expect(source.subscriberCount == 62)
        #expect(new.allSatisfy { $0.state == .running })
        time.advance(by: .nanoseconds(interval))
        #expect(order.values == [5, 150] + Array(1_000..<1_060), "delivery order is subscription order")
        (old + new).forEach { $0.cancel() }
        #expect(source.storageInvariantViolation() == nil)
    }

    @Test func aCountGoingUpAndDownAcrossAPageBoundaryKeepsItsPages() {
        let order = Recorder<Int>()
        let source = time.run { FrameSource.software(on: context) }
        // The small pages (4, 4, 8) hold the first 16; the extra ones go to the next page.
        let base = burst(pageSize, on: source, into: order)
        let pages = page(of: pageSize) + 1
        for round in 0..<50 {
            let extra = burst(3, numberedFrom: 100 + 3 * round, on: source, into: order)
            #expect(source.storageUsage.allocatedPages == pages)
            extra.forEach { $0.cancel() }
            // The emptied last page stays as the spare: the next round does not allocate it again.
            #expect(source.storageUsage.allocatedPages == pages)
            #expect(source.storageInvariantViolation() == nil)
        }
        base.forEach { $0.cancel() }
        #expect(source.storageUsage.allocatedPages == 0)
    }

    @Test func ownersSweptAtARefreshGiveTheirPagesBack() {
        let source = time.run { FrameSource.software(on: context) }
        var owners: [FrameTestOwner?] = (0..<300).map { _ in FrameTestOwner() }
        time.run {
            for owner in owners { source.subscribe(owner: owner!) { owner, frame in owner.frames.append(frame) } }
        }
        for number in owners.indices where number != 40 { owners[number] = nil }
        time.advance(by: .nanoseconds(interval))
        #expect(source.subscriberCount == 1, "the refresh swept every dead owner")
        #expect(source.storageUsage.allocatedPages <= 3, "\(source.storageUsage)")
        // No page is listed above the survivor's.
        #expect(source.storageUsage.pages <= page(of: 40) + 1)
        #expect(owners[40]!.frames.values.count == 1)
        #expect(source.storageInvariantViolation() == nil)
        owners[40] = nil
        time.advance(by: .nanoseconds(interval))
        #expect(source.subscriberCount == 0)
        #expect(source.storageUsage.pages == 0)
    }
}

extension FrameStorageTests {
    /// Seeded churn in bursts (grow to a few hundred, shrink to a few, again): after every step the
    /// storage keeps only the pages its live subscribers sit in, the first page and one spare; at each
    /// refresh the deliveries are the live subscribers in subscription order.
    @Test
    func churnInBurstsKeepsOnlyThePagesLiveSubscribersNeed() {
        for seed in [1, 2, 3, 4] as [UInt64] {
            Self().churnInBurstsKeepsOnlyThePagesLiveSubscribersNeed(seed: seed)
        }
    }

    func churnInBurstsKeepsOnlyThePagesLiveSubscribersNeed(seed: UInt64) {
        var generator = ConcurrencyStressTests.SplitMix64(state: seed)
        let order = Recorder<Int>()
        let source = time.run { FrameSource.software(on: context) }
        var live: [(number: Int, handle: FrameSubscription)] = []
        var made = 0
        var freedWhileLive = false
        for phase in 0..<6 {
            let target =
                phase.isMultiple(of: 2)
                ? Int.random(in: 100...400, using: &generator) : Int.random(in: 1...8, using: &generator)
            while live.count != target {
                if live.count < target, Int.random(in: 0..<4, using: &generator) != 0 {
                    let number = made
                    made += 1
                    live.append((number, time.run { source.subscribe { _ in order.append(number) } }))
                } else if !live.isEmpty {
                    let before = source.storageUsage.allocatedPages
                    live.remove(at: Int.random(in: 0..<live.count, using: &generator)).handle.cancel()
                    if source.storageUsage.allocatedPages < before, !live.isEmpty { freedWhileLive = true }
                }
                let needed = Set(live.map { page(of: Int($0.handle.id.slot)) } + [0])
                let usage = source.storageUsage
                #expect(
                    usage.allocatedPages <= needed.count + 1, "\(usage), live in pages \(needed.sorted()); seed \(seed)"
                )
            }
            #expect(source.storageInvariantViolation() == nil, "seed \(seed)")
            let delivered = order.values.count
            time.advance(by: .nanoseconds(interval))
            #expect(Array(order.values.dropFirst(delivered)) == live.map(\.number), "subscription order; seed \(seed)")
        }
        #expect(freedWhileLive, "pages were freed while subscribers remained; seed \(seed)")
        live.forEach { $0.handle.cancel() }
        #expect(source.storageUsage.pages == 0, "seed \(seed)")
    }

    /// The byte count FrameTicks.md quotes for a page's entry in the page list.
    @Test func aPageEntryIsTwentyFourBytes() {
        #expect(MemoryLayout<SlotStore<FrameRecord>.Page>.stride == 24)
    }
}
