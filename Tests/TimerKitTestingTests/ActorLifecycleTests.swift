import Foundation
import Testing
import TimerKit
import TimerKitTesting

// The lifecycle of an actor-bound ticker, checked against an owner-bound ticker on a dispatch context,
// whose lifecycle the reference model checks (LifecycleModelTests): random programs of lifecycle calls
// and async advances apply to both, and every delivery (index, skipped, manual, fire count) and every
// state must match. An actor that is never busy is the case where the two must agree exactly.

/// Records an actor-bound ticker's deliveries in its own state.
private actor Recorder {
    var deliveries: [String] = []
    func record(_ tick: Tick) { deliveries.append(ActorLifecycleTests.describe(tick)) }
}

/// Records the reference ticker's deliveries.
private final class ReferenceOwner: Sendable {
    let deliveries = Log()
}

@Suite struct ActorLifecycleTests {
    /// One step of a random program.
    enum Step: CaseIterable {
        case advance, start, pause, resume, restart, fire, cancel
    }

    static func describe(_ tick: Tick) -> String {
        "#\(tick.index) skipped \(tick.skipped)\(tick.isManual ? " manual" : "") call \(tick.fireCount)"
    }

    /// Programs of this many steps, this many of them (different seeds each run of the suite would make a
    /// failure unrepeatable: the seeds are fixed).
    static let programs = 200
    static let steps = 30

    @Test func anActorBoundTickerFollowsTheLifecycleOfAnyOwnerBoundTicker() async {
        for seed in 0..<UInt64(Self.programs) {
            await Self.check(seed: seed)
        }
    }

    private static func check(seed: UInt64) async {
        var random = ProgramGenerator(seed: seed)
        let time = VirtualTime()
        let recorder = Recorder()
        let reference = ReferenceOwner()
        let queue = DispatchQueue(label: "ActorLifecycleTests.\(seed)")
        let interval = Duration.milliseconds(Int(100 + random.next(below: 4) * 100))
        let count: Int? = random.next(below: 3) == 0 ? Int(1 + random.next(below: 6)) : nil
        let schedule = TickSchedule.every(interval, count: count)
        let idle = random.next(below: 4) == 0
        let (bound, plain) = time.run {
            (
                Ticker.schedule(schedule, owner: recorder, startsImmediately: !idle) { recorder, tick in
                    recorder.record(tick)
                },
                Ticker.schedule(schedule, on: .dispatch(queue), owner: reference, startsImmediately: !idle) {
                    reference, tick in reference.deliveries.append(describe(tick))
                }
            )
        }
        var program: [String] = []
        for _ in 0..<Self.steps {
            let step = Step.allCases[Int(random.next(below: UInt64(Step.allCases.count)))]
            // Cancelling ends the program's interest: make it rare.
            if step == .cancel, random.next(below: 4) != 0 { continue }
            program.append("\(step)")
            for ticker in [bound, plain] {
                switch step {
                case .advance: break
                case .start: ticker.start()
                case .pause: ticker.pause()
                case .resume: ticker.resume()
                case .restart: ticker.restart()
                case .fire: ticker.fire()
                case .cancel: ticker.cancel()
                }
            }
            let by = Duration.milliseconds(Int(random.next(below: 6) * 50))
            program.append("advance \(by)")
            await time.advance(by: by)
            let boundDeliveries = await recorder.deliveries
            #expect(
                boundDeliveries == reference.deliveries.all,
                "seed \(seed), \(schedule), idle \(idle): after \(program.joined(separator: ", "))")
            #expect(bound.state == plain.state, "seed \(seed): states after \(program.joined(separator: ", "))")
            #expect(bound.fireCount == plain.fireCount, "seed \(seed): fire counts")
            guard boundDeliveries == reference.deliveries.all, bound.state == plain.state else { return }
        }
        bound.cancel()
        plain.cancel()
    }
}

/// A small deterministic generator (a 64-bit linear congruential one, Knuth's MMIX constants), so that a
/// seed names one program on every platform.
struct ProgramGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next(below bound: UInt64) -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return (state >> 33) % bound
    }
}
