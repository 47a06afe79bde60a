#if canImport(UIKit) && (os(iOS) || os(tvOS) || os(visionOS)) && !targetEnvironment(macCatalyst)
    // Apple-only: the display-link source on a real display (the iOS Simulator's included). Run by the
    // GitHub workflow's iOS Simulator test step; on Linux this file is empty. What each test checks is
    // listed in the DocC article "Platform notes".
    import UIKit
    import XCTest

    @testable import TimerKit

    /// The frames a handler saw (self-contained, so that the Linux check of this file needs nothing else).
    private final class FrameLog: Sendable {
        private let storage = Locked<[FrameTick]>.make([])

        func append(_ frame: FrameTick) { storage.withLock { $0.append(frame) } }
        var values: [FrameTick] { storage.withLock { $0 } }
        var count: Int { storage.withLock { $0.count } }
    }

    final class DisplayLinkTests: XCTestCase {
        /// `FrameSource.display()` is a display link in real time; its frames carry `CADisplayLink.timestamp`
        /// on TimerKit's uptime timeline, strictly increasing, and `targetTimestamp` one frame later.
        @MainActor
        func testDisplayFramesComeFromTheDisplayLinkOnTheUptimeTimeline() {
            let source = FrameSource.display()
            XCTAssertTrue(source.description.contains("display link"), source.description)
            let frames = FrameLog()
            let done = expectation(description: "ten frames")
            let before = TickClock.uptime.now
            let subscription = source.subscribe { frame in
                frames.append(frame)
                if frames.count == 10 { done.fulfill() }
            }
            wait(for: [done], timeout: 10)
            subscription.cancel()
            let after = TickClock.uptime.now
            let ticks = frames.values
            XCTAssertEqual(ticks.count, 10)
            for (earlier, later) in zip(ticks, ticks.dropFirst()) {
                XCTAssertLessThan(earlier.timestamp, later.timestamp, "timestamps go forward")
                XCTAssertLessThan(earlier.index, later.index)
            }
            // The display link's timestamps are CACurrentMediaTime() seconds: the same uptime clock.
            XCTAssertGreaterThanOrEqual(ticks[0].timestamp, before.advanced(by: .milliseconds(-100)))
            XCTAssertLessThanOrEqual(ticks[9].timestamp, after)
            XCTAssertGreaterThan(ticks[0].targetDeadline, ticks[0].deadline)
        }

        /// Without `CADisableMinimumFrameDurationOnPhone` in the app's Info.plist (a test bundle has none),
        /// an iPhone delivers at most 60 frames a second whatever `preferredFrameRateRange` asks: a 120 Hz
        /// source then reports the refreshes it missed as dropped frames, never more than 60 a second.
        @MainActor
        func testFramesNeverComeFasterThanTheScreenAllows() {
            let source = FrameSource.display(refreshRate: 120)
            let frames = FrameLog()
            let done = expectation(description: "thirty frames")
            let subscription = source.subscribe { frame in
                frames.append(frame)
                if frames.count == 30 { done.fulfill() }
            }
            wait(for: [done], timeout: 10)
            subscription.cancel()
            let ticks = frames.values
            let span = ticks[0].timestamp.duration(to: ticks[29].timestamp)
            let perSecond = 29 / (Double(span.components.seconds) + Double(span.components.attoseconds) / 1e18)
            let limit = Double(UIScreen.main.maximumFramesPerSecond)
            XCTAssertLessThanOrEqual(perSecond, limit * 1.1, "\(perSecond) frames a second on a \(limit) Hz screen")
        }
    }
#endif
