import Foundation

@testable import TimerKit

// The reference model of frame subscriptions, and the random programs it is checked against.
//
// A plain simulation of FrameTicks.md and FrameSubscription's table, in whole refreshes of a 60 Hz grid
// whose refresh 0 is the source's creation: arrays and linear scans, no slots, no locks. Every operation
// happens at a refresh instant, or 1 ms after one when a stall ended there. A subscriber made or resumed
// at refresh n has its first frame at the first multiple of its divisor after n; a running subscriber gets
// every multiple of its divisor after that; time spent paused is not counted. A stall (a handler blocking
// the context) lets refreshes pass: the one served afterwards is the latest that passed, each running
// subscriber gets the latest frame of its grid then, and the frames it missed are dropped frames.
// An owner's death is exact for deliveries (nothing is delivered once it is gone) but TimerKit only
// notices it at a refresh, a state read, the handle's release or a few slots per call: the model keeps
// such "doomed" subscribers apart and accepts either answer where that timing shows.

/// How a model subscription is bound, and who keeps what.
enum FrameModelBinding: String, CaseIterable, Hashable, Sendable {
    /// Handle-owned; the test keeps the handle.
    case handle
    /// Owner-bound; the test keeps the handle and the owner.
    case owner
    /// Owner-bound; the handle is dropped at once, the test keeps the owner.
    case ownerOnly
    /// Owner-bound; the owner keeps the handle, the test keeps the owner.
    case ownerHoldsHandle

    var isBound: Bool { self != .handle }
    /// Whether the test holds the handle (and may call it).
    var testHoldsHandle: Bool { self == .handle || self == .owner }
}

/// One step of a frame program. Subscriptions are numbered in creation order; a step about a number not
/// made yet does nothing (so that deleting steps while shrinking leaves a valid program).
enum FrameModelOperation: Hashable, Sendable, CustomStringConvertible {
    case subscribe(FrameModelBinding, divisor: Int)
    case pause(Int)
    case resume(Int)
    case cancel(Int)
    case readState(Int)
    case releaseHandle(Int)
    case releaseOwner(Int)
    case advance(refreshes: Int)
    /// A handler on the source's context blocks it from half a refresh from now until 1 ms after the
    /// `refreshes`-th refresh from now: the refreshes in between pass, and the late one is delivered with
    /// the frames missed as dropped ones.
    case stall(refreshes: Int)

    var description: String {
        switch self {
        case let .subscribe(binding, divisor): "subscribe(\(binding), every \(divisor))"
        case .pause(let number): "pause(#\(number))"
        case .resume(let number): "resume(#\(number))"
        case .cancel(let number): "cancel(#\(number))"
        case .readState(let number): "state(#\(number))"
        case .releaseHandle(let number): "releaseHandle(#\(number))"
        case .releaseOwner(let number): "releaseOwner(#\(number))"
        case .advance(let refreshes): "advance(\(refreshes) refreshes)"
        case .stall(let refreshes): "stall(\(refreshes) refreshes)"
        }
    }

    static func random(seed: UInt64, length: Int) -> [FrameModelOperation] {
        var generator = ConcurrencyStressTests.SplitMix64(state: seed)
        var made = 0
        return (0..<length).map { _ in
            let number = Int.random(in: 0..<max(1, made + 1), using: &generator)
            switch Int.random(in: 0..<100, using: &generator) {
            case 0..<16:
                made += 1
                return .subscribe(
                    FrameModelBinding.allCases.randomElement(using: &generator)!,
                    divisor: Int.random(in: 1...3, using: &generator))
            case 16..<28: return .pause(number)
            case 28..<40: return .resume(number)
            case 40..<46: return .cancel(number)
            case 46..<54: return .readState(number)
            case 54..<62: return .releaseHandle(number)
            case 62..<70: return .releaseOwner(number)
            case 70..<75: return .stall(refreshes: Int.random(in: 1...7, using: &generator))
            default: return .advance(refreshes: Int.random(in: 0...4, using: &generator))
            }
        }
    }
}

/// A frame delivery as the model and the run compare them.
struct FrameModelDelivery: Hashable, Sendable, CustomStringConvertible {
    let refresh: Int64
    let index: Int
    let dropped: Int

    var description: String { "r\(refresh)#\(index)" + (dropped > 0 ? "+\(dropped)" : "") }
}

