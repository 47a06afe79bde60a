import Foundation
import TimerKit

/// The kind of ticker a slot always holds, so that the mix stays the same however the churn goes.
enum Band: String, CaseIterable, Codable, Sendable {
    /// Repeating or counted, every 1–5 ms.
    case fast
    /// Repeating, counted or countdown, every 10–100 ms.
    case medium
    /// Repeating or counted, every 0.5–1.5 s: most of the population.
    case slow
    /// One-shots due in 50 ms – 3 s, left to finish (then refilled).
    case oneShot
    /// `for await` over `Ticker.ticks`, every 100 ms – 1 s, in a task of its own.
    case async

    /// How many of `tickers` slots hold this band: about 0.04 % fast, 1 % medium, 3 % async, 15 %
    /// one-shots, the rest slow (about 16,500 handler calls/s at 10,000 slots with the default churn).
    static func counts(tickers: Int) -> [(Band, Int)] {
        let fast = max(1, tickers / 2_500)
        let medium = tickers / 100
        let async = tickers * 3 / 100
        let oneShot = tickers * 15 / 100
        return [(.fast, fast), (.medium, medium), (.async, async), (.oneShot, oneShot)]
            + [(.slow, tickers - fast - medium - async - oneShot)]
    }

    /// A schedule of this band (the async band's is built by the consumer).
    func schedule(using random: inout SplitMix) -> TickSchedule {
        func between(_ low: Double, _ high: Double) -> Duration {
            // Log-uniform: as many tickers at 100–200 ms as at 500 ms – 1 s.
            .nanoseconds(Int64(exp(Double.random(in: log(low)...log(high), using: &random)) * 1e9))
        }
        let roll = Int.random(in: 0..<100, using: &random)
        switch self {
        case .fast:
            let interval = between(0.001, 0.005)
            return roll < 70 ? .every(interval) : .every(interval, count: Int.random(in: 100...1_000, using: &random))
        case .medium:
            let interval = between(0.010, 0.100)
            let tolerance = roll % 2 == 0 ? interval / 10 : .zero
            if roll < 60 { return .every(interval, tolerance: tolerance) }
            if roll < 85 {
                return .every(interval, tolerance: tolerance, count: Int.random(in: 10...200, using: &random))
            }
            return .countdown(from: Int.random(in: 5...50, using: &random), every: interval)
        case .slow, .async:
            let interval = between(self == .slow ? 0.5 : 0.1, self == .slow ? 1.5 : 1.0)
            let tolerance = [Duration.zero, interval / 20, interval / 10, interval / 2][roll % 4]
            let count = roll < 85 ? nil : Int.random(in: 2...10, using: &random)
            return .every(interval, tolerance: tolerance, count: count)
        case .oneShot:
            let delay = between(0.050, 3)
            return .after(delay, tolerance: roll < 50 ? .zero : delay / 10)
        }
    }
}

/// The population: slots split into stripes (one per churn thread), each slot holding one owner-bound,
/// target–action or handle-owned ticker, or one async consumer. It creates the tickers and is what their
/// handlers call into.
final class Population: Sendable {
    let tally: Tally
    let lanes: Lanes
    let stripes: [Stripe]
    private let bands: [Band]
    private let seed: UInt64

    /// Handler calls out of 10,000 that misbehave (cancel their ticker, schedule another, release their
    /// owner or handle, or leave their `for await` loop).
    static let misbehaviourPerTenThousand: UInt64 = 20

    init(tickers: Int, stripes count: Int, seed: UInt64, lanes: Lanes, tally: Tally) {
        self.tally = tally
        self.lanes = lanes
        self.seed = seed
        // Bands interleaved over the slots, so that every stripe gets its share of each.
        var bands = Band.counts(tickers: tickers).flatMap { Array(repeating: $0.0, count: $0.1) }
        var random = SplitMix(seed: seed)
        bands.shuffle(using: &random)
        self.bands = bands
        stripes = (0..<count).map { Stripe(first: $0, width: count, slots: tickers) }
    }

