import Dispatch
import Foundation
import TimerKit

/// The frame section's settings.
struct FrameTiming {
    /// The software source's refresh rate.
    var refreshRate = 60.0
    /// How long the animation runs before it is released.
    var run: Duration = .milliseconds(500)
    /// The sprite stalls at its first frame from this one on that the label does not share.
    var stallFrom = 10
    /// How long the one stall lasts.
    var stall: Duration = .milliseconds(50)
    /// How long the demo watches the source after the animation is released.
    var afterRelease: Duration = .milliseconds(100)
}

/// The two subscribers of the animation.
enum Layer: String, CaseIterable, Codable {
    /// Moves every frame: 60 fps, owner-bound (`owner: self`), the handle not kept.
    case sprite
    /// Redraws at 30 fps: handle-owned, the handle kept in a property of the animation.
    case label

    var preferredRate: Double {
        switch self {
        case .sprite: 60
        case .label: 30
        }
    }

    var range: FrameRateRange { FrameRateRange(preferred: preferredRate) }

    var binding: String {
        switch self {
        case .sprite: "owner"
        case .label: "handle"
        }
    }

    /// A short name for the report's table.
    var bindingLabel: String {
        switch self {
        case .sprite: "owner: self"
        case .label: "handle in property"
        }
    }

    /// The call as the animation writes it.
    var call: String {
        switch self {
        case .sprite:
            "source.subscribe(FrameRateRange(preferred: 60), owner: self) { animation, frame in ... }"
        case .label:
            "self.labelFrames = source.subscribe(FrameRateRange(preferred: 30)) { frame in ... }"
        }
    }
}

/// The monotonic uptime clock in nanoseconds: the timeline of `TickInstant` (and so of every
/// `FrameTick.deadline` and `FrameTick.timestamp`) outside virtual time.
func uptimeNanoseconds() -> Int64 {
    Int64(clamping: DispatchTime.now().uptimeNanoseconds)
}

/// What the animation's handlers saw, kept outside the animation so that it outlives it.
final class AnimationLog: @unchecked Sendable {
    /// One delivered frame and the instant its handler began.
    struct Frame {
        let tick: FrameTick
        let calledAt: Int64
    }

    /// The one deliberate stall.
    struct Stall {
        let atFrame: Int
        let nanoseconds: Int64
    }

    // Invariant: `state` is only read or written while `lock` is held.
    private let lock = NSLock()
    private var state = State()

    private struct State {
        var frames: [Layer: [Frame]] = [:]
        var stall: Stall?
        var deinitialised = false
    }

    /// Records a frame whose handler began now.
    func record(_ tick: FrameTick, for layer: Layer) {
        let now = uptimeNanoseconds()
        lock.withLock { state.frames[layer, default: []].append(Frame(tick: tick, calledAt: now)) }
    }

    func recordStall(_ stall: Stall) {
        lock.withLock { state.stall = stall }
    }

    func recordDeinit() {
        lock.withLock { state.deinitialised = true }
    }

    func frames(_ layer: Layer) -> [Frame] { lock.withLock { state.frames[layer] ?? [] } }
    var stall: Stall? { lock.withLock { state.stall } }
    var deinitialised: Bool { lock.withLock { state.deinitialised } }
}

/// An animation-like object with two layers on one shared frame source. It needs no `deinit` to stop:
/// the sprite's subscription is bound to it, and the label's handle is released with it.
///
/// Its handlers run on the source's context, the main run loop, so its state is only touched on the
/// main thread.
@MainActor
final class Animation {
    private let log: AnimationLog
    private let timing: FrameTiming
    /// The label's subscription: handle-owned, so releasing the animation releases the handle and cancels.
    private var labelFrames: FrameSubscription?
    private var stallPending = true
    /// The sprite's position: 3 points a frame, dropped frames included, so it keeps its speed.
    private(set) var position = 0.0

    init(log: AnimationLog, timing: FrameTiming) {
        self.log = log
        self.timing = timing
    }

    deinit {
        log.recordDeinit()
    }

    func start(on source: FrameSource) {
        // The label subscribes first, so at a refresh both share its handler runs first and the sprite
        // can tell whether the refresh is one of the label's.
        let log = self.log
        labelFrames = source.subscribe(Layer.label.range) { frame in
            log.record(frame, for: .label)
        }
        // The main-actor form (no source named) delivers from the display source, which on Linux is
        // this same software source on the main run loop.
        FrameSource.subscribe(Layer.sprite.range, refreshRate: source.refreshRate, owner: self) { animation, frame in
            animation.spriteFrame(frame)
        }
    }

