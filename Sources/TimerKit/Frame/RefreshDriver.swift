/// Where a frame source's refreshes come from: the software clock (``FrameSource/software(refreshRate:on:file:line:)``,
/// a one-shot ticker on the engine for each refresh) or, on UIKit platforms, a display link.
///
/// A driver only starts and stops refreshes and reads its clock; snapping, fan-out, dropped-frame
/// accounting and lifetimes live in ``FrameSource``, once.
protocol RefreshDriver: Sendable {
    /// The context refreshes are delivered on.
    var context: TickerContext { get }

    /// Starts calling `source.refresh(index:timestamp:)` on ``context``, once per refresh, until the
    /// returned closure is called. While running, the driver keeps `source` alive; stopping releases it.
    ///
    /// `index` numbers the refreshes on the source's grid and grows by the number of refreshes since the
    /// previous call (more than 1 after a stall); `timestamp` is that refresh's instant in nanoseconds on
    /// the source's timeline. The returned closure may be called from any thread, more than once.
    func start(for source: FrameSource) -> @Sendable () -> Void

    /// The current instant on the source's timeline, in nanoseconds (what ``FrameTick/timestamp`` reads).
    func now() -> Int64
}