/// The reference model.
struct FrameModel {
    struct Subscription {
        let binding: FrameModelBinding
        let divisor: Int64
        /// The creation instant, in nanoseconds after refresh 0.
        let createdAt: Int64
        /// What a state read returns: running, paused or cancelled (cancelled once the owner is gone).
        var state: TickerState = .running
        /// For a subscriber whose owner died and that TimerKit may not have noticed yet: the state it has
        /// there (`running` or `paused`); `nil` once it is surely gone (or never doomed).
        var doomed: TickerState?
        var ownerAlive: Bool
        var handleAlive = true
        var nextFrame: Int64?
        var index = 0
        var deliveries: [FrameModelDelivery] = []

        /// Surely present in the source (running or paused, owner alive).
        var isLive: Bool { state != .cancelled }
    }

    /// A mistake the meta-test plants in the model, to show that the check catches it.
    enum Mutant { case none, ignoresPause, resumeKeepsGrid }

    var mutant = Mutant.none
    let warnsAboutMistakes: Bool
    /// The current refresh.
    private(set) var now: Int64 = 0
    /// The current instant, in nanoseconds after refresh 0: refresh `now`'s instant, or 1 ms after it
    /// following a stall (until time moves to a later refresh).
    private(set) var nanoseconds: Int64 = 0
    /// How far past its refresh a stall ends.
    static let stallOvershoot: Int64 = 1_000_000
    private(set) var subscriptions: [Subscription] = []
    private(set) var expectedWarnings = 0

    init(warnsAboutMistakes: Bool, mutant: Mutant = .none) {
        self.warnsAboutMistakes = warnsAboutMistakes
        self.mutant = mutant
    }

    /// The instant of refresh `refresh` after refresh 0, in nanoseconds (rounded on its own).
    static func offset(ofRefresh refresh: Int64) -> Int64 { (refresh * 1_000_000_000 + 30) / 60 }

    var liveCount: Int { subscriptions.filter(\.isLive).count }
    var doomedCount: Int { subscriptions.filter { $0.doomed != nil }.count }
    var surelyRunning: Bool { subscriptions.contains { $0.state == .running } }
    var maybeRunning: Bool { surelyRunning || subscriptions.contains { $0.doomed == .running } }

    mutating func apply(_ operation: FrameModelOperation) {
        if case let .subscribe(binding, divisor) = operation {
            subscriptions.append(
                Subscription(
                    binding: binding, divisor: Int64(divisor), createdAt: nanoseconds, ownerAlive: binding.isBound))
            if binding == .ownerOnly { releaseHandle(subscriptions.count - 1) }
            return
        }
        if case .advance(let refreshes) = operation {
            for _ in 0..<refreshes {
                now += 1
                refresh()
            }
            if refreshes > 0 { nanoseconds = Self.offset(ofRefresh: now) }
            return
        }
        if case .stall(let refreshes) = operation {
            // The refreshes in between pass while the context is blocked; the one served when it is free
            // again is the latest that passed.
            now += Int64(refreshes)
            nanoseconds = Self.offset(ofRefresh: now) + Self.stallOvershoot
            refresh()
            return
        }
        guard let number = operation.subscription, number < subscriptions.count else { return }
        switch operation {
        case .pause(let number):
            guard subscriptions[number].binding.testHoldsHandle, subscriptions[number].handleAlive else { return }
            if subscriptions[number].doomed == .running { subscriptions[number].doomed = .paused }
            guard mutant != .ignoresPause, subscriptions[number].state == .running else { return }
            subscriptions[number].state = .paused
        case .resume(let number):
            guard subscriptions[number].binding.testHoldsHandle, subscriptions[number].handleAlive else { return }
            if subscriptions[number].doomed == .paused { subscriptions[number].doomed = .running }
            guard subscriptions[number].state == .paused else { return }
            subscriptions[number].state = .running
            if mutant != .resumeKeepsGrid { subscriptions[number].nextFrame = nil }
        case .cancel(let number):
            guard subscriptions[number].binding.testHoldsHandle, subscriptions[number].handleAlive else { return }
            subscriptions[number].state = .cancelled
            subscriptions[number].doomed = nil
        case .readState(let number):
            guard subscriptions[number].binding.testHoldsHandle, subscriptions[number].handleAlive else { return }
            subscriptions[number].doomed = nil
        case .releaseHandle(let number):
            guard subscriptions[number].binding.testHoldsHandle, subscriptions[number].handleAlive else { return }
            releaseHandle(number)
        case .releaseOwner(let number):
            guard subscriptions[number].binding.isBound, subscriptions[number].ownerAlive else { return }
            subscriptions[number].ownerAlive = false
            if subscriptions[number].binding == .ownerHoldsHandle {
                // The owner's deinit releases its handle, whose release sees the owner gone: stopped now.
                subscriptions[number].handleAlive = false
                subscriptions[number].state = .cancelled
            } else if subscriptions[number].isLive {
                subscriptions[number].doomed = subscriptions[number].state
                subscriptions[number].state = .cancelled
            }
        case .subscribe, .advance, .stall:
            break
        }
    }

