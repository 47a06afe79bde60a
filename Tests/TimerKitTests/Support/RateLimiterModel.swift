import Foundation

@testable import TimerKit

// The reference model of debouncers and throttlers, and the random programs it is checked against.
//
// A plain event simulation of the rules in RateLimiting.md and the types' summaries, in whole
// milliseconds from the program's start, written apart from DebounceMachine and ThrottleMachine: each
// rate limiter has a few deadlines (a burst's quiet end and its maxWait, or a throttle window's end), and
// time moves from one to the next. A value decided at an instant is delivered at that instant, once
// virtual time is advanced (a value decided by a call is still undelivered until then, so a cancel in
// between drops it). An owner's death is exact for deliveries; when the dropped values are let go is
// not, so the model gives a bound for those.

/// What a model rate limiter is.
enum RateLimiterModelKind: Hashable, Sendable, CustomStringConvertible {
    case debounce(RateLimitEdges, interval: Int, maxWait: Int?)
    case throttle(RateLimitEdges, interval: Int)

    var interval: Int {
        switch self {
        case .debounce(_, let interval, _), .throttle(_, let interval): interval
        }
    }

    var description: String {
        switch self {
        case let .debounce(edges, interval, maxWait):
            "debounce(\(edges), \(interval)ms" + (maxWait.map { ", maxWait \($0)ms" } ?? "") + ")"
        case let .throttle(edges, interval): "throttle(\(edges), \(interval)ms)"
        }
    }
}

/// Who keeps what.
enum RateLimiterModelBinding: String, CaseIterable, Hashable, Sendable {
    /// Handle-owned; the test keeps the rate limiter.
    case handle
    /// Owner-bound; the test keeps the rate limiter and the owner.
    case owner
    /// Owner-bound; the owner keeps the rate limiter, the test keeps the owner (and sends through it).
    case ownerHoldsIt
}

/// One step of a rate-limiter program; rate limiters are numbered in creation order, and a step about
/// one not made (or no longer reachable) does nothing.
enum RateLimiterModelOperation: Hashable, Sendable, CustomStringConvertible {
    case make(RateLimiterModelKind, RateLimiterModelBinding)
    case send(Int)
    case flush(Int)
    case discardPending(Int)
    case cancel(Int)
    case releaseHandle(Int)
    case releaseOwner(Int)
    case advance(milliseconds: Int)

    var limiter: Int? {
        switch self {
        case .send(let number), .flush(let number), .discardPending(let number), .cancel(let number),
            .releaseHandle(let number), .releaseOwner(let number):
            number
        case .make, .advance: nil
        }
    }

    func renumbered(_ number: Int) -> RateLimiterModelOperation {
        switch self {
        case .send: .send(number)
        case .flush: .flush(number)
        case .discardPending: .discardPending(number)
        case .cancel: .cancel(number)
        case .releaseHandle: .releaseHandle(number)
        case .releaseOwner: .releaseOwner(number)
        case .make, .advance: self
        }
    }

    var description: String {
        switch self {
        case let .make(kind, binding): "make(\(kind), \(binding))"
        case .send(let number): "send(#\(number))"
        case .flush(let number): "flush(#\(number))"
        case .discardPending(let number): "discardPending(#\(number))"
        case .cancel(let number): "cancel(#\(number))"
        case .releaseHandle(let number): "releaseHandle(#\(number))"
        case .releaseOwner(let number): "releaseOwner(#\(number))"
        case .advance(let milliseconds): "advance(\(milliseconds)ms)"
        }
    }

    static func random(seed: UInt64, length: Int) -> [RateLimiterModelOperation] {
        var generator = ConcurrencyStressTests.SplitMix64(state: seed)
        var made = 0
        return (0..<length).map { position in
            let number = Int.random(in: 0..<max(1, made), using: &generator)
            let roll = Int.random(in: 0..<100, using: &generator)
            if position == 0 || roll < 6 {
                made += 1
                let edges = RateLimitEdges.allCases.randomElement(using: &generator)!
                let interval = [0, 5, 10, 20].randomElement(using: &generator)!
                let kind: RateLimiterModelKind =
                    Bool.random(using: &generator)
                    ? .debounce(
                        edges, interval: interval,
                        maxWait: [nil, interval, interval + 5, 2 * interval + 10].randomElement(using: &generator)!)
                    : .throttle(edges, interval: interval)
                return .make(kind, RateLimiterModelBinding.allCases.randomElement(using: &generator)!)
            }
            switch roll {
            case 6..<46: return .send(number)
            case 46..<50: return .flush(number)
            case 50..<54: return .discardPending(number)
            case 54..<57: return .cancel(number)
            case 57..<60: return .releaseHandle(number)
            case 60..<63: return .releaseOwner(number)
            default: return .advance(milliseconds: [0, 1, 2, 3, 5, 8, 13].randomElement(using: &generator)!)
            }
        }
    }

