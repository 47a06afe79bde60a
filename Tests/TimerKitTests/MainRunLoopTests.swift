import Foundation
import TimerKitTestSupport
import XCTest

@testable import TimerKit

/// The main-actor forms deliver on the main run loop. XCTest, not Swift Testing: on Linux only XCTest
/// runs tests on the main thread, where `RunLoop.main` can be turned. (XCTest on Linux cannot call
/// `@MainActor` test methods, so each test asserts main-thread isolation itself.)
final class MainRunLoopTests: XCTestCase {
    @MainActor
    final class ViewModel {
        var ticks: [Tick] = []
        var refreshes = 0
        var ranOnMainThread = true
        func tick(_ tick: Tick) {
            ticks.append(tick)
            ranOnMainThread = ranOnMainThread && Thread.isMainThread
        }
        func refresh(_ tick: Tick) { refreshes += 1 }
    }

    func testOwnerBoundMainActorTickerRunsOnTheMainThreadAndStopsWithItsOwner() {
        MainActor.assumeIsolated { Self.ownerBoundMainActorTickerRunsOnTheMainThreadAndStopsWithItsOwner() }
    }

    func testHandleOwnedMainActorTickerStopsWhenTheHandleIsReleased() {
        MainActor.assumeIsolated { Self.handleOwnedMainActorTickerStopsWhenTheHandleIsReleased() }
    }

    @MainActor
    private static func ownerBoundMainActorTickerRunsOnTheMainThreadAndStopsWithItsOwner() {
        weak var weakModel: ViewModel?
        do {
            let model = ViewModel()
            weakModel = model
            Ticker.schedule(.every(.milliseconds(5)), owner: model) { model, tick in model.tick(tick) }
            Ticker.schedule(.every(.milliseconds(5)), target: model, action: ViewModel.refresh)
            spinMainRunLoop { model.ticks.count >= 3 && model.refreshes >= 3 }
            XCTAssertGreaterThanOrEqual(model.ticks.count, 3)
            XCTAssertTrue(model.ranOnMainThread)
            XCTAssertEqual(model.ticks.map(\.index), Array(model.ticks.map(\.index)).sorted())
        }
        XCTAssertNil(weakModel, "the view model was retained by its tickers")
        spinMainRunLoop(until: { TimeBase.system.engine(for: .main).liveCount() == 0 }, timeout: 1)
        XCTAssertEqual(TimeBase.system.engine(for: .main).liveCount(), 0)
    }

    @MainActor
    private static func handleOwnedMainActorTickerStopsWhenTheHandleIsReleased() {
        let model = ViewModel()
        var ticker: Ticker? = Ticker.schedule(.every(.milliseconds(5))) { [weak model] tick in model?.tick(tick) }
        spinMainRunLoop { model.ticks.count >= 2 }
        XCTAssertEqual(ticker?.state, .running)
        ticker = nil
        let count = model.ticks.count
        RunLoop.main.run(until: Date().addingTimeInterval(0.03))
        XCTAssertEqual(model.ticks.count, count, "ticks continued after the handle was released")
    }

    func testMainActorModesDecideWhenTheTickerFires() {
        MainActor.assumeIsolated { Self.mainActorModesDecideWhenTheTickerFires() }
    }

    /// A carousel's `[.default]` ticker waits while the main run loop runs in another mode (as it does
    /// while a scroll view tracks a drag); a ticker scheduled for that mode too keeps firing.
    @MainActor
    private static func mainActorModesDecideWhenTheTickerFires() {
        let tracking = RunLoop.Mode("TimerKitTests.tracking")
        let model = ViewModel()
        var tracked = 0
        let carousel = Ticker.schedule(.every(.milliseconds(5)), modes: [.default], owner: model) { model, tick in
            model.tick(tick)
        }
        let follower = Ticker.schedule(.every(.milliseconds(5)), modes: [.default, tracking]) { _ in tracked += 1 }
        let end = Date().addingTimeInterval(0.1)
        while Date() < end {
            _ = RunLoop.main.run(mode: tracking, before: end)
        }
        XCTAssertEqual(model.ticks.count, 0, "a [.default] ticker fired while the loop ran in another mode")
        XCTAssertGreaterThan(tracked, 0, "the ticker scheduled for the running mode did not fire")
        spinMainRunLoop { model.ticks.count >= 1 }
        // Back in the default mode it fires, and its first tick stands for the deadlines missed meanwhile.
        XCTAssertGreaterThanOrEqual(model.ticks.count, 1)
        XCTAssertGreaterThan(model.ticks.first?.skipped ?? 0, 0, "the missed deadlines were not skipped")
        carousel.cancel()
        follower.cancel()
    }

    func testACommonModesTickerFiresInEveryCommonModeAfterASwitch() {
        MainActor.assumeIsolated { Self.aCommonModesTickerFiresInEveryCommonModeAfterASwitch() }
    }

    /// Issue 21, item 6, on the main run loop: a ticker in the default common modes keeps firing in each
    /// common mode across switches (a scroll view tracks, then lets go), also with another timer on the
    /// loop (a CFRunLoop timer whose fire date is set from its own callout is re-armed only in the mode it
    /// fired in, which silenced the ticker after each switch).
    @MainActor
    private static func aCommonModesTickerFiresInEveryCommonModeAfterASwitch() {
        // The main engine's timer is in the loop's common modes already; this adds the mode to them.
        let tracking = RunLoop.Mode("TimerKitTests.MainRunLoopTests.commonTracking")
        addToCurrentRunLoopsCommonModes(tracking)
        let keepAlive = Foundation.Timer(fire: .distantFuture, interval: 1e9, repeats: true) { _ in }
        RunLoop.main.add(keepAlive, forMode: .common)
        defer { keepAlive.invalidate() }
        var deliveredIn: [String] = []
        let ticker = Ticker.schedule(.every(.milliseconds(5))) { _ in
            deliveredIn.append(RunLoop.main.currentMode?.rawValue ?? "none")
        }
        defer { ticker.cancel() }
        for mode in [tracking, .default, tracking, .default] {
            let before = deliveredIn.count
            spinCurrentRunLoop(in: mode, until: { deliveredIn.count - before >= 3 }, timeout: 2)
            let phase = deliveredIn[before...]
            XCTAssertFalse(phase.isEmpty, "no delivery while the main run loop ran in \(mode.rawValue)")
            XCTAssertTrue(phase.allSatisfy { $0 == mode.rawValue }, "delivered outside \(mode.rawValue)")
        }
    }
}
