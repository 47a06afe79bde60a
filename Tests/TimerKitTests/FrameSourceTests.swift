import Foundation
import Testing

@testable import TimerKit

/// Frame pacing, snapping, dropped-frame accounting, fan-out and the source's start/stop — all under
/// virtual time, where a refresh is delivered exactly at its instant unless a handler stalls the clock.
@Suite struct FrameSourceTests {
    let time = VirtualTime()
    let context = FrameTestSupport.context
    let interval = FrameTestSupport.interval

    // MARK: Pacing

    @Test func framesFallOnTheRefreshGridAndRunAtTheirDeadline() {
        let frames = Recorder<FrameTick>()
        let calledAt = Recorder<TickInstant>()
        let time = self.time
        let origin = time.now
        let subscription = time.run {
            FrameSource.software(on: context).subscribe { frame in
                frames.append(frame)
                calledAt.append(time.now)
            }
        }
        // Irregular steps, one big jump: every refresh is still served at its own instant.
        var left = 60 * interval
        for step in [5_000_000, 16_000_000, 1, 200_000_000, 33_333_333] as [Int64] {
            time.advance(by: .nanoseconds(step))
            left -= step
        }
        time.advance(by: .nanoseconds(left))
        let values = frames.values
        #expect(frameRefreshes(values, origin: origin) == Array(1...60))
        #expect(values.map(\.index) == Array(1...60))
        // Each refresh's instant is rounded on its own: 60 Hz frames last 16,666,667 or 16,666,666 ns.
        #expect(values.allSatisfy { $0.droppedFrames == 0 })
        #expect(Set(values.map(\.duration)) == [.nanoseconds(16_666_667), .nanoseconds(16_666_666)])
        #expect(calledAt.values == values.map(\.timestamp))
        #expect(values.allSatisfy { $0.timestamp == $0.deadline && $0.lateness == .zero }, "on time")
        for (frame, next) in zip(values, values.dropFirst()) {
            #expect(frame.targetDeadline == next.deadline)
            #expect(frame.targetDeadline == frame.deadline.advanced(by: frame.duration))
        }
        subscription.cancel()
    }

    @Test
    func preferredRateSnapsAndPacesOnItsShareOfTheGrid() {
        for (preferred, frameInterval) in [(24.0, 3), (30, 2), (25, 2), (45, 1), (60, 1), (12, 5), (7, 9)]
            as [(Double, Int)]
        {
            Self().preferredRateSnapsAndPacesOnItsShareOfTheGrid(preferred: preferred, frameInterval: frameInterval)
        }
    }