    /// `program` without the steps in `range`; steps about a rate limiter made there go too, later ones
    /// are renumbered (for shrinking).
    static func removing(_ range: Range<Int>, from program: [RateLimiterModelOperation]) -> [RateLimiterModelOperation]
    {
        var made = 0
        var renumbered: [Int: Int] = [:]
        var result: [RateLimiterModelOperation] = []
        for (position, operation) in program.enumerated() {
            if case .make = operation {
                if !range.contains(position) {
                    renumbered[made] = renumbered.count
                    result.append(operation)
                }
                made += 1
            } else if !range.contains(position) {
                if let number = operation.limiter {
                    if let target = renumbered[number] { result.append(operation.renumbered(target)) }
                } else {
                    result.append(operation)
                }
            }
        }
        return result
    }
}

/// A delivered value and the millisecond it was delivered at.
struct RateLimiterModelDelivery: Hashable, Sendable, CustomStringConvertible {
    let value: Int
    let millisecond: Int

    var description: String { "v\(value)@\(millisecond)" }
}

/// The reference model.
struct RateLimiterModel {
    /// A mistake the meta-test plants in the model, to show that the check catches it.
    enum Mutant { case none, ignoresMaxWait, throttleForgetsTrailing }

    struct Limiter {
        let kind: RateLimiterModelKind
        let binding: RateLimiterModelBinding
        var handleAlive = true
        var ownerAlive: Bool
        /// Stopped for good (cancelled, released handle-owned, or the owner went away).
        var stopped = false
        /// Whether values it drops may still be held for a while (its owner died while the test kept it).
        var releasesLate = false
        var pending: Int?
        /// Decided, not yet delivered (delivered at the next advance, at the instant decided).
        var ready: [(value: Int, at: Int)] = []
        // Debounce
        var inBurst = false
        var lastSend = 0
        var maxWaitFrom = 0
        // Throttle
        var windowEnd: Int?
        var deliveries: [RateLimiterModelDelivery] = []
        /// For coverage: deliveries forced by maxWait, and deliveries after the handle was released.
        var maxWaitDeliveries = 0
        var deliveriesWithoutHandle = 0

        /// Values the rate limiter holds (pending or decided).
        var held: Int { (pending == nil ? 0 : 1) + ready.count }

        /// Whether the test can still call it.
        var reachable: Bool { handleAlive && (binding != .ownerHoldsIt || ownerAlive) }
    }

    let mutant: Mutant
    private(set) var now = 0
    private(set) var limiters: [Limiter] = []
    private var nextValue = 0

    init(mutant: Mutant = .none) {
        self.mutant = mutant
    }

    mutating func apply(_ operation: RateLimiterModelOperation) {
        switch operation {
        case let .make(kind, binding):
            limiters.append(Limiter(kind: kind, binding: binding, ownerAlive: binding != .handle))
            return
        case .advance(let milliseconds):
            advance(to: now + milliseconds)
            return
        default:
            break
        }
        guard let number = operation.limiter, number < limiters.count else { return }
        if case .releaseOwner = operation {
            guard limiters[number].binding != .handle, limiters[number].ownerAlive else { return }
        } else if case .releaseHandle = operation {
            guard limiters[number].binding != .ownerHoldsIt, limiters[number].handleAlive else { return }
        } else {
            guard limiters[number].reachable else { return }
        }
        switch operation {
        case .send:
            let value = nextValue
            nextValue += 1
            guard !limiters[number].stopped else { return }
            settle(number, at: now)
            receive(number, value)
        case .flush:
            guard case .debounce = limiters[number].kind, !limiters[number].stopped else { return }
            settle(number, at: now)
            if let value = limiters[number].pending.take() {
                limiters[number].ready.append((value, now))
                limiters[number].maxWaitFrom = now
            }
        case .discardPending:
            guard !limiters[number].stopped else { return }
            settle(number, at: now)
            limiters[number].pending = nil
            limiters[number].ready = []
            limiters[number].inBurst = false  // a throttle's window stays open
        case .cancel:
            stop(number)
        case .releaseHandle:
            limiters[number].handleAlive = false
            // Handle-owned, or its owner is gone: stopped, its values let go now.
            if limiters[number].binding == .handle || !limiters[number].ownerAlive {
                limiters[number].releasesLate = false
                stop(number)
            }
        case .releaseOwner:
            limiters[number].ownerAlive = false
            if limiters[number].binding == .ownerHoldsIt || !limiters[number].handleAlive {
                // The rate limiter goes with its owner (or only its pending ticker held it): stopped, its
                // values let go now or at the pending wake-up.
                limiters[number].releasesLate = limiters[number].binding != .ownerHoldsIt
                limiters[number].handleAlive = false
            } else {
                limiters[number].releasesLate = true
            }
            stopDelivering(number)
        case .make, .advance:
            break
        }
    }

