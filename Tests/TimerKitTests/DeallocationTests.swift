import Foundation
import Testing
import TimerKitTestSupport

@testable import TimerKit

/// The seeds' scenario on real contexts: a screen with a repeating timer is pushed (ticks), then popped
/// (its last strong reference goes). With every TimerKit binding the screen is deinitialised and the
/// ticking stops; with plain `Foundation.Timer` (the control case) it is not.
@Suite struct DeallocationTests {
    init() { LogCapture.install() }

    enum Binding: String, CaseIterable, Sendable {
        case ownerClosure
        case handleInProperty
    }

    /// Schedules `binding` for `screen` on `context`; every handler also counts into `fires`. (Target–action
    /// and the Foundation look-alikes exist on the main actor only: MainActorDeallocationTests covers them
    /// on the main run loop.)
    static func schedule(_ binding: Binding, screen: Screen, on context: TickerContext, fires: Recorder<Int>) {
        let interval = Duration.milliseconds(5)
        switch binding {
        case .ownerClosure:
            Ticker.schedule(.every(interval), on: context, owner: screen) { owner, tick in
                owner.tick(tick)
                fires.append(1)
            }
        case .handleInProperty:
            screen.ticker = Ticker.schedule(.every(interval), on: context) { [weak screen] tick in
                screen?.tick(tick)
                fires.append(1)
            }
        }
    }

    /// Every binding on every context.
    static let cases: [(Binding, ContextKind)] = Binding.allCases.flatMap { binding in
        ContextKind.allCases.map { kind in (binding, kind) }
    }

    @Test
    func screenIsDeinitialisedAtPopAndTickingStops() throws {
        for (binding, kind) in Self.cases as [(Binding, ContextKind)] {
            try Self().screenIsDeinitialisedAtPopAndTickingStops(binding: binding, kind: kind)
        }
    }

    func screenIsDeinitialisedAtPopAndTickingStops(binding: Binding, kind: ContextKind) throws {
        let live = LiveContext(kind)
        defer { live.tearDown() }
        let tracker = LifetimeTracker()
        let fires = Recorder<Int>()
        weak var weakScreen: Screen?
        do {
            let screen = Screen(tracker: tracker)
            weakScreen = screen
            Self.schedule(binding, screen: screen, on: live.context, fires: fires)
            // Pushed: it ticks.
            #expect(
                eventually { screen.ticks >= 3 && fires.count >= 3 },
                "the screen never ticked; binding \(binding), kind \(kind)")
        }
        // Popped: the last strong reference is gone (a delivery in flight may hold it for a moment).
        #expect(eventually { weakScreen == nil }, "the screen was not deinitialised; binding \(binding), kind \(kind)")
        #expect(tracker.live == 0, "binding \(binding), kind \(kind)")
        live.drain()
        let afterPop = fires.count
        Thread.sleep(forTimeInterval: 0.05)  // ten intervals: absence of ticks, not timing, is asserted
        live.drain()
        #expect(
            fires.count == afterPop, "ticks continued after the screen was popped; binding \(binding), kind \(kind)")
        #expect(
            eventually { live.liveTickers == 0 },
            "the engine still holds live tickers; binding \(binding), kind \(kind)")
    }

    /// The control case: a plain `Foundation.Timer` whose block captures the screen strongly (the Swift
    /// form of `target: self`), invalidated only in `deinit`, keeps the screen alive and ticking.
    @Test func foundationTimerKeepsTheScreenAliveAndTicking() {
        let thread = RunLoopThread()
        defer { thread.stop() }
        // A lifetime tracker, not a weak reference: the leaked screen lives for ever, and so would a weak
        // reference's side table.
        let tracker = LifetimeTracker()
        let fires = Recorder<Int>()
        let timerBox = Recorder<TimerReference>()
        do {
            let screen = Screen(tracker: tracker)
            let block: @Sendable (Foundation.Timer) -> Void = { _ in
                screen.refresh()
                fires.append(1)
            }
            FoundationLeakQuarantine.keep(block)
            let done = DispatchSemaphore(value: 0)
            thread.runLoop.perform {
                let timer = Foundation.Timer(timeInterval: 0.005, repeats: true, block: block)
                timer.fireDate = Date().addingTimeInterval(0.005)  // Linux: otherwise it fires at once (4712)
                RunLoop.current.add(timer, forMode: .common)
                timerBox.append(TimerReference(timer: timer))
                done.signal()
            }
            done.wait()
            #expect(eventually { fires.count >= 3 })
        }
        // Popped: but the run loop holds the timer and the timer's block holds the screen.
        #expect(tracker.live == 1, "the leak this library prevents did not happen")
        let firesAtPop = fires.count
        #expect(eventually { fires.count > firesAtPop + 2 }, "the leaked screen stopped ticking")
        #expect(tracker.live == 1)
        // Clean up on the timer's own thread (the timer itself is never freed on Linux).
        let cleaned = DispatchSemaphore(value: 0)
        thread.runLoop.perform {
            timerBox.values.first?.timer.invalidate()
            cleaned.signal()
        }
        cleaned.wait()
    }
}