    private func spriteFrame(_ frame: FrameTick) {
        log.record(frame, for: .sprite)
        position += 3 * Double(1 + frame.droppedFrames)
        // The one stall falls on a refresh the label does not share, so that it spans one of the
        // label's frames as well as the sprite's next ones: both subscribers then report a drop.
        guard stallPending, frame.index >= timing.stallFrom,
            log.frames(.label).last?.tick.deadline != frame.deadline
        else { return }
        stallPending = false
        let start = uptimeNanoseconds()
        Thread.sleep(forTimeInterval: timing.stall.seconds)
        log.recordStall(AnimationLog.Stall(atFrame: frame.index, nanoseconds: uptimeNanoseconds() - start))
    }
}

/// One subscriber's frames, measured.
struct SubscriberResult: Encodable {
    let layer: Layer
    let binding: String
    let preferredFps: Double
    /// The rate the source snapped the range to.
    let frameRateHz: Double
    let frameDurationMilliseconds: Double
    let framesDelivered: Int
    /// Frames delivered per second of the run.
    let effectiveFps: Double
    /// The sum of `droppedFrames` over the delivered frames.
    let droppedFrames: Int
    /// The last frame's `index`: frames delivered plus frames dropped, when the accounting adds up.
    let lastFrameIndex: Int
    /// Between consecutive frames: |handler start delta − (1 + droppedFrames) × frame duration|.
    let meanPacingErrorMilliseconds: Double
    let maxPacingErrorMilliseconds: Double
    /// Each frame's `lateness`: how long after its `deadline` its handler was called.
    let meanLatenessMilliseconds: Double
    let maxLatenessMilliseconds: Double
    /// Every `deadline` delta is (1 + droppedFrames) frames of the exact grid (frame k at
    /// k × frame interval × 10⁹ / refresh rate ns, each rounded on its own, so within 1 ns), and every
    /// `duration` is the subscription's frame duration to within 1 ns.
    let timestampsOnGrid: Bool
    /// Frames whose handler began after the animation was released.
    let framesAfterRelease: Int

    init(layer: Layer, frames: [AnimationLog.Frame], source: FrameSource, runNanoseconds: Int64, releasedAt: Int64) {
        let rate = source.frameRate(for: layer.range)
        let duration = source.refreshInterval * layer.range.frameInterval(forRefreshRate: source.refreshRate)
        let durationNanoseconds = duration.nanosecondsValue
        let before = frames.filter { $0.calledAt <= releasedAt }
        var pacing: [Int64] = []
        let exactFrame =
            Double(layer.range.frameInterval(forRefreshRate: source.refreshRate)) * 1e9 / source.refreshRate
        var onGrid = frames.allSatisfy { abs($0.tick.duration.nanosecondsValue - durationNanoseconds) <= 1 }
        for (previous, frame) in zip(before, before.dropFirst()) {
            let expected = Double(1 + frame.tick.droppedFrames) * exactFrame
            let stamped = frame.tick.deadline.nanoseconds - previous.tick.deadline.nanoseconds
            if abs(Double(stamped) - expected) > 1 { onGrid = false }
            pacing.append(abs(frame.calledAt - previous.calledAt - Int64(expected.rounded())))
        }
        let lateness = before.map { $0.tick.lateness.nanosecondsValue }

        self.layer = layer
        binding = layer.binding
        preferredFps = layer.preferredRate
        frameRateHz = rate
        frameDurationMilliseconds = milliseconds(durationNanoseconds)
        framesDelivered = before.count
        effectiveFps = rounded(Double(before.count) / (Double(runNanoseconds) / 1e9), places: 1)
        droppedFrames = before.reduce(0) { $0 + $1.tick.droppedFrames }
        lastFrameIndex = before.last?.tick.index ?? 0
        meanPacingErrorMilliseconds = milliseconds(mean(pacing))
        maxPacingErrorMilliseconds = milliseconds(pacing.max() ?? 0)
        meanLatenessMilliseconds = milliseconds(mean(lateness))
        maxLatenessMilliseconds = milliseconds(lateness.max() ?? 0)
        timestampsOnGrid = onGrid
        framesAfterRelease = frames.count - before.count
    }

    /// The frame-index accounting adds up: each frame advanced the index by 1 + droppedFrames.
    var indexAddsUp: Bool { lastFrameIndex == framesDelivered + droppedFrames }
}

/// The source's state at one moment.
struct SourceState: Encodable {
    let isRunning: Bool
    let subscriberCount: Int

    init(_ source: FrameSource) {
        isRunning = source.isRunning
        subscriberCount = source.subscriberCount
    }
}

/// The frame section's result.
struct FrameResult: Encodable {
    struct Stall: Encodable {
        let layer: Layer
        let atFrame: Int
        let milliseconds: Double
    }

