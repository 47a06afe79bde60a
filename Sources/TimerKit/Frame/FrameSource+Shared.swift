extension FrameSource {
    /// The slowest refresh rate a source accepts: 1 Hz.
    public static let minimumRefreshRate = 1.0
    /// The fastest refresh rate a source accepts: 1000 Hz.
    public static let maximumRefreshRate = 1_000.0

    /// The shared software frame source for `refreshRate` on `context`, made on first use.
    ///
    /// Its refreshes come from internal one-shot tickers on `context`, one per refresh, each made for the
    /// next refresh's exact instant: refresh k is at `origin + k × 10⁹ / refreshRate` ns on the monotonic
    /// clock (each instant rounded to the nanosecond on its own, so there is neither drift nor
    /// accumulated rounding: 2 s of 60 Hz are exactly 120 refreshes), where the origin is the moment the
    /// source was made. A late context skips refreshes (they become ``FrameTick/droppedFrames``), and
    /// virtual time drives the source like any ticker. One internal ticker is pending while the source has
    /// a running subscriber (``TickerDiagnostics/liveTickers()`` lists it then), none otherwise, and a
    /// restart stays on the grid.
    ///
    /// Calls with the same refresh rate (to the micro-hertz) and context, on the same time base (the
    /// system clock, or one test's virtual time), return the same source while it is alive.
    ///
    /// - Parameters:
    ///   - refreshRate: refreshes per second, default 60. Clamped to
    ///     ``minimumRefreshRate``...``maximumRefreshRate`` (zero, negative and infinite rates included; in
    ///     debug builds the clamp is logged). NaN stops the program with a message naming `file` and `line`.
    ///   - context: where frame handlers run, default `.main` (the main run loop in common modes; on Linux
    ///     the main thread must run `RunLoop.main`). Pass a dispatch context to run them on a queue.
    ///   - file: the caller's file, named by the message for a NaN rate (filled in by the compiler).
    ///   - line: the caller's line (filled in by the compiler).
    public static func software(
        refreshRate: Double = 60, on context: TickerContext = .main, file: StaticString = #fileID, line: UInt = #line
    ) -> FrameSource {
        let rate = checkedRefreshRate(refreshRate, file: file, line: line)
        let grid = RefreshGrid(refreshRate: rate)
        let base = TimeBase.current
        let key = FrameSourceKey(context: context.key, grid: grid, kind: "software")
        return base.frameSourceRegistry.object(for: key, permanent: false) {
            FrameSource(
                refreshRate: rate, grid: grid, kind: "software",
                driver: SoftwareRefreshDriver(context: context, grid: grid, timeBase: base))
        }
    }

    /// The shared frame source of the display: on iOS, tvOS and visionOS a `CADisplayLink` on the main run
    /// loop (common modes), asked for `refreshRate`; elsewhere (Linux, macOS, Mac Catalyst, watchOS), and
    /// under virtual time everywhere, the ``software(refreshRate:on:file:line:)`` source for `refreshRate` on `.main`.
    ///
    /// Handlers run on the main thread. Pass the screen's maximum rate (for example
    /// `view.window?.windowScene?.screen.maximumFramesPerSecond`) so that subscribers can snap to it; on a
    /// device that delivers fewer refreshes than asked (a ProMotion iPhone without
    /// `CADisableMinimumFrameDurationOnPhone`), the missing refreshes show up as dropped frames of the
    /// fastest subscribers.
    ///
    /// - Parameters:
    ///   - refreshRate: the display's refresh rate in hertz, default 60; clamped as in
    ///     ``software(refreshRate:on:file:line:)``, and NaN stops the program with a message naming `file`
    ///     and `line`.
    ///   - file: the caller's file (filled in by the compiler).
    ///   - line: the caller's line (filled in by the compiler).
    public static func display(refreshRate: Double = 60, file: StaticString = #fileID, line: UInt = #line)
        -> FrameSource
    {
        if case .system = TimeBase.current.source,
            let source = displayLinkSource(refreshRate: refreshRate, file: file, line: line)
        {
            return source
        }
        return software(refreshRate: refreshRate, on: .main, file: file, line: line)
    }

    /// The refresh rate clamped to the accepted range.
    static func checkedRefreshRate(_ rate: Double, file: StaticString, line: UInt) -> Double {
        Diagnostics.require(
            !rate.isNaN, "TimerKit: the refresh rate is NaN; pass refreshes per second", file: file, line: line)
        let clamped = min(max(rate, minimumRefreshRate), maximumRefreshRate)
        if clamped != rate {
            Diagnostics.warn("refresh rate \(rate) Hz is outside 1...1000 Hz; clamped to \(clamped) Hz")
        }
        return clamped
    }
}

/// What makes two frame sources the same, within one time base (each time base keeps its own sources).
struct FrameSourceKey: Hashable, Sendable {
    let context: ContextKey
    let grid: RefreshGrid
    let kind: String
}