    func stripe(of slot: Int) -> Stripe { stripes[slot % stripes.count] }

    // MARK: Creating

    /// Puts a new ticker (or consumer) in `slot`, dropping what was there.
    func create(slot: Int, using random: inout SplitMix) {
        let stripe = stripe(of: slot)
        let tag = stripe.reserve(slot)
        let entry: Entry
        var idle: Ticker?
        if bands[slot] == .async {
            entry = makeConsumer(tag, using: &random)
        } else {
            let lane = lanes.contexts[Int.random(in: 0..<lanes.contexts.count, using: &random)]
            (entry, idle) = makeTicker(tag, band: bands[slot], lane: lane, using: &random)
        }
        let dropped = stripe.install(entry, as: tag)
        dropped.cancelTask()
        idle?.start()
    }

    /// An owner-bound (40 %), target–action (20 %) or handle-owned (40 %) ticker. A bound one's handle
    /// is dropped, kept by the slot or kept by its owner (a third each); one in twenty tickers with a
    /// kept handle is created idle and returned to be started once installed.
    private func makeTicker(
        _ tag: SlotTag, band: Band, lane: Lane, using random: inout SplitMix
    ) -> (Entry, idle: Ticker?) {
        let schedule = band.schedule(using: &random)
        let context = lane.context!
        let binding = Int.random(in: 0..<100, using: &random)
        let keep = Int.random(in: 0..<3, using: &random)
        let starts = Int.random(in: 0..<20, using: &random) != 0 || (binding < 60 && keep == 0)
        guard binding < 60 else {
            let capture = Capture(tag: tag, lane: lane, population: self)
            let ticker = Ticker.schedule(schedule, on: context, startsImmediately: starts) { tick in
                capture.population.delivered(tick, tag: capture.tag, lane: capture.lane, anchor: capture)
            }
            return (.handle(ticker), starts ? nil : ticker)
        }
        let owner = SoakOwner(tag: tag, lane: lane, population: self)
        let ticker: Ticker
        if binding < 40 {
            let capture = Capture(tag: tag, lane: lane, population: self)
            ticker = Ticker.schedule(schedule, on: context, owner: owner, startsImmediately: starts) { owner, tick in
                capture.population.delivered(tick, tag: capture.tag, lane: capture.lane, anchor: owner)
            }
        } else if schedule.count == nil, binding % 2 == 0 {
            // Owner-bound calls of the owner's methods (target–action is main-actor only). The argument-less
            // method never sees `isLast`, so it only gets schedules that do not end.
            ticker = Ticker.schedule(schedule, on: context, owner: owner, startsImmediately: starts) { owner, _ in
                owner.refresh()
            }
        } else {
            ticker = Ticker.schedule(schedule, on: context, owner: owner, startsImmediately: starts) { owner, tick in
                owner.tick(tick)
            }
        }
        if keep == 2 { owner.keptHandle = ticker }
        return (.bound(owner, handle: keep == 1 ? ticker : nil), starts ? nil : ticker)
    }

    /// A task that consumes `Ticker.ticks` with `for await`; three in ten use the `owner:` form, whose
    /// owner the slot keeps.
    private func makeConsumer(_ tag: SlotTag, using random: inout SplitMix) -> Entry {
        let lane = lanes.async
        let schedule = Band.async.schedule(using: &random)
        let capture = Capture(tag: tag, lane: lane, population: self)
        let owner = Int.random(in: 0..<10, using: &random) < 3 ? SoakOwner(tag: tag, lane: lane, population: self) : nil
        let ticks = owner.map { Ticker.ticks(schedule, owner: $0) } ?? Ticker.ticks(schedule)
        tally.update { $0.tasks += 1 }
        let task = Task.detached {
            for await tick in ticks {
                guard capture.population.consumed(tick.index, isLast: tick.isLast, capture: capture) else { break }
            }
            capture.population.finished(capture.tag)
            capture.population.tally.update { $0.tasks -= 1 }
        }
        return .task(task, owner: owner)
    }

