import Foundation
import TimerKitTestSupport
import XCTest

@testable import TimerKit

/// The main-actor forms of Debouncer and Throttler deliver on the main thread, isolated to the main
/// actor. XCTest, not Swift Testing: on Linux only XCTest runs tests on the main thread, where virtual
/// time can be advanced for main-actor handlers and `RunLoop.main` can be turned (see MainRunLoopTests).
final class DebounceMainActorTests: XCTestCase {
    @MainActor
    final class SearchModel {
        let tracker: LifetimeTracker
        var queries: [String] = []
        var positions: [Double] = []
        var ranOnMainThread = true

        lazy var search = Debouncer<String>(interval: .milliseconds(300), owner: self) { model, query in
            model.queries.append(query)
            model.ranOnMainThread = model.ranOnMainThread && Thread.isMainThread
        }

        lazy var scroll = Throttler<Double>(interval: .milliseconds(100), owner: self) { model, position in
            model.positions.append(position)
            model.ranOnMainThread = model.ranOnMainThread && Thread.isMainThread
        }

        init(tracker: LifetimeTracker) {
            self.tracker = tracker
            tracker.instanceMade()
        }

        deinit { tracker.instanceGone() }
    }

    func testOwnerBoundMainActorFormsDeliverOnTheMainThreadUnderVirtualTime() {
        MainActor.assumeIsolated { Self.ownerBoundMainActorFormsDeliverOnTheMainThreadUnderVirtualTime() }
    }

    func testOwnerBoundMainActorFormsDoNotRetainTheirOwner() {
        MainActor.assumeIsolated { Self.ownerBoundMainActorFormsDoNotRetainTheirOwner() }
    }

    func testHandleOwnedMainActorFormsDeliverOnTheMainThreadAndStopWhenReleased() {
        MainActor.assumeIsolated { Self.handleOwnedMainActorFormsDeliverOnTheMainThreadAndStopWhenReleased() }
    }

    func testMainActorThrottlerDeliversOnTheMainRunLoopForValuesSentFromOtherThreads() {
        MainActor.assumeIsolated { Self.mainActorThrottlerDeliversOnTheMainRunLoopForValuesSentFromOtherThreads() }
    }

    @MainActor
    private static func ownerBoundMainActorFormsDeliverOnTheMainThreadUnderVirtualTime() {
        let time = VirtualTime()
        let model = SearchModel(tracker: LifetimeTracker())
        time.run {
            // The lazy properties make their rate limiters here, on virtual time.
            for query in ["s", "sw", "swi", "swift"] { model.search.send(query) }
            for position in [0.0, 10, 20, 30] { model.scroll.send(position) }
        }
        XCTAssertTrue(model.queries.isEmpty && model.positions.isEmpty, "delivered inside send")
        time.advance(by: .seconds(1))
        XCTAssertEqual(model.queries, ["swift"])
        XCTAssertEqual(model.positions, [0, 30])
        XCTAssertTrue(model.ranOnMainThread)
    }

    @MainActor
    private static func ownerBoundMainActorFormsDoNotRetainTheirOwner() {
        let time = VirtualTime()
        let tracker = LifetimeTracker()
        weak var weakModel: SearchModel?
        do {
            let model = SearchModel(tracker: tracker)
            weakModel = model
            time.run {
                model.search.send("pending")
                model.scroll.send(1)
            }
            time.advance(by: .zero)  // delivers the throttler's leading value
            XCTAssertEqual(model.positions, [1])
            model.scroll.send(2)
        }
        XCTAssertNil(weakModel, "the model was retained by its rate limiters")
        XCTAssertEqual(tracker.live, 0)
        time.advance(by: .seconds(1))
        XCTAssertEqual(time.base.engine(for: .main).liveCount(), 0)
    }

    @MainActor
    private static func handleOwnedMainActorFormsDeliverOnTheMainThreadAndStopWhenReleased() {
        let time = VirtualTime()
        let delivered = Recorder<String>()
        var debouncer: Debouncer<String>? = time.run {
            Debouncer<String>(interval: .milliseconds(50)) { value in
                MainActor.assertIsolated()
                delivered.append(value + (Thread.isMainThread ? "" : " off main"))
            }
        }
        let throttler = time.run {
            Throttler<String>(interval: .milliseconds(50), edges: .trailing) { value in
                delivered.append(value + (Thread.isMainThread ? "" : " off main"))
            }
        }
        debouncer?.send("a")
        throttler.send("b")
        time.advance(by: .seconds(1))
        XCTAssertEqual(delivered.values, ["a", "b"])
        debouncer?.send("c")
        debouncer = nil
        time.advance(by: .seconds(1))
        XCTAssertEqual(delivered.values, ["a", "b"], "delivered after the debouncer was released")
    }

    @MainActor
    private static func mainActorThrottlerDeliversOnTheMainRunLoopForValuesSentFromOtherThreads() {
        let model = SearchModel(tracker: LifetimeTracker())
        let scroll = model.scroll
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<100 { scroll.send(Double(thread * 1_000 + index)) }
        }
        scroll.send(-1)
        spinMainRunLoop { model.positions.last == -1 }
        XCTAssertEqual(model.positions.last, -1)
        XCTAssertGreaterThanOrEqual(model.positions.count, 2)
        XCTAssertTrue(model.ranOnMainThread)
        scroll.cancel()
    }
}