    func preferredRateSnapsAndPacesOnItsShareOfTheGrid(preferred: Double, frameInterval: Int) {
        let frames = Recorder<FrameTick>()
        let origin = time.now
        let subscription = time.run {
            FrameSource.software(on: context).subscribe(FrameRateRange(preferred: preferred)) { frames.append($0) }
        }
        #expect(subscription.frameInterval == frameInterval, "preferred \(preferred), frameInterval \(frameInterval)")
        #expect(
            subscription.frameRate == 60 / Double(frameInterval),
            "preferred \(preferred), frameInterval \(frameInterval)")
        #expect(
            subscription.frameDuration == .nanoseconds(Int64(frameInterval) * interval),
            "preferred \(preferred), frameInterval \(frameInterval)")
        time.advance(by: .seconds(3))
        let values = frames.values
        let n = Int64(frameInterval)
        let refreshes = frameRefreshes(values, origin: origin)
        #expect(
            refreshes == Array(stride(from: n, through: 180, by: frameInterval)),
            "preferred \(preferred), frameInterval \(frameInterval)")
        #expect(
            values.map(\.index) == Array(1...(180 / frameInterval)),
            "preferred \(preferred), frameInterval \(frameInterval)")
        for (frame, refresh) in zip(values, refreshes) {
            #expect(
                frame.targetDeadline == frameGridInstant(refresh + n, origin: origin),
                "preferred \(preferred), frameInterval \(frameInterval)")
            #expect(
                frame.duration == frame.deadline.duration(to: frame.targetDeadline),
                "preferred \(preferred), frameInterval \(frameInterval)")
            #expect(frame.droppedFrames == 0, "preferred \(preferred), frameInterval \(frameInterval)")
        }
        subscription.cancel()
    }

    // MARK: Dropped frames

    /// Dropped frames: one late delivery per subscriber, standing for the latest grid frame that passed. Each check
    /// runs on a fresh instance of the suite.
    @Test func aStallDropsFramesIntoOneLateDelivery() {
        Self().aStallDropsTheMissedFramesInOneLateDeliveryPerSubscriber()
        Self().aLateFrameStandsForTheLatestGridFrameThatPassedAndItsTargetIsStillAhead()
    }

    func aStallDropsTheMissedFramesInOneLateDeliveryPerSubscriber() {
        let fast = Recorder<FrameTick>()
        let slow = Recorder<FrameTick>()
        let calledAt = Recorder<TickInstant>()
        let time = self.time
        let interval = self.interval
        let origin = time.now
        let (a, b) = time.run {
            let source = FrameSource.software(on: context)
            let a = source.subscribe { frame in
                fast.append(frame)
                calledAt.append(time.now)
                // The third frame's work takes 3.5 refreshes: refreshes 4 and 5 pass meanwhile.
                if frame.index == 3 { time.clock.advance(by: .nanoseconds(interval * 7 / 2)) }
            }
            let b = source.subscribe(FrameRateRange(preferred: 30)) { slow.append($0) }
            return (a, b)
        }
        time.advance(by: .nanoseconds(10 * interval))

        // 60 Hz: refresh 6 is delivered once, late, for refreshes 4 and 5 too; no burst, no slide.
        #expect(frameRefreshes(fast.values, origin: origin) == [1, 2, 3, 6, 7, 8, 9, 10])
        #expect(fast.values.map(\.droppedFrames) == [0, 0, 0, 2, 0, 0, 0, 0])
        #expect(fast.values.map(\.index) == [1, 2, 3, 6, 7, 8, 9, 10])
        #expect(calledAt.values[3] == frameGridInstant(3, origin: origin).advanced(by: .nanoseconds(interval * 7 / 2)))
        #expect(fast.values[3].timestamp == calledAt.values[3], "the timestamp is when the handler was called")
        #expect(fast.values[3].deadline == frameGridInstant(6, origin: origin))
        // 30 Hz: its frame at refresh 4 was missed; the one at refresh 6 stands for it.
        #expect(frameRefreshes(slow.values, origin: origin) == [2, 6, 8, 10])
        #expect(slow.values.map(\.droppedFrames) == [0, 1, 0, 0])
        #expect(slow.values.map(\.index) == [1, 3, 4, 5])
        #expect(frameLiveTickers(time).count == 1, "one pending refresh")
        a.cancel()
        b.cancel()
    }

    func aLateFrameStandsForTheLatestGridFrameThatPassedAndItsTargetIsStillAhead() {
        let fast = Recorder<FrameTick>()
        let slow = Recorder<FrameTick>()
        let slowCalledAt = Recorder<TickInstant>()
        let time = self.time
        let interval = self.interval
        let origin = time.now
        let (a, b) = time.run {
            let source = FrameSource.software(on: context)
            let a = source.subscribe { frame in
                fast.append(frame)
                // Refresh 3's work ends at 5.5 refreshes: refresh 5 is served then, refresh 4 is missed.
                if frame.index == 3 { time.clock.advance(by: .nanoseconds(interval * 5 / 2)) }
            }
            let b = source.subscribe(FrameRateRange(preferred: 30)) { frame in
                slow.append(frame)
                slowCalledAt.append(time.now)
            }
            return (a, b)
        }
        time.advance(by: .nanoseconds(8 * interval))
        #expect(frameRefreshes(fast.values, origin: origin) == [1, 2, 3, 5, 6, 7, 8])
        #expect(fast.values.map(\.droppedFrames) == [0, 0, 0, 1, 0, 0, 0])
        // The 30 Hz subscriber's frame 4 is delivered at refresh 5, late but not dropped: its target,
        // refresh 6, is still ahead.
        #expect(frameRefreshes(slow.values, origin: origin) == [2, 4, 6, 8])
        #expect(slow.values.map(\.droppedFrames) == [0, 0, 0, 0])
        let late = slow.values[1]
        #expect(
            slowCalledAt.values[1] == frameGridInstant(3, origin: origin).advanced(by: .nanoseconds(interval * 5 / 2)))
        #expect(late.timestamp == slowCalledAt.values[1])
        #expect(late.lateness == late.deadline.duration(to: slowCalledAt.values[1]))
        #expect(late.targetDeadline == frameGridInstant(6, origin: origin))
        #expect(late.targetDeadline > slowCalledAt.values[1])
        a.cancel()
        b.cancel()
    }

    // MARK: Fan-out

    /// Fan-out: one ticker in subscription order, one shared source per rate, context and time base, gone when nobody
    /// holds it. Each check runs on a fresh instance of the suite.
    @Test func subscribersShareOneSourceAndOneTicker() {
        Self().subscribersAtDifferentRatesShareOneTickerInSubscriptionOrder()
        Self().oneSharedSourcePerRefreshRateContextAndTimeBase()
        Self().aSourceNobodyHoldsGoesAway()
    }

    func subscribersAtDifferentRatesShareOneTickerInSubscriptionOrder() {
        let order = Recorder<String>()
        let origin = time.now
        @Sendable func label(_ name: String, _ frame: FrameTick) -> String {
            "\(name)\(frameRefreshes([frame], origin: origin)[0])"
        }
        let (source, subscriptions) = time.run {
            let source = FrameSource.software(on: context)
            let subscriptions = [
                source.subscribe { order.append(label("a", $0)) },
                source.subscribe(FrameRateRange(preferred: 30)) { order.append(label("b", $0)) },
                source.subscribe(FrameRateRange(minimum: 0, maximum: 20)) { order.append(label("c", $0)) },
            ]
            return (source, subscriptions)
        }
        #expect(subscriptions.map(\.frameRate) == [60, 30, 20])
        #expect(source.subscriberCount == 3)
        #expect(frameLiveTickers(time).count == 1, "one internal ticker for every subscriber")
        time.advance(by: .nanoseconds(6 * interval))
        #expect(order.values == ["a1", "a2", "b2", "a3", "c3", "a4", "b4", "a5", "a6", "b6", "c6"])
        subscriptions.forEach { $0.cancel() }
    }

    func oneSharedSourcePerRefreshRateContextAndTimeBase() {
        let other = TickerContext.dispatch(DispatchQueue(label: "TimerKitTests.frames.other"))
        let source = time.run { FrameSource.software(on: context) }
        time.run {
            #expect(FrameSource.software(refreshRate: 60, on: context) === source)
            #expect(FrameSource.software(refreshRate: 60.000_000_000_1, on: context) === source, "same µHz")
            #expect(FrameSource.software(refreshRate: 120, on: context) !== source)
            #expect(FrameSource.software(on: other) !== source)
            // Under virtual time the display's source is the software one on the main run loop.
            let display = FrameSource.display()
            #expect(display === FrameSource.software(on: .main))
            #expect(display.context == .main)
        }
        #expect(VirtualTime().run { FrameSource.software(on: context) } !== source, "another time base")
    }

    func aSourceNobodyHoldsGoesAway() {
        weak var weakSource: FrameSource?
        time.run {
            let source = FrameSource.software(on: context)
            weakSource = source
            source.subscribe { _ in }.cancel()
        }
        #expect(weakSource == nil)
    }

    // MARK: Stop and restart

    /// The source stops with its last subscriber or when every one pauses, and restarts on the grid without drops. Each
    /// check runs on a fresh instance of the suite.
    @Test func theSourceStopsAndRestartsWithItsSubscribers() {
        Self().theSourceStopsWithItsLastSubscriberAndRestartsOnTheGrid()
        Self().pausingEverySubscriberStopsTheSourceAndResumingRestartsItWithoutDrops()
    }

    func theSourceStopsWithItsLastSubscriberAndRestartsOnTheGrid() {
        let frames = Recorder<FrameTick>()
        let origin = time.now
        let source = time.run { FrameSource.software(on: context) }
        #expect(!source.isRunning)
        #expect(frameLiveTickers(time).isEmpty, "no ticker before the first subscriber")

        let (a, b) = time.run { (source.subscribe { _ in }, source.subscribe { _ in }) }
        #expect(source.isRunning)
        #expect(frameLiveTickers(time).count == 1)
        time.advance(by: .nanoseconds(2 * interval))
        a.cancel()
        #expect(source.isRunning, "one subscriber is left")
        #expect(frameLiveTickers(time).count == 1)
        b.cancel()
        #expect(!source.isRunning)
        #expect(frameLiveTickers(time).isEmpty, "the internal ticker is cancelled")
        #expect(time.clock.nextDeadline() == nil, "no wake-up is armed any more")
        time.advance(by: .nanoseconds(10 * interval + interval / 3))

        // Subscribing (here outside `time.run`: the source keeps its time base) starts a new ticker on
        // the same grid: the first frame is at the next refresh, 13.
        let c = source.subscribe { frames.append($0) }
        #expect(source.isRunning)
        #expect(frameLiveTickers(time).count == 1)
        time.advance(by: .nanoseconds(3 * interval))
        #expect(frameRefreshes(frames.values, origin: origin) == [13, 14, 15])
        #expect(frames.values.map(\.index) == [1, 2, 3])
        #expect(frames.values.allSatisfy { $0.droppedFrames == 0 })
        c.cancel()
        #expect(frameLiveTickers(time).isEmpty)
    }

    func pausingEverySubscriberStopsTheSourceAndResumingRestartsItWithoutDrops() {
        let frames = Recorder<FrameTick>()
        let origin = time.now
        let (source, a, b) = time.run {
            let source = FrameSource.software(on: context)
            return (
                source, source.subscribe { frames.append($0) }, source.subscribe(FrameRateRange(preferred: 30)) { _ in }
            )
        }
        time.advance(by: .nanoseconds(3 * interval))
        a.pause()
        #expect(source.isRunning, "b still runs")
        b.pause()
        #expect(!source.isRunning)
        #expect(frameLiveTickers(time).isEmpty)
        #expect(source.subscriberCount == 2, "paused subscribers stay subscribed")
        time.advance(by: .nanoseconds(5 * interval + interval / 2))
        a.resume()
        #expect(frameLiveTickers(time).count == 1)
        time.advance(by: .nanoseconds(2 * interval))
        #expect(frameRefreshes(frames.values, origin: origin) == [1, 2, 3, 9, 10])
        #expect(frames.values.map(\.index) == [1, 2, 3, 4, 5], "time spent paused is not counted")
        #expect(frames.values.allSatisfy { $0.droppedFrames == 0 })
        a.cancel()
        b.cancel()
        #expect(source.subscriberCount == 0)
    }
}