    // MARK: Handlers

    /// A handler call: a little work, counted; the slot refilled when the ticker ends; and, now and then,
    /// a misbehaviour. `anchor` is the owner (or, for a handle-owned ticker, the handler's capture).
    func delivered(_ tick: Tick?, tag: SlotTag, lane: Lane, anchor: AnyObject) {
        let work = Self.work(tag.serial ^ UInt64(tick?.index ?? 0))
        (anchor as? SoakOwner)?.absorb(work)
        tally.fired(lane: lane.index, work: work)
        if tick?.isLast == true { stripe(of: tag.slot).finished(tag) }
        guard let tick, !tick.isManual else { return }
        let roll = SplitMix.mix(seed ^ tag.serial &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(tick.index)) % 10_000
        guard roll < Self.misbehaviourPerTenThousand else { return }
        switch roll % 3 {
        case 0 where (anchor as? SoakOwner)?.keptHandle != nil:
            (anchor as? SoakOwner)?.keptHandle?.cancel()
            stripe(of: tag.slot).finished(tag)
            tally.count(.cancelOwn)
        case 1:
            scheduleAnother(on: lane, anchor: anchor, delay: .milliseconds(1 + Int64(roll % 20)))
            tally.count(.scheduleAnother)
        default:
            // Dropped here, inside the handler: a handle-owned ticker is cancelled from its own handler,
            // an owner goes away once the engine lets go of it after this call.
            let released = stripe(of: tag.slot).release(tag)
            tally.count(.releaseOwn)
            withExtendedLifetime(released) {}
        }
    }

    /// Schedules a one-shot bound to `anchor` from inside a handler, without keeping its handle.
    private func scheduleAnother(on lane: Lane, anchor: AnyObject, delay: Duration) {
        let capture = Capture(tag: SlotTag(slot: -1, serial: 0), lane: lane, population: self)
        Ticker.schedule(.after(delay), on: lane.context!, owner: anchor) { _, tick in
            capture.population.tally.fired(lane: capture.lane.index, work: Self.work(UInt64(tick.index)))
        }
    }

    /// An async consumer's element: counted; `false` to leave the loop (a misbehaviour).
    func consumed(_ index: Int, isLast: Bool, capture: Capture) -> Bool {
        tally.fired(lane: capture.lane.index, work: Self.work(capture.tag.serial ^ UInt64(index)))
        let roll = SplitMix.mix(seed ^ capture.tag.serial &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(index)) % 10_000
        guard roll < Self.misbehaviourPerTenThousand else { return true }
        tally.count(.breakLoop)
        return false
    }

    /// Queues `tag`'s slot for a refill (its ticker ended or its consumer returned).
    func finished(_ tag: SlotTag) {
        guard tag.slot >= 0 else { return }
        stripe(of: tag.slot).finished(tag)
    }

    /// The handlers' "little work": a few rounds of mixing.
    static func work(_ value: UInt64) -> UInt64 {
        var state = value
        for _ in 0..<16 { state = SplitMix.mix(state) }
        return state
    }

    // MARK: Whole population

    /// Fills every slot.
    func fill(seed: UInt64) {
        var random = SplitMix(seed: seed)
        for stripe in stripes {
            for slot in stripe.slots { create(slot: slot, using: &random) }
        }
    }

    /// Closes every stripe and drops everything it held: tasks are cancelled, owners and handles released.
    func releaseAll() {
        for stripe in stripes {
            let entries = stripe.close()
            entries.forEach { $0.cancelTask() }
        }
    }

    /// Accepts installs again after `releaseAll()`.
    func reopen() {
        stripes.forEach { $0.reopen() }
    }
}
