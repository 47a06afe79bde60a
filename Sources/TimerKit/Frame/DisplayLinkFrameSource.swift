#if canImport(UIKit) && (os(iOS) || os(tvOS) || os(visionOS)) && !targetEnvironment(macCatalyst)
    // Apple-only (iOS, tvOS, visionOS; Mac Catalyst and watchOS use the software source, as Linux does:
    // `preferredFrameRateRange` needs Catalyst 15, above the package's default, and watchOS has no display
    // link). The Linux CI (`.ci/run`) type-checks it against a model of Apple's documented API
    // (scripts/check-apple-paths.sh); the macOS job of the GitHub workflow builds it for the iOS Simulator. Written against Apple's CADisplayLink documentation; keep
    // it tiny. Everything it feeds — snapping, fan-out, dropped frames,
    // lifetimes — is FrameSource's, shared with the software source and tested there. CADisplayLink never
    // appears in public API.

    import Foundation
    import QuartzCore

    extension FrameSource {
        /// The shared display-link source for `refreshRate` on the main run loop (real time only).
        static func displayLinkSource(refreshRate: Double, file: StaticString, line: UInt) -> FrameSource? {
            let rate = checkedRefreshRate(refreshRate, file: file, line: line)
            let grid = RefreshGrid(refreshRate: rate)
            let key = FrameSourceKey(context: TickerContext.main.key, grid: grid, kind: "display link")
            return TimeBase.system.frameSourceRegistry.object(for: key, permanent: false) {
                FrameSource(
                    refreshRate: rate, grid: grid, kind: "display link",
                    driver: DisplayLinkRefreshDriver(refreshRate: rate, grid: grid))
            }
        }
    }

    /// Refreshes from a `CADisplayLink` on the main run loop in common modes (so frames keep coming while a
    /// scroll view tracks), asked for the display's refresh rate.
    struct DisplayLinkRefreshDriver: RefreshDriver {
        let refreshRate: Double
        /// The nominal refresh interval, to count the refreshes between two display-link callbacks. The
        /// instants themselves are the display link's timestamps.
        let intervalNanoseconds: Int64
        /// Numbers refreshes across runs, so that the refresh index keeps growing after a restart.
        let numbering = DisplayLinkGrid()

        init(refreshRate: Double, grid: RefreshGrid) {
            self.refreshRate = refreshRate
            self.intervalNanoseconds = grid.nominalIntervalNanoseconds
        }

        var context: TickerContext { .main }

        func start(for source: FrameSource) -> @Sendable () -> Void {
            let run = DisplayLinkRun(
                source: source, grid: numbering, refreshRate: Float(refreshRate), interval: intervalNanoseconds)
            onMain { run.start() }
            return { onMain { run.stop() } }
        }

        /// The host's monotonic uptime (`DispatchTime`), the clock of `CADisplayLink.timestamp` and of
        /// ``TickInstant`` on Apple platforms.
        func now() -> Int64 { TimeBase.Source.system.now() }
    }

    /// Runs `body` on the main thread: at once when called there, else queued on the main queue. A run's
    /// `start()` and `stop()` both come through here; `stop()` marks the run stopped, so a `start()` still
    /// queued behind a direct `stop()` does nothing.
    private func onMain(_ body: @escaping @MainActor @Sendable () -> Void) {
        if Thread.isMainThread {
            MainActor.assumeIsolated { body() }
        } else {
            DispatchQueue.main.async { body() }
        }
    }

    /// Turns display-link timestamps into refresh numbers: each callback adds the refreshes since the
    /// previous one (at least 1), so a display slightly off its nominal rate never fakes a dropped frame.
    @MainActor
    final class DisplayLinkGrid {
        private var last: (index: Int64, timestamp: Int64)?

        nonisolated init() {}

        func index(at timestamp: Int64, interval: Int64) -> Int64 {
            let index: Int64
            if let last {
                let elapsed = Double(timestamp - last.timestamp) / Double(interval)
                index = last.index + max(1, Int64(elapsed.rounded()))
            } else {
                index = Int64((Double(timestamp) / Double(interval)).rounded())
            }
            last = (index, timestamp)
            return index
        }
    }

    /// One run of a display link. The run holds its source while it runs (a running source keeps itself
    /// alive); the link holds only a weak proxy to the run, and `stop()` invalidates the link and lets the
    /// source go, so nothing is kept after the run ends.
    @MainActor
    private final class DisplayLinkRun {
        private var source: FrameSource?
        private let grid: DisplayLinkGrid
        private let refreshRate: Float
        private let interval: Int64
        private var link: CADisplayLink?
        private var stopped = false

        nonisolated init(source: FrameSource, grid: DisplayLinkGrid, refreshRate: Float, interval: Int64) {
            self.source = source
            self.grid = grid
            self.refreshRate = refreshRate
            self.interval = interval
        }

        func start() {
            guard !stopped else { return }
            let link = CADisplayLink(target: DisplayLinkProxy(self), selector: #selector(DisplayLinkProxy.step(_:)))
            link.preferredFrameRateRange = CAFrameRateRange(
                minimum: refreshRate, maximum: refreshRate, preferred: refreshRate)
            link.add(to: .main, forMode: .common)
            self.link = link
        }

        func stop() {
            stopped = true
            link?.invalidate()
            link = nil
            source = nil
        }

        func step(_ link: CADisplayLink) {
            guard !stopped, let source else { return }
            // `timestamp` is in CACurrentMediaTime() seconds: the host's monotonic uptime, the clock that
            // TickInstant (DispatchTime) uses on Apple platforms.
            let timestamp = Int64((link.timestamp * 1e9).rounded())
            source.refresh(index: grid.index(at: timestamp, interval: interval), timestamp: timestamp)
        }
    }

    /// The display link's target. The run loop retains the link and the link retains its target, so the
    /// target holds the run weakly: the link never keeps the run, the source or any subscriber alive.
    @MainActor
    private final class DisplayLinkProxy: NSObject {
        private weak var run: DisplayLinkRun?

        init(_ run: DisplayLinkRun) {
            self.run = run
            super.init()
        }

        @objc func step(_ link: CADisplayLink) {
            run?.step(link)
        }
    }
#else
    // Everywhere else (Linux, macOS, Mac Catalyst, watchOS) `FrameSource.display()` is a software source.
    extension FrameSource {
        static func displayLinkSource(refreshRate: Double, file: StaticString, line: UInt) -> FrameSource? { nil }
    }
#endif
