extension FrameSource {
    /// The slowest refresh rate a source accepts: 1 Hz.
    public static let minimumRefreshRate = 1.0
    /// The fastest refresh rate a source accepts: 1000 Hz.
    public static let maximumRefreshRate = 1_000.0

    /// The shared software frame source for `refreshRate` on `context`, made on first use.
    ///
    /// Its refreshes come from one internal repeating ticker (``TickSchedule/every(_:after:tolerance:count:clock:)``
    /// with the refresh interval) on `context`, so it follows the engine's rules: refresh k is at
    /// `origin + k·refreshInterval` on the monotonic clock without drift, where the origin is the moment
    /// the source was made; a late context skips refreshes (they become ``FrameTick/droppedFrames``); and
    /// virtual time drives it like any ticker. The ticker exists only while the source has a running
    /// subscriber (``TickerDiagnostics/liveTickers()`` lists it then), and a restart stays on the grid.
    ///
    /// Calls with the same refresh interval and context, on the same time base (the system clock, or one
    /// test's virtual time), return the same source while it is alive.
    ///
    /// - Parameters:
    ///   - refreshRate: refreshes per second, default 60. Clamped to
    ///     ``minimumRefreshRate``...``maximumRefreshRate`` (zero, negative and infinite rates included; in
    ///     debug builds the clamp is logged). NaN stops the program with a message.
    ///   - context: where frame handlers run, default `.main` (the main run loop in common modes; on Linux
    ///     the main thread must run `RunLoop.main`). Pass a dispatch context to run them on a queue.
    public static func software(refreshRate: Double = 60, on context: TickerContext = .main) -> FrameSource {
        let (rate, interval) = checkedRefreshRate(refreshRate)
        let base = TimeBase.current
        let key = FrameSourceKey(context: context.key, interval: interval, kind: "software")
        return base.frameSourceRegistry.object(for: key, permanent: false) {
            FrameSource(
                refreshRate: rate, intervalNanoseconds: interval, kind: "software",
                driver: SoftwareRefreshDriver(context: context, intervalNanoseconds: interval, timeBase: base))
        }
    }

    /// The shared frame source of the display: on iOS, tvOS and visionOS a `CADisplayLink` on the main run
    /// loop (common modes), asked for `refreshRate`; elsewhere (Linux, macOS, Mac Catalyst, watchOS), and
    /// under virtual time everywhere, the ``software(refreshRate:on:)`` source for `refreshRate` on `.main`.
    ///
    /// Handlers run on the main thread. Pass the screen's maximum rate (for example
    /// `view.window?.windowScene?.screen.maximumFramesPerSecond`) so that subscribers can snap to it; on a
    /// device that delivers fewer refreshes than asked (a ProMotion iPhone without
    /// `CADisableMinimumFrameDurationOnPhone`), the missing refreshes show up as dropped frames of the
    /// fastest subscribers.
    ///
    /// - Parameter refreshRate: the display's refresh rate in hertz, default 60; clamped as in
    ///   ``software(refreshRate:on:)``.
    public static func display(refreshRate: Double = 60) -> FrameSource {
        #if canImport(UIKit) && (os(iOS) || os(tvOS) || os(visionOS)) && !targetEnvironment(macCatalyst)
            if case .system = TimeBase.current.source {
                let (rate, interval) = checkedRefreshRate(refreshRate)
                let key = FrameSourceKey(context: TickerContext.main.key, interval: interval, kind: "display link")
                return TimeBase.system.frameSourceRegistry.object(for: key, permanent: false) {
                    FrameSource(
                        refreshRate: rate, intervalNanoseconds: interval, kind: "display link",
                        driver: DisplayLinkRefreshDriver(refreshRate: rate, intervalNanoseconds: interval))
                }
            }
        #endif
        return software(refreshRate: refreshRate, on: .main)
    }

    /// The refresh rate clamped to the accepted range, and its interval in nanoseconds (rounded).
    static func checkedRefreshRate(_ rate: Double) -> (rate: Double, intervalNanoseconds: Int64) {
        precondition(!rate.isNaN, "TimerKit: the refresh rate is NaN; pass refreshes per second")
        let clamped = min(max(rate, minimumRefreshRate), maximumRefreshRate)
        if clamped != rate {
            Diagnostics.warn("refresh rate \(rate) Hz is outside 1...1000 Hz; clamped to \(clamped) Hz")
        }
        return (clamped, Int64((1e9 / clamped).rounded()))
    }
}

/// What makes two frame sources the same, within one time base (each time base keeps its own sources).
struct FrameSourceKey: Hashable, Sendable {
    let context: ContextKey
    let interval: Int64
    let kind: String
}
