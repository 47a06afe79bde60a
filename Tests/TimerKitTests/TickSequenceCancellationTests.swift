import Testing

@testable import TimerKit

/// Cancelling many waiting tick sequences at once, in real time. Each sequence's ticker runs on a context
/// of the test's own, so that its engine serves nothing else, and the engine's lock is counted (a debug
/// build's `TickerEngine.lockAcquisitions`) rather than anything timed: the deadlines are an hour away,
/// and only the cancellation ends the waits.
// The engine counts its lock acquisitions in debug builds only (the release-messages check builds the
// tests with -O).
#if DEBUG
    @Suite struct TickSequenceCancellationTests {
        /// Tasks of one group, each waiting in `for await` over a tick sequence, all cancelled at once: every
        /// loop ends, the engine keeps no live ticker, and it took its lock about once per sequence to get
        /// there (stopping the sequence's ticker and freeing its record in one call). Through a ``Ticker``
        /// handle, ending each sequence took that lock twice, for `cancel()` and for the handle's release, and
        /// every sequence on the shared async context queued on it.
        @Test func endingACancelledSequenceTakesTheEnginesLockOnce() async {
            let count = 200
            let context = TickerContext.precise(label: "TimerKitTests.sequenceCancellation")
            let engine = TimeBase.system.engine(for: context, clock: .continuous)
            await TimeBase.$override.withValue(.system) {
                await withTaskGroup(of: Bool.self) { group in
                    for _ in 0..<count {
                        group.addTask {
                            let sequence = TickSequence(
                                schedule: .every(.seconds(3_600)), clock: ContinuousClock(), owner: nil,
                                fileID: #fileID,
                                line: #line, context: context)
                            for await _ in sequence { return false }
                            return true
                        }
                    }
                    // Each task has started its sequence's ticker (parking after that makes no engine call). A
                    // generous bound: with the whole suite running, the 200 tasks may wait long for a thread.
                    #expect(
                        await TickSequenceRealTimeEndingTests.eventually(seconds: 120) { engine.liveCount() == count },
                        "every sequence waits")
                    let before = engine.lockAcquisitions
                    group.cancelAll()
                    var ended = 0
                    for await endedWithoutATick in group where endedWithoutATick { ended += 1 }
                    // Less the reading itself. The engine's thread may wake in between (a continuous-clock
                    // engine waits a second at most at a time), taking the lock once or twice more.
                    let acquisitions = engine.lockAcquisitions - before - 1
                    #expect(ended == count, "every loop ended, without a tick")
                    #expect(
                        acquisitions <= count + count / 2,
                        "\(acquisitions) engine lock acquisitions to end \(count) sequences (one each expected)")
                }
            }
            #expect(engine.liveCount() == 0, "every ticker stopped")
            #expect(engine.storage().occupied == 0, "every record freed")
        }
    }
#endif