// MARK: - Helpers shared by the Frame*Tests files (prefixed `Frame` so they cannot clash)

enum FrameTestSupport {
    /// A dispatch context for virtual-time tests: no real queue is involved (the virtual clock wakes the
    /// engine on the thread that advances).
    static let context = TickerContext.dispatch(DispatchQueue(label: "TimerKitTests.frames"))

    /// The 60 Hz refresh interval: one second / 60, rounded to the nanosecond.
    static let interval: Int64 = 16_666_667
}

/// A frame owner (a "view controller"): records its frames, may keep its own handle, and counts itself.
final class FrameTestOwner: Sendable {
    let frames = Recorder<FrameTick>()
    let tracker: LifetimeTracker?
    private let handle = ContractBox<FrameSubscription>()

    init(tracker: LifetimeTracker? = nil) {
        self.tracker = tracker
        tracker?.instanceMade()
    }

    deinit { tracker?.instanceGone() }

    /// The owner's own handle (the usual `var displayLink` property of a view controller).
    var subscription: FrameSubscription? {
        get { handle.value }
        set { handle.set(newValue) }
    }

    func record(_ frame: FrameTick) { frames.append(frame) }
}

/// The refresh numbers of `frames` on the grid of `refreshRate` that starts at `origin`, expecting every
/// deadline to lie exactly on it.
func frameRefreshes(_ frames: [FrameTick], origin: TickInstant, refreshRate: Int64 = 60) -> [Int64] {
    frames.map { frame in
        let offset = frame.deadline.nanoseconds - origin.nanoseconds
        // The nearest refresh: k × 10⁹ / rate rounded, computed here independently of the library.
        let refresh = (offset * refreshRate + 500_000_000) / 1_000_000_000
        #expect(
            frameGridInstant(refresh, origin: origin, refreshRate: refreshRate) == frame.deadline,
            "\(frame) is off the refresh grid")
        return refresh
    }
}

/// The instant of refresh `refresh` on the grid of `refreshRate` (whole hertz) that starts at `origin`:
/// `refresh × 10⁹ / refreshRate` ns, rounded half up.
func frameGridInstant(_ refresh: Int64, origin: TickInstant, refreshRate: Int64 = 60) -> TickInstant {
    origin.advanced(by: .nanoseconds((refresh * 1_000_000_000 * 2 + refreshRate) / (2 * refreshRate)))
}

/// The live tickers of `time`: the frame sources' internal tickers among them.
func frameLiveTickers(_ time: VirtualTime) -> [TickerSnapshot] {
    time.run { TickerDiagnostics.liveTickers() }
}