    struct Release: Encodable {
        let animationDeinitialised: Bool
        /// Right after the release. Releasing the label's handle cancels it, and the call also sweeps
        /// subscriptions whose owner is gone, so the sprite's ends with it; on its own, an owner-bound
        /// subscription whose handle was not kept ends at the source's next refresh.
        let rightAfter: SourceState
        /// After watching for `watchedMilliseconds`.
        let watched: SourceState
        let watchedMilliseconds: Double
        let framesAfterRelease: Int
    }

    let source: String
    let refreshRateHz: Double
    let context: String
    let runMilliseconds: Double
    let whileRunning: SourceState
    let stall: Stall?
    let subscribers: [SubscriberResult]
    let release: Release
    /// Whether everything behaved as described (``problems`` is empty).
    var asExpected = true

    /// What did not behave as described (empty when all did).
    var problems: [String] {
        var found: [String] = []
        for subscriber in subscribers {
            let name = subscriber.layer.rawValue
            if subscriber.framesDelivered == 0 { found.append("\(name) got no frames") }
            if !subscriber.timestampsOnGrid { found.append("\(name) timestamps off the refresh grid") }
            if !subscriber.indexAddsUp { found.append("\(name) frame index != delivered + dropped") }
        }
        if stall == nil { found.append("the stall did not happen") }
        if let sprite = subscribers.first(where: { $0.layer == .sprite }), stall != nil, sprite.droppedFrames == 0 {
            found.append("the sprite reported no dropped frame after its stall")
        }
        if !whileRunning.isRunning || whileRunning.subscriberCount != 2 {
            found.append("the source was not running with 2 subscribers")
        }
        if !release.animationDeinitialised { found.append("the animation was not deinitialised") }
        if release.watched.isRunning || release.watched.subscriberCount != 0 {
            found.append("the source did not stop after the release")
        }
        if release.framesAfterRelease != 0 { found.append("frames were delivered after the release") }
        return found
    }
}

/// Runs the frame section: an animation subscribes two layers to the display source (on Linux, the
/// software source on the main run loop), runs for a while with one deliberate stall, and is released.
@MainActor
func runFrameDemo(timing: FrameTiming) -> FrameResult {
    let source = FrameSource.display(refreshRate: timing.refreshRate)
    let log = AnimationLog()
    weak var weakAnimation: Animation?
    let started = uptimeNanoseconds()
    var whileRunning: SourceState
    do {
        let animation = Animation(log: log, timing: timing)
        weakAnimation = animation
        animation.start(on: source)
        whileRunning = SourceState(source)
        withExtendedLifetime(animation) {
            runMainRunLoop(for: timing.run)
        }
    }
    let releasedAt = uptimeNanoseconds()
    let rightAfter = SourceState(source)
    runMainRunLoop(for: timing.afterRelease)
    let watched = SourceState(source)

    let subscribers = Layer.allCases.map { layer in
        SubscriberResult(
            layer: layer, frames: log.frames(layer), source: source, runNanoseconds: releasedAt - started,
            releasedAt: releasedAt)
    }
    let release = FrameResult.Release(
        animationDeinitialised: log.deinitialised && weakAnimation == nil,
        rightAfter: rightAfter,
        watched: watched,
        watchedMilliseconds: milliseconds(timing.afterRelease.nanosecondsValue),
        framesAfterRelease: subscribers.reduce(0) { $0 + $1.framesAfterRelease }
    )
    let stall = log.stall.map {
        FrameResult.Stall(layer: .sprite, atFrame: $0.atFrame, milliseconds: milliseconds($0.nanoseconds))
    }
    var result = FrameResult(
        source: "FrameSource.display(refreshRate: \(Int(source.refreshRate)))",
        refreshRateHz: source.refreshRate,
        context: "main run loop",
        runMilliseconds: milliseconds(releasedAt - started),
        whileRunning: whileRunning,
        stall: stall,
        subscribers: subscribers,
        release: release
    )
    result.asExpected = result.problems.isEmpty
    return result
}

// MARK: - Numbers

/// Nanoseconds as milliseconds, rounded to the microsecond.
func milliseconds(_ nanoseconds: Int64) -> Double {
    rounded(Double(nanoseconds) / 1e6, places: 3)
}

func rounded(_ value: Double, places: Int) -> Double {
    let scale = pow(10, Double(places))
    return (value * scale).rounded() / scale
}

private func mean(_ values: [Int64]) -> Int64 {
    values.isEmpty ? 0 : values.reduce(0, +) / Int64(values.count)
}

extension Duration {
    /// The duration in whole nanoseconds (saturating).
    var nanosecondsValue: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return scaled.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
    }
}
