/// What a frame handler receives for each frame.
///
/// A subscription's frames fall on its source's refreshes: with `n` refreshes per frame
/// (``FrameSubscription/frameInterval``), on every refresh whose number is a multiple of `n`, so that
/// subscribers at the same rate share refreshes and a slower rate's frames are a subset of a faster
/// one's. Instants are on the source's timeline, the same one ``Tick`` uses.
public struct FrameTick: Sendable, Hashable, CustomStringConvertible {
    /// The frame's number for this subscription: 1 for its first frame; each later frame adds
    /// `1 + droppedFrames`. Time spent paused is not counted.
    public let index: Int
    /// The refresh this frame stands for (when the frame now on screen was displayed, as
    /// `CADisplayLink.timestamp`). On time, the handler runs at this refresh; after a stall, it is the
    /// latest refresh of the subscription's grid that has passed. Always an instant of the refresh grid,
    /// never the moment the handler actually ran: to see jitter, time the handler yourself.
    public let timestamp: TickInstant
    /// The length of one frame of this subscription: the source's refresh interval times the
    /// subscription's ``FrameSubscription/frameInterval``.
    public let duration: Duration
    /// Frames of this subscription that passed since its previous frame without a delivery of their own
    /// (0 when on time): the handler, another handler on the context, or the context itself ran so late
    /// that whole frames were missed. Never a burst of catch-up calls.
    public let droppedFrames: Int

    /// When the frame the handler prepares is displayed: the next frame of the subscription's grid,
    /// `timestamp + duration` (as `CADisplayLink.targetTimestamp`). Work past this instant misses the
    /// frame.
    public var targetTimestamp: TickInstant { timestamp.advanced(by: duration) }

    init(index: Int, timestamp: TickInstant, duration: Duration, droppedFrames: Int) {
        self.index = index
        self.timestamp = timestamp
        self.duration = duration
        self.droppedFrames = droppedFrames
    }

    /// A short human-readable description, for logs and test output.
    public var description: String {
        var text = "Frame #\(index) at \(timestamp.nanoseconds) ns, duration \(duration)"
        if droppedFrames > 0 { text += ", dropped \(droppedFrames)" }
        return text
    }
}
