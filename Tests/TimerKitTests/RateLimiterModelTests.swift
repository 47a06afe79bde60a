import Foundation
import Testing
import TimerKitTestSupport

@testable import TimerKit

/// Seeded, model-based random testing of debouncers and throttlers: random programs of make (every edge,
/// intervals 0–20 ms, with and without maxWait; handle-owned or owner-bound) / send / flush / discard /
/// cancel / release handle / release owner / advance, run under virtual time on one context and checked
/// after every step against `RateLimiterModel` (Support/RateLimiterModel.swift): every delivered value and
/// the millisecond it came at, and how many sent values each rate limiter still holds.
///
/// A disagreement names the program's seed and the shortest program found that still fails, with the
/// command that replays it:
///
///     TIMERKIT_RATE_LIMITER_MODEL_PROGRAM=<seed> swift test --filter RateLimiterModelTests
///
/// `TIMERKIT_RATE_LIMITER_MODEL_PROGRAMS` and `TIMERKIT_RATE_LIMITER_MODEL_SEED` run more (or other) programs.
@Suite struct RateLimiterModelTests {
    init() { LogCapture.install() }

    @Test func randomProgramsAgreeWithTheModel() throws {
        let covered = try RateLimiterModelRun.checkRandomPrograms().get()
        if RateLimiterModelRun.settings.program == nil {
            let wanted: Set<String> = [
                "debounce-delivered", "throttle-delivered", "maxWait-delivered", "flushed", "discarded",
                "cancelled", "handle-released", "owner-released", "delivered-after-handle-release",
            ]
            #expect(wanted.isSubset(of: covered), "not exercised: \(wanted.subtracting(covered).sorted())")
        }
    }

    /// The check can fail, and the failure shrinks to the few steps that show it: a model that forgets
    /// maxWait, or a throttle's trailing edge, disagrees with TimerKit.
    @Test
    func aModelMutantIsCaughtAndShrunk() throws {
        for mutant in [RateLimiterModel.Mutant.ignoresMaxWait, .throttleForgetsTrailing] {
            try Self().aModelMutantIsCaughtAndShrunk(mutant)
        }
    }

    func aModelMutantIsCaughtAndShrunk(_ mutant: RateLimiterModel.Mutant) throws {
        let shrunk = try #require(RateLimiterModelRun.shrunkFailure(with: mutant), "mutant \(mutant)")
        #expect(shrunk.operations.count <= 6, "\(shrunk.operations) \(shrunk.failure); mutant \(mutant)")
        #expect(
            RateLimiterModelRun.check(shrunk.operations) == nil,
            "TimerKit itself agrees with the model; mutant \(mutant)")
    }
}

/// Runs one rate-limiter program under virtual time and checks it against the model after every step.
enum RateLimiterModelRun: ModelChecked {
    static let name = "rate-limiter"
    static let suite = "RateLimiterModelTests"
    static let settings = ModelCheckSettings(
        prefix: "TIMERKIT_RATE_LIMITER_MODEL", programs: 80, length: 150, seed: 0x4A7E_11E1_7E45_0001)

    static func random(seed: UInt64, length: Int) -> [RateLimiterModelOperation] {
        RateLimiterModelOperation.random(seed: seed, length: length)
    }

    static func removing(_ program: [RateLimiterModelOperation], _ range: Range<Int>) -> [RateLimiterModelOperation] {
        RateLimiterModelOperation.removing(range, from: program)
    }

    /// A sent value: counts the values a rate limiter still holds.
    final class Value: Sendable {
        let number: Int
        let tracker: LifetimeTracker

        init(_ number: Int, tracker: LifetimeTracker) {
            self.number = number
            self.tracker = tracker
            tracker.instanceMade()
        }

        deinit { tracker.instanceGone() }
    }

    /// An owner; with `.ownerHoldsIt` it keeps the rate limiter.
    final class Owner: Sendable {
        let limiter = ContractBox<Limiter>()
    }

    /// A debouncer or a throttler, as the program drives it.
    enum Limiter: Sendable {
        case debouncer(Debouncer<Value>)
        case throttler(Throttler<Value>)

        func send(_ value: Value) {
            switch self {
            case .debouncer(let debouncer): debouncer.send(value)
            case .throttler(let throttler): throttler.send(value)
            }
        }

        func flush() {
            if case .debouncer(let debouncer) = self { debouncer.flush() }
        }

        func discardPending() {
            switch self {
            case .debouncer(let debouncer): debouncer.discardPending()
            case .throttler(let throttler): throttler.discardPending()
            }
        }

        func cancel() {
            switch self {
            case .debouncer(let debouncer): debouncer.cancel()
            case .throttler(let throttler): throttler.cancel()
            }
        }
    }

    static let context = TickerContext.dispatch(DispatchQueue(label: "TimerKitTests.rate-model"))

