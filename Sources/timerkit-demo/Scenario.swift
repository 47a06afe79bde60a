import Dispatch
import Foundation
import TimerKit

/// How long each phase of a case lasts.
struct Timing {
    /// The screen's timer interval.
    var interval: Duration = .milliseconds(20)
    /// How long the screen stays pushed.
    var onScreen: Duration = .milliseconds(150)
    /// How long the demo watches for ticks after the pop.
    var afterPop: Duration = .milliseconds(150)
}

/// Which library call the screen uses to make its repeating timer.
enum Binding: String, CaseIterable, Codable {
    case foundationTimer = "foundation-timer"
    case foundationWeakTimer = "foundation-timer-weak-var"
    case owner
    case targetAction = "target-action"
    case handle
    case dropInTargetAction = "drop-in-target-action"
    case dropInOwnerBlock = "drop-in-owner-block"

    var library: Library {
        switch self {
        case .foundationTimer, .foundationWeakTimer: .foundation
        default: .timerKit
        }
    }

    /// A short name for the report's table.
    var label: String {
        switch self {
        case .foundationTimer: "block captures self"
        case .foundationWeakTimer: "... + weak var timer"
        case .owner: "owner: + closure"
        case .targetAction: "target: action:"
        case .handle: "handle in property"
        case .dropInTargetAction: "drop-in target: action:"
        case .dropInOwnerBlock: "drop-in owner: block:"
        }
    }

    /// The call as the screen writes it.
    var call: String {
        switch self {
        case .foundationTimer:
            "Timer(fire:interval:repeats:) { _ in self.timeStart() } on RunLoop.current; invalidate() in deinit"
        case .foundationWeakTimer:
            "the same, kept in `weak var timer`"
        case .owner:
            "Ticker.schedule(.every(i), on: context, owner: self) { owner, tick in owner.tick(tick) }"
        case .targetAction:
            "Ticker.schedule(.every(i), target: self, action: Screen.tick)  // main actor"
        case .handle:
            "self.ticker = Ticker.schedule(.every(i), on: context) { [weak self] tick in self?.tick(tick) }"
        case .dropInTargetAction:
            "Timer.scheduledTimer(timeInterval: i, target: self, action: Screen.timeStart, repeats: true)"
        case .dropInOwnerBlock:
            "Timer.scheduledTimer(withTimeInterval: i, repeats: true, owner: self) { owner, _ in owner.timeStart() }"
        }
    }

    /// The contexts the binding can run on. `Foundation.Timer` schedules on the current thread's run loop,
    /// and target–action and the Foundation look-alikes on the main actor's, so they have no
    /// dispatch-queue case.
    var contexts: [ContextKind] {
        switch self {
        case .owner, .handle: [.runLoop, .dispatch]
        default: [.runLoop]
        }
    }

    var screenType: ScreenViewController.Type {
        switch self {
        case .foundationTimer: FoundationTimerScreen.self
        case .foundationWeakTimer: FoundationWeakTimerScreen.self
        case .owner: OwnerBoundScreen.self
        case .targetAction: TargetActionScreen.self
        case .handle: HandleOwnedScreen.self
        case .dropInTargetAction: DropInTargetActionScreen.self
        case .dropInOwnerBlock: DropInOwnerBlockScreen.self
        }
    }
}

enum Library: String, Codable {
    case foundation = "Foundation"
    case timerKit = "TimerKit"
}

/// Where the screen's timer runs.
enum ContextKind: String, Codable {
    /// `RunLoop.main`, which the demo's main thread runs between pushes and pops.
    case runLoop
    /// A serial dispatch queue.
    case dispatch

    var label: String {
        switch self {
        case .runLoop: "run loop"
        case .dispatch: "dispatch"
        }
    }

    private static let queue = DispatchQueue(label: "timerkit-demo.screen-updates")

    var tickerContext: TickerContext {
        switch self {
        case .runLoop: .main
        case .dispatch: .dispatch(Self.queue)
        }
    }
}

enum Verdict: String, Codable {
    /// The screen was deinitialised at the pop and its timer never fired again.
    case ok = "OK"
    /// The screen outlived its pop, or its timer kept firing.
    case leak = "LEAK"
    /// The timer never fired while the screen was shown, so the case proves nothing.
    case silent = "SILENT"
}

/// One row of the report.
struct CaseResult: Codable {
    let binding: Binding
    let library: Library
    let context: ContextKind
    let ownerDeinitialised: Bool
    let ticksOnScreen: Int
    let ticksAfterPop: Int
    let verdict: Verdict
    let expectedVerdict: Verdict

    var isExpected: Bool { verdict == expectedVerdict }
}

/// A navigation stack reduced to what matters here: it holds the screens it shows, and popping drops
/// the last reference the app has to a screen.
@MainActor
final class NavigationStack {
    private var screens: [ScreenViewController] = []

    func push(_ screen: ScreenViewController) {
        screens.append(screen)
        screen.viewDidAppear()
    }

    func pop() {
        screens.removeLast()
    }
}

/// Runs the seeds' scenario for one binding on one context: push a screen, show it, pop it, watch.
@MainActor
struct Scenario {
    let binding: Binding
    let context: ContextKind
    let timing: Timing

    /// Screens that outlived their case, with the ticks counted after their pop when their case ended,
    /// so that the report can show that they are still ticking.
    private(set) static var survivors: [(probe: Probe, ticksAfterPop: Int)] = []

    func run() -> CaseResult {
        let navigation = NavigationStack()
        let probe = Probe()
        weak var screen: ScreenViewController?
        do {
            let pushed = binding.screenType.init(
                probe: probe, context: context.tickerContext, interval: timing.interval)
            screen = pushed
            navigation.push(pushed)
        }
        runMainRunLoop(for: timing.onScreen)
        navigation.pop()
        probe.recordPop()
        runMainRunLoop(for: timing.afterPop)

        let reading = probe.reading
        let deinitialised = reading.deinitialised && screen == nil
        if !deinitialised { Self.survivors.append((probe, reading.ticksAfterPop)) }
        let verdict: Verdict =
            if !deinitialised || reading.ticksAfterPop > 0 {
                .leak
            } else if reading.ticksOnScreen == 0 {
                .silent
            } else {
                .ok
            }
        return CaseResult(
            binding: binding,
            library: binding.library,
            context: context,
            ownerDeinitialised: deinitialised,
            ticksOnScreen: reading.ticksOnScreen,
            ticksAfterPop: reading.ticksAfterPop,
            verdict: verdict,
            expectedVerdict: binding.library == .foundation ? .leak : .ok
        )
    }

    /// How many surviving screens there are, and how often they ticked since their case was measured.
    static func survivorsStillTicking() -> (screens: Int, ticksSinceMeasured: Int) {
        let ticks = survivors.reduce(0) { $0 + $1.probe.reading.ticksAfterPop - $1.ticksAfterPop }
        return (survivors.count, ticks)
    }

    /// Every case, Foundation's first.
    static func all(timing: Timing) -> [Scenario] {
        Binding.allCases.flatMap { binding in
            binding.contexts.map { Scenario(binding: binding, context: $0, timing: timing) }
        }
    }
}

/// Runs the main thread's run loop (where run-loop cases tick) for `duration`, sleeping instead while
/// the loop has nothing to run.
@MainActor
func runMainRunLoop(for duration: Duration) {
    let end = Date(timeIntervalSinceNow: duration.seconds)
    while end.timeIntervalSinceNow > 0 {
        if !RunLoop.main.run(mode: .default, before: end) {
            Thread.sleep(forTimeInterval: min(0.005, max(0, end.timeIntervalSinceNow)))
        }
    }
}