    /// The number the next sent value gets (the run numbers its values the same way).
    var valueCount: Int { nextValue }

    private mutating func stop(_ number: Int) {
        limiters[number].stopped = true
        limiters[number].pending = nil
        limiters[number].ready = []
    }

    private mutating func stopDelivering(_ number: Int) {
        limiters[number].stopped = true
        if !limiters[number].releasesLate {
            limiters[number].pending = nil
            limiters[number].ready = []
        }
    }

    // MARK: Time

    private mutating func advance(to end: Int) {
        for number in limiters.indices { deliverReady(number) }
        while let (number, instant) = nextDeadline(before: end) {
            now = instant
            settle(number, at: instant)
            deliverReady(number)
        }
        now = end
    }

    private mutating func deliverReady(_ number: Int) {
        guard !limiters[number].stopped else { return }
        for (value, at) in limiters[number].ready {
            limiters[number].deliveries.append(RateLimiterModelDelivery(value: value, millisecond: at))
            if !limiters[number].handleAlive { limiters[number].deliveriesWithoutHandle += 1 }
        }
        limiters[number].ready = []
    }

    /// The earliest deadline at or before `end` of any rate limiter that may deliver, in creation order for
    /// ties.
    private func nextDeadline(before end: Int) -> (Int, Int)? {
        var best: (Int, Int)?
        for number in limiters.indices where !limiters[number].stopped {
            guard let deadline = deadline(number), deadline <= end else { continue }
            if best == nil || deadline < best!.1 { best = (number, deadline) }
        }
        return best
    }

    /// The next instant limiter `number` decides something (only instants with a pending value matter).
    private func deadline(_ number: Int) -> Int? {
        let limiter = limiters[number]
        guard limiter.pending != nil else { return nil }
        switch limiter.kind {
        case let .debounce(_, interval, maxWait):
            guard limiter.inBurst else { return nil }
            let quietEnd = limiter.lastSend + interval
            guard let maxWait, mutant != .ignoresMaxWait else { return quietEnd }
            return min(quietEnd, limiter.maxWaitFrom + maxWait)
        case .throttle:
            return limiter.windowEnd
        }
    }

    /// Decides everything due at or before `instant` (deadlines in order).
    private mutating func settle(_ number: Int, at instant: Int) {
        switch limiters[number].kind {
        case let .debounce(edges, interval, maxWait):
            guard limiters[number].inBurst else { return }
            let quietEnd = limiters[number].lastSend + interval
            if mutant != .ignoresMaxWait, let maxWait, limiters[number].pending != nil {
                let due = limiters[number].maxWaitFrom + maxWait
                if due <= instant, due <= quietEnd {
                    limiters[number].ready.append((limiters[number].pending.take()!, due))
                    limiters[number].maxWaitFrom = due
                    limiters[number].maxWaitDeliveries += 1
                }
            }
            if quietEnd <= instant {
                if let value = limiters[number].pending.take(), edges.includesTrailing {
                    limiters[number].ready.append((value, quietEnd))
                }
                limiters[number].inBurst = false
            }
        case let .throttle(_, interval):
            while let end = limiters[number].windowEnd, end <= instant {
                if let value = limiters[number].pending.take() {
                    limiters[number].ready.append((value, end))
                    limiters[number].windowEnd = end + interval
                } else {
                    limiters[number].windowEnd = nil
                }
            }
        }
    }

    private mutating func receive(_ number: Int, _ value: Int) {
        switch limiters[number].kind {
        case let .debounce(edges, _, _):
            if limiters[number].inBurst {
                limiters[number].pending = value
            } else {
                limiters[number].inBurst = true
                limiters[number].maxWaitFrom = now
                if edges.includesLeading {
                    limiters[number].ready.append((value, now))
                } else {
                    limiters[number].pending = value
                }
            }
            limiters[number].lastSend = now
        case let .throttle(edges, interval):
            if limiters[number].windowEnd == nil {
                limiters[number].windowEnd = now + interval
                if edges.includesLeading {
                    limiters[number].ready.append((value, now))
                } else {
                    limiters[number].pending = value
                }
            } else if edges.includesTrailing, mutant != .throttleForgetsTrailing {
                limiters[number].pending = value
            }
            // With a zero interval the window has already ended.
            settle(number, at: now)
        }
    }
}
