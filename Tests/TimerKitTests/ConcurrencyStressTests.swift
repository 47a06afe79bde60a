import Foundation
import Testing
import TimerKitTestSupport

@testable import TimerKit

/// Many threads create, pause, resume, fire, cancel and release tickers on one real context at once.
/// Runs under ThreadSanitizer in CI. Asserts: no crash, handlers on one context never overlap, nothing
/// fires once everything is cancelled and the context drained, every owner and ticker is released.
@Suite struct ConcurrencyStressTests {
    init() { LogCapture.install() }

    struct SplitMix64: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Detects two handlers of one context running at the same time.
    final class OverlapDetector: Sendable {
        private let state = Locked<(inside: Int, overlaps: Int, fires: Int)>.make((0, 0, 0))
        func enter() {
            state.withLock {
                $0.inside += 1; $0.fires += 1; if $0.inside > 1 { $0.overlaps += 1 }
            }
        }
        func leave() { state.withLock { $0.inside -= 1 } }
        var overlaps: Int { state.withLock { $0.overlaps } }
        var fires: Int { state.withLock { $0.fires } }
    }

    @Test
    func manyThreadsDriveTickersAtOnce() {
        for kind in ContextKind.allCases {
            Self().manyThreadsDriveTickersAtOnce(kind: kind)
        }
    }

    func manyThreadsDriveTickersAtOnce(kind: ContextKind) {
        let live = LiveContext(kind)
        defer { live.tearDown() }
        let tracker = LifetimeTracker()
        let detector = OverlapDetector()
        let context = live.context
        let workers = 6
        let steps = 250
        let handles = Locked<[Ticker]>.make([])

        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var random = SplitMix64(state: UInt64(worker) &* 7919 &+ 17)
            var owners: [Screen] = []
            var mine: [Ticker] = []
            for _ in 0..<steps {
                switch random.next() % 9 {
                case 0:
                    let owner = Screen(tracker: tracker)
                    owners.append(owner)
                    let interval = Duration.microseconds(Int64(500 + random.next() % 3_000))
                    // Some with tolerance, so that batches are planned and re-planned under contention.
                    let tolerance = Duration.microseconds(Int64(random.next() % 2 == 0 ? 0 : random.next() % 250))
                    mine.append(
                        Ticker.schedule(.every(interval, tolerance: tolerance), on: context, owner: owner) {
                            owner, tick in
                            detector.enter()
                            owner.tick(tick)
                            detector.leave()
                        })
                case 1:
                    mine.append(
                        Ticker.schedule(.after(.microseconds(Int64(random.next() % 2_000))), on: context) { _ in
                            detector.enter()
                            detector.leave()
                        })
                case 2: mine.randomElement(using: &random)?.pause()
                case 3:
                    if random.next() % 2 == 0 {
                        mine.randomElement(using: &random)?.resume()
                    } else {
                        mine.randomElement(using: &random)?.restart()
                    }
                case 4: mine.randomElement(using: &random)?.fire()
                case 5: mine.randomElement(using: &random)?.cancel()
                case 6: if !owners.isEmpty { owners.remove(at: Int(random.next() % UInt64(owners.count))) }
                case 7: if !mine.isEmpty { mine.remove(at: Int(random.next() % UInt64(mine.count))) }
                default:
                    // A ticker that cancels itself or schedules another from inside its handler.
                    let owner = Screen(tracker: tracker)
                    owners.append(owner)
                    Ticker.schedule(.every(.milliseconds(1), count: 3), on: context, owner: owner) { owner, tick in
                        detector.enter()
                        if tick.isLast {
                            let child = Ticker.schedule(.after(.zero), on: context, owner: owner) { _, _ in }
                            child.fire()
                        }
                        detector.leave()
                    }
                }
            }
            handles.withLock { $0.append(contentsOf: mine) }
            // `owners` goes away here: their owner-bound tickers stop at their next deadline at the latest.
        }

        // Everything still alive is cancelled; after the context drains nothing may fire any more.
        let all = handles.withLock { $0 }
        all.forEach { $0.cancel() }
        live.drain()
        let firesAfterCancel = detector.fires
        Thread.sleep(forTimeInterval: 0.03)
        live.drain()
        #expect(detector.fires == firesAfterCancel, "tickers fired after every one was cancelled; kind \(kind)")
        #expect(detector.overlaps == 0, "handlers on one context overlapped; kind \(kind)")
        #expect(all.allSatisfy { $0.state.isTerminal }, "kind \(kind)")
        handles.withLock { $0.removeAll() }
        #expect(eventually { tracker.live == 0 }, "\(tracker.live) owners were never released; kind \(kind)")
        #expect(
            eventually { live.liveTickers == 0 },
            "the engine still holds \(live.liveTickers) tickers: \(TimeBase.system.engine(for: context).liveSnapshots().prefix(3)); kind \(kind)"
        )
    }
}
