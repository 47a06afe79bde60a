import Foundation
import Testing

@testable import TimerKit

/// One smoke test on real time: a software frame source on a dispatch queue. Correctness is checked under
/// virtual time elsewhere; here only the order and shape of frames are asserted, with generous bounds.
@Suite struct FrameRealTimeTests {
    @Test func softwareSourceDeliversGridFramesOnItsQueueAndStopsWhenCancelled() throws {
        let queue = DispatchQueue(label: "TimerKitTests.frames.realtime.\(UUID().uuidString)")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let context = TickerContext.dispatch(queue)
        let source = FrameSource.software(refreshRate: 100, on: context)
        let interval = Int64(10_000_000)
        #expect(source.refreshInterval == .nanoseconds(interval))

        let fast = Recorder<FrameTick>()
        let slow = Recorder<FrameTick>()
        let offQueue = Recorder<Bool>()
        let everyRefresh = source.subscribe { frame in
            if DispatchQueue.getSpecific(key: key) != true { offQueue.append(true) }
            fast.append(frame)
        }
        let quarter = source.subscribe(FrameRateRange(preferred: 25)) { frame in
            if DispatchQueue.getSpecific(key: key) != true { offQueue.append(true) }
            slow.append(frame)
        }
        #expect(quarter.frameInterval == 4)
        #expect(eventually(timeout: 10) { fast.count >= 20 && slow.count >= 3 })
        everyRefresh.cancel()
        quarter.cancel()
        queue.sync {}  // a delivery decided before the cancels has finished now
        let counts = (fast.count, slow.count)
        #expect(!source.isRunning)
        #expect(TimeBase.system.engine(for: context).liveCount() == 0, "the internal ticker is cancelled")
        Thread.sleep(forTimeInterval: 0.1)
        queue.sync {}
        #expect((fast.count, slow.count) == counts, "nothing after cancel")
        #expect(offQueue.count == 0, "every handler ran on the source's queue")

        for (frames, refreshesPerFrame) in [(fast.values, Int64(1)), (slow.values, 4)] {
            let first = try #require(frames.first)
            for (frame, next) in zip(frames, frames.dropFirst()) {
                #expect(next.index == frame.index + 1 + next.droppedFrames)
                let refreshes = (next.deadline.nanoseconds - frame.deadline.nanoseconds) / interval
                #expect(refreshes == refreshesPerFrame * Int64(1 + next.droppedFrames))
            }
            for frame in frames {
                #expect(
                    (frame.deadline.nanoseconds - first.deadline.nanoseconds) % (refreshesPerFrame * interval) == 0)
                #expect(frame.duration == .nanoseconds(refreshesPerFrame * interval))
                #expect(frame.targetDeadline == frame.deadline.advanced(by: frame.duration))
                #expect(frame.timestamp >= frame.deadline, "a handler is never called before its frame is due")
            }
        }
    }
}