    static func check(
        _ program: [RateLimiterModelOperation], mutant: RateLimiterModel.Mutant?, covered: inout Set<String>
    ) -> ModelFailure? {
        let time = VirtualTime()
        let start = time.now.nanoseconds
        var model = RateLimiterModel(mutant: mutant ?? .none)
        var handles: [Limiter?] = []
        var owners: [Owner?] = []
        var trackers: [LifetimeTracker] = []
        var recorders: [Recorder<RateLimiterModelDelivery>] = []
        defer {
            handles.forEach { $0?.cancel() }
            owners.forEach { $0?.limiter.value?.cancel() }
        }
        func reachable(_ number: Int) -> Limiter? { handles[number] ?? owners[number]?.limiter.value }
        for (step, operation) in program.enumerated() {
            let number = operation.limiter.flatMap { $0 < handles.count ? $0 : nil }
            switch operation {
            case let .make(kind, binding):
                let recorder = Recorder<RateLimiterModelDelivery>()
                let deliver: @Sendable (Value) -> Void = { value in
                    let millisecond = Int((time.now.nanoseconds - start) / 1_000_000)
                    recorder.append(RateLimiterModelDelivery(value: value.number, millisecond: millisecond))
                }
                let owner = binding == .handle ? nil : Owner()
                let limiter = time.run { make(kind, owner: owner, deliver) }
                if binding == .ownerHoldsIt {
                    owner!.limiter.set(limiter)
                    handles.append(nil)
                } else {
                    handles.append(limiter)
                }
                owners.append(owner)
                trackers.append(LifetimeTracker())
                recorders.append(recorder)
            case .send:
                if let number, let limiter = reachable(number) {
                    limiter.send(Value(model.valueCount, tracker: trackers[number]))
                }
            case .flush:
                if let number, let limiter = reachable(number) {
                    covered.insert("flushed")
                    limiter.flush()
                }
            case .discardPending:
                if let number, let limiter = reachable(number) {
                    covered.insert("discarded")
                    limiter.discardPending()
                }
            case .cancel:
                if let number, let limiter = reachable(number) {
                    covered.insert("cancelled")
                    limiter.cancel()
                }
            case .releaseHandle:
                if let number, handles[number] != nil {
                    covered.insert("handle-released")
                    handles[number] = nil
                }
            case .releaseOwner:
                if let number, owners[number] != nil {
                    covered.insert("owner-released")
                    owners[number] = nil
                }
            case .advance(let milliseconds):
                time.advance(by: .milliseconds(milliseconds))
            }
            model.apply(operation)
            if let failure = compare(model, recorders: recorders, trackers: trackers, step: step, covered: &covered) {
                return failure
            }
        }
        return nil
    }

    private static func make(
        _ kind: RateLimiterModelKind, owner: Owner?, _ deliver: @escaping @Sendable (Value) -> Void
    ) -> Limiter {
        switch (kind, owner) {
        case let (.debounce(edges, interval, maxWait), owner?):
            .debouncer(
                Debouncer(
                    interval: .milliseconds(interval), edges: edges, maxWait: maxWait.map { .milliseconds($0) },
                    on: context, owner: owner
                ) { _, value in deliver(value) })
        case let (.debounce(edges, interval, maxWait), nil):
            .debouncer(
                Debouncer(
                    interval: .milliseconds(interval), edges: edges, maxWait: maxWait.map { .milliseconds($0) },
                    on: context, deliver))
        case let (.throttle(edges, interval), owner?):
            .throttler(
                Throttler(interval: .milliseconds(interval), edges: edges, on: context, owner: owner) { _, value in
                    deliver(value)
                })
        case let (.throttle(edges, interval), nil):
            .throttler(Throttler(interval: .milliseconds(interval), edges: edges, on: context, deliver))
        }
    }

    private static func compare(
        _ model: RateLimiterModel, recorders: [Recorder<RateLimiterModelDelivery>], trackers: [LifetimeTracker],
        step: Int, covered: inout Set<String>
    ) -> ModelFailure? {
        for (number, limiter) in model.limiters.enumerated() {
            let delivered = recorders[number].values
            if delivered != limiter.deliveries {
                return ModelFailure(
                    step: step,
                    message: "#\(number) \(limiter.kind) delivered \(delivered), the model says "
                        + "\(limiter.deliveries)")
            }
            let held = trackers[number].live
            let expected = limiter.releasesLate ? 0...limiter.held : limiter.held...limiter.held
            if !expected.contains(held) {
                return ModelFailure(
                    step: step, message: "#\(number) \(limiter.kind) holds \(held) values, the model says \(expected)")
            }
            guard !delivered.isEmpty else { continue }
            switch limiter.kind {
            case .debounce: covered.insert("debounce-delivered")
            case .throttle: covered.insert("throttle-delivered")
            }
            if limiter.maxWaitDeliveries > 0 { covered.insert("maxWait-delivered") }
            if limiter.deliveriesWithoutHandle > 0 { covered.insert("delivered-after-handle-release") }
        }
        return nil
    }
}
