import Foundation
import TimerKitTestSupport
import XCTest

@testable import TimerKit

/// The main-actor subscription delivers on the main thread. XCTest, not Swift Testing: on Linux only
/// XCTest runs tests on the main thread, where `RunLoop.main` can be turned. (XCTest on Linux cannot call
/// `@MainActor` test methods, so the test asserts main-thread isolation itself.)
final class FrameMainActorTests: XCTestCase {
    @MainActor
    final class Animation {
        var frames: [FrameTick] = []
        var ranOnMainThread = true

        func step(_ frame: FrameTick) {
            frames.append(frame)
            ranOnMainThread = ranOnMainThread && Thread.isMainThread
        }
    }

    func testMainActorSubscriptionRunsOnTheMainThreadAndStopsWithItsOwner() {
        MainActor.assumeIsolated { Self.mainActorSubscriptionRunsOnTheMainThreadAndStopsWithItsOwner() }
    }

    @MainActor
    private static func mainActorSubscriptionRunsOnTheMainThreadAndStopsWithItsOwner() {
        // On Linux the display's source is the software one on the main run loop.
        let source = FrameSource.display(refreshRate: 100)
        XCTAssertEqual(source.context, .main)
        weak var weakAnimation: Animation?
        do {
            let animation = Animation()
            weakAnimation = animation
            // No source named: the main-actor form, on the display's source.
            FrameSource.subscribe(FrameRateRange(preferred: 50), refreshRate: 100, owner: animation) {
                animation, frame in
                animation.step(frame)
            }
            spinMainRunLoop { animation.frames.count >= 3 }
            XCTAssertGreaterThanOrEqual(animation.frames.count, 3)
            XCTAssertTrue(animation.ranOnMainThread)
            XCTAssertTrue(animation.frames.allSatisfy { $0.duration == .milliseconds(20) })
            XCTAssertEqual(animation.frames.map(\.index), animation.frames.map(\.index).sorted())
        }
        XCTAssertNil(weakAnimation, "the animation was retained by its subscription")
        spinMainRunLoop(until: { !source.isRunning }, timeout: 1)
        XCTAssertFalse(source.isRunning, "the source stops at the refresh after the owner went away")
        XCTAssertEqual(source.subscriberCount, 0)
    }
}
