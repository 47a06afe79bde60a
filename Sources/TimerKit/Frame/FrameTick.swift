/// What a frame handler receives for each frame.
///
/// A subscription's frames fall on its source's refreshes: with `n` refreshes per frame
/// (``FrameSubscription/frameInterval``), on every refresh whose number is a multiple of `n`, so that
/// subscribers at the same rate share refreshes and a slower rate's frames are a subset of a faster
/// one's. Instants are on the source's timeline, the same one ``Tick`` uses, and the names mean what they
/// mean on a ``Tick``: ``deadline`` is the instant the frame was due (an instant of the refresh grid),
/// ``timestamp`` the instant the handler was called.
///
/// In `CADisplayLink` terms, `displayLink.timestamp` is ``deadline`` and `displayLink.targetTimestamp`
/// is ``targetDeadline``.
public struct FrameTick: Sendable, Hashable, CustomStringConvertible {
    /// The frame's number for this subscription: 1 for its first frame; each later frame adds
    /// `1 + droppedFrames`. Time spent paused is not counted.
    public let index: Int
    /// The refresh this frame stands for: an instant of the refresh grid, when the frame now on screen
    /// was displayed (`CADisplayLink.timestamp`). On time, the handler runs at this instant; after a
    /// stall, it is the latest refresh of the subscription's grid that has passed. Animate from this
    /// instant: consecutive frames' deadlines are exactly whole frames apart.
    public let deadline: TickInstant
    /// When the handler was called (as ``Tick/timestamp``): read from the source's clock right before
    /// the call, so a subscriber called after slower ones at the same refresh sees a later timestamp.
    /// Never earlier than ``deadline``.
    public let timestamp: TickInstant
    /// The length of this frame: from ``deadline`` to ``targetDeadline``. Software sources compute every
    /// refresh instant from the start of the grid (refresh k at k × 10⁹ / rate ns, rounded), so at
    /// 60 Hz, frames alternate between 16,666,667 and 16,666,666 ns and never drift; ``FrameSubscription/frameDuration``
    /// is the nominal length.
    public let duration: Duration
    /// Frames of this subscription that passed since its previous frame without a delivery of their own
    /// (0 when on time): the handler, another handler on the context, or the context itself ran so late
    /// that whole frames were missed. Never a burst of catch-up calls.
    public let droppedFrames: Int

    /// When the frame the handler prepares is displayed: the next frame of the subscription's grid,
    /// `deadline + duration` (`CADisplayLink.targetTimestamp`). Work past this instant misses the frame.
    public var targetDeadline: TickInstant { deadline.advanced(by: duration) }

    /// How late the handler was called: `timestamp − deadline` (never negative). Includes the time the
    /// subscribers called before it at the same refresh took.
    public var lateness: Duration { deadline.duration(to: timestamp) }

    init(index: Int, deadline: TickInstant, timestamp: TickInstant, duration: Duration, droppedFrames: Int) {
        self.index = index
        self.deadline = deadline
        self.timestamp = max(timestamp, deadline)
        self.duration = duration
        self.droppedFrames = droppedFrames
    }

    /// A short human-readable description, for logs and test output.
    public var description: String {
        var text = "Frame #\(index) due \(deadline.nanoseconds) ns, late \(lateness), duration \(duration)"
        if droppedFrames > 0 { text += ", dropped \(droppedFrames)" }
        return text
    }
}

extension FrameTick {
    /// What a busy actor receives for two frames handed over while it was busy: the newer one, with the
    /// older one counted as dropped.
    static func merged(_ older: FrameTick, _ newer: FrameTick) -> FrameTick {
        FrameTick(
            index: newer.index, deadline: newer.deadline, timestamp: newer.timestamp, duration: newer.duration,
            droppedFrames: newer.droppedFrames + older.droppedFrames + 1)
    }
}
