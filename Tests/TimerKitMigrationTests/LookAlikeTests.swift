import Foundation
import TimerKit
import TimerKitMigration
import TimerKitTestSupport
import XCTest

/// The `Foundation.Timer` look-alikes and main-actor target–action, as the seeds' screens use them: the
/// screen is deinitialised at pop and its timer stops. XCTest, not Swift Testing: on Linux only XCTest runs
/// tests on the main thread, where `RunLoop.main` can be turned. (XCTest on Linux cannot call `@MainActor`
/// test methods, so each test enters the main actor itself.)
final class LookAlikeTests: XCTestCase {
    @MainActor
    final class Screen {
        static var live = 0
        var ticks = 0
        var timer: Ticker?

        init() { Self.live += 1 }
        isolated deinit { Self.live -= 1 }

        func timeStart() { ticks += 1 }
        func refresh(_ ticker: Ticker) { ticks += 1 }
        func tick(_ tick: Tick) { ticks += 1 }
    }

    enum Binding: CaseIterable {
        case targetAction, lookAlikeTarget, lookAlikeTargetTakingTicker, lookAlikeBlock
    }

    func testEveryMainActorBindingLetsTheScreenGoAndStops() {
        MainActor.assumeIsolated {
            for binding in Binding.allCases { Self.screenGoesAtPop(binding) }
        }
    }

    @MainActor
    private static func screenGoesAtPop(_ binding: Binding) {
        weak var weakScreen: Screen?
        var handle: Ticker?
        do {
            let screen = Screen()
            weakScreen = screen
            switch binding {
            case .targetAction:
                handle = Ticker.schedule(.every(.milliseconds(5)), target: screen, action: Screen.tick)
            case .lookAlikeTarget:
                handle = Timer.scheduledTimer(
                    timeInterval: 0.005, target: screen, action: Screen.timeStart,
                    repeats: true)
            case .lookAlikeTargetTakingTicker:
                handle = Timer.scheduledTimer(
                    timeInterval: 0.005, target: screen, action: Screen.refresh,
                    repeats: true)
            case .lookAlikeBlock:
                handle = Timer.scheduledTimer(withTimeInterval: 0.005, repeats: true, owner: screen) { screen, _ in
                    screen.timeStart()
                }
            }
            screen.timer = handle
            spinMainRunLoop { screen.ticks >= 3 }
            XCTAssertGreaterThanOrEqual(screen.ticks, 3, "\(binding): the screen never ticked")
        }
        XCTAssertNil(weakScreen, "\(binding): the screen was retained by its timer")
        XCTAssertEqual(Screen.live, 0, "\(binding)")
        spinMainRunLoop(until: { handle?.state == .cancelled }, timeout: 1)
        XCTAssertEqual(handle?.state, .cancelled, "\(binding): the ticker did not stop with its target")
    }

    func testInvalidateAndIsValidAreTheFoundationSpellings() {
        MainActor.assumeIsolated {
            let screen = Screen()
            var fired = 0
            let ticker = Timer.scheduledTimer(withTimeInterval: 0.005, repeats: true, owner: screen) { _, ticker in
                fired += 1
                if fired == 2 { ticker.invalidate() }
            }
            XCTAssertTrue(ticker.isValid)
            spinMainRunLoop { !ticker.isValid }
            XCTAssertFalse(ticker.isValid)
            XCTAssertEqual(fired, 2, "invalidate() inside the block stops the timer at once")
            XCTAssertEqual(ticker.state, .cancelled)
        }
    }

    func testAZeroOrNegativeIntervalBecomesATenthOfAMillisecond() {
        MainActor.assumeIsolated {
            let screen = Screen()
            let ticker = Timer.scheduledTimer(
                timeInterval: -3, target: screen, action: Screen.timeStart, repeats: false)
            XCTAssertEqual(ticker.snapshot?.schedule.firstDelay, .microseconds(100))
            ticker.cancel()
        }
    }
}
