/// A handle to one subscriber of a ``FrameSource``: frame ticks at a snapped rate, delivered on the
/// source's context, bound to an owner that it never retains.
///
/// Make one with ``FrameSource/subscribe(_:owner:fileID:line:_:)-356qd`` (the owner is passed to the handler;
/// keeping the handle is optional) or ``FrameSource/subscribe(_:fileID:line:_:)`` (owned by this handle:
/// releasing it cancels; in debug builds, releasing it within 100 ms of its creation, while running and
/// before its first frame, logs the "never fires" warning, as for a ``Ticker`` — the usual reason a frame
/// handler "never runs").
///
/// **States.** A subscription is `running`, `paused` or `cancelled` (``TickerState``; it is never `idle`
/// or `finished`). Every call is safe in every state, from any thread and from inside any frame handler;
/// calls that do not apply do nothing:
///
/// | Call | `running` | `paused` | `cancelled` |
/// |---|---|---|---|
/// | ``pause()`` | `paused` | nothing | nothing |
/// | ``resume()`` | nothing | `running`: frames resume at its next grid refresh | nothing |
/// | ``cancel()`` | `cancelled` | `cancelled` | nothing |
/// | release the handle, handle-owned | `cancelled` | `cancelled` | nothing |
/// | release the handle, owner-bound | keeps running | `cancelled` | nothing |
/// | the owner goes away | `cancelled` | `cancelled` | nothing |
///
/// When the last running subscription of a source pauses or goes, the source stops its ticker or
/// display link; pausing costs no wake-ups. Frames that pass while paused are not counted as dropped.
///
/// **Cancel.** Every delivery is decided under the source's lock right before its call, and `cancel()`
/// takes the same lock: once `cancel()` returns, no further frame is decided. Called from inside any
/// frame handler of the source (or any handler on its context), `cancel()` is therefore exact, even for
/// a frame due at the same refresh. Called from another thread, it does not wait: a frame already decided
/// may still be delivered just after `cancel()` returns. The handler and what it captures are released as
/// soon as the subscription is cancelled. An owner going away is exact too: the owner is loaded, under
/// the lock, right before each call and held for its duration; if it is gone, the handler is not called.
public final class FrameSubscription: Sendable, CustomStringConvertible {
    /// The source this subscription receives frames from.
    public let source: FrameSource
    /// The range the subscription was made with (after clamping).
    public let frameRateRange: FrameRateRange
    /// Refreshes per frame: the divisor of the source's refresh rate that ``frameRateRange`` snapped to.
    public let frameInterval: Int
    let id: FrameSubscriberID
    /// `.owner` or `.handle`: what releasing this handle does (see ``Lifetime``).
    let binding: Lifetime.Binding
    /// The owner of an owner-bound subscription, to tell on release whether it is being deinitialised.
    let owner: WeakReference?

    init(
        source: FrameSource, id: FrameSubscriberID, binding: Lifetime.Binding, owner: WeakReference?,
        range: FrameRateRange, frameInterval: Int
    ) {
        self.source = source
        self.id = id
        self.binding = binding
        self.owner = owner
        self.frameRateRange = range
        self.frameInterval = frameInterval
    }

    deinit {
        // When the owner is being deinitialised (it held this handle), its weak reference already reads
        // nil: stop now rather than at the next refresh. A paused owner-bound subscription could never be
        // resumed without its handle; a handle-owned one is cancelled (and, released right after creation
        // before any frame, draws the "never fires" warning).
        source.release(Lifetime.release(of: binding, ownerReadsNil: owner?.object == nil), of: id)
    }

    /// The frame rate delivered, in hertz: the source's refresh rate divided by ``frameInterval``.
    public var frameRate: Double { source.refreshRate / Double(frameInterval) }

    /// The nominal time between frames: the source's nominal ``FrameSource/refreshInterval`` times
    /// ``frameInterval``. A frame's own ``FrameTick/duration`` comes from the exact refresh grid and may
    /// differ from it by a nanosecond.
    public var frameDuration: Duration { source.refreshInterval * frameInterval }

    /// `running`, `paused` or `cancelled`. Reading it costs the same whatever the number of subscribers; if
    /// the owner of an owner-bound subscription has gone away, it reads `cancelled` (and the subscription
    /// stops now).
    public var state: TickerState { source.subscriberState(id) }

    /// Stops delivering frames until ``resume()``. Does nothing unless running (pausing twice is
    /// harmless). If no other subscriber of the source runs, the source stops.
    public func pause() { source.perform(.pause, on: id) }

    /// Resumes a paused subscription: its next frame is at the first refresh of its grid after this call
    /// (the frames that passed while paused are not dropped frames). Does nothing otherwise (resuming
    /// twice, or after cancel, is harmless). Restarts the source if it was stopped.
    public func resume() { source.perform(.resume, on: id) }

    /// Ends the subscription for good and releases its handler. Safe to call twice, from any thread and
    /// from inside a handler. See the type's summary for the exact guarantee.
    public func cancel() { source.perform(.cancel, on: id) }

    /// A short human-readable description, for logs and test output.
    public var description: String {
        "FrameSubscription(\(frameRate) Hz, every \(frameInterval) refresh(es) of \(source.kind) "
            + "\(source.refreshRate) Hz: \(state))"
    }
}