    /// Releasing the handle of subscription `number` (the rules of `Lifetime`).
    private mutating func releaseHandle(_ number: Int) {
        subscriptions[number].handleAlive = false
        let subscription = subscriptions[number]
        // A doomed subscriber's handle sees its owner gone: TimerKit removes it now.
        subscriptions[number].doomed = nil
        guard subscription.isLive else { return }
        switch subscription.binding {
        case .handle:
            let age = nanoseconds - subscription.createdAt
            if warnsAboutMistakes, subscription.state == .running, subscription.index == 0,
                age < Lifetime.neverFiresWindowNanoseconds
            {
                expectedWarnings += 1
            }
            subscriptions[number].state = .cancelled
        case .owner, .ownerOnly, .ownerHoldsHandle:
            if subscription.state == .paused { subscriptions[number].state = .cancelled }
        }
    }

    /// Refresh `now`: delivered if the source runs; it sweeps every dead owner first.
    private mutating func refresh() {
        guard maybeRunning else { return }
        for number in subscriptions.indices where subscriptions[number].doomed != nil {
            // A running source refreshes and sweeps everything; a source that may have stopped had its
            // running doomed subscribers swept by the calls that stopped it.
            if surelyRunning || subscriptions[number].doomed == .running { subscriptions[number].doomed = nil }
        }
        for number in subscriptions.indices where subscriptions[number].state == .running {
            let divisor = subscriptions[number].divisor
            let next = subscriptions[number].nextFrame ?? Self.roundedUp(now, divisor)
            guard now >= next else {
                subscriptions[number].nextFrame = next
                continue
            }
            let frame = now - now % divisor
            let dropped = Int((frame - next) / divisor)
            subscriptions[number].index += 1 + dropped
            subscriptions[number].nextFrame = frame + divisor
            subscriptions[number].deliveries.append(
                FrameModelDelivery(refresh: frame, index: subscriptions[number].index, dropped: dropped))
        }
    }

    private static func roundedUp(_ value: Int64, _ divisor: Int64) -> Int64 {
        value % divisor == 0 ? value : value - value % divisor + divisor
    }
}

extension FrameModelOperation {
    /// `program` without the steps in `range`: the steps about a subscription made there go too, and
    /// later subscriptions are renumbered (for shrinking).
    static func removing(_ range: Range<Int>, from program: [FrameModelOperation]) -> [FrameModelOperation] {
        var made = 0
        var renumbered: [Int: Int] = [:]
        var kept = 0
        var result: [FrameModelOperation] = []
        for (position, operation) in program.enumerated() {
            if case .subscribe = operation {
                if !range.contains(position) {
                    renumbered[made] = kept
                    kept += 1
                    result.append(operation)
                }
                made += 1
                continue
            }
            guard !range.contains(position) else { continue }
            guard let number = operation.subscription else {
                result.append(operation)
                continue
            }
            // A step about a subscription not made yet does nothing: keep it pointing past the made ones.
            let target = number < made ? renumbered[number] : kept + (number - made)
            if let target { result.append(operation.renumbered(target)) }
        }
        return result
    }

    /// The same step about subscription `number`.
    func renumbered(_ number: Int) -> FrameModelOperation {
        switch self {
        case .pause: .pause(number)
        case .resume: .resume(number)
        case .cancel: .cancel(number)
        case .readState: .readState(number)
        case .releaseHandle: .releaseHandle(number)
        case .releaseOwner: .releaseOwner(number)
        case .subscribe, .advance, .stall: self
        }
    }

    /// The subscription the step is about (`nil` for subscribe and advance).
    var subscription: Int? {
        switch self {
        case .pause(let number), .resume(let number), .cancel(let number), .readState(let number),
            .releaseHandle(let number), .releaseOwner(let number):
            number
        case .subscribe, .advance, .stall: nil
        }
    }
}
