import Foundation
import TimerKit
import TimerKitMigration

/// A view controller as the seeds wrote it: it starts a repeating timer when it appears and relies on
/// being deinitialised when it is popped. Subclasses differ only in how they make the timer.
class ScreenViewController: @unchecked Sendable {
    // Invariant: the subclasses' `timer`/`ticker` properties are written once, in `viewDidAppear()` on
    // the thread that pushes the screen, and otherwise touched only in `deinit`, when no other thread
    // holds the screen. Tick handlers, which may run on a dispatch queue, touch only `probe` (Sendable).
    let probe: Probe
    let context: TickerContext
    let interval: Duration

    required init(probe: Probe, context: TickerContext, interval: Duration) {
        self.probe = probe
        self.context = context
        self.interval = interval
    }

    deinit {
        probe.recordDeinit()
    }

    /// Starts the screen's timer. Called once, on the main actor, when the screen is pushed.
    @MainActor
    func viewDidAppear() {}

    /// The seeds' timer action (`@selector(timeStart)`).
    func timeStart() {
        probe.recordTick()
    }

    /// The same action for TimerKit handlers that receive a ``Tick``.
    func tick(_ tick: Tick) {
        probe.recordTick(tick)
    }
}

// MARK: - Foundation.Timer, as the seeds wrote it

/// `[NSTimer scheduledTimerWithTimeInterval:target:self selector:@selector(timeStart) …]` with
/// `invalidate` in `dealloc`. The selector form is Objective-C only, so on Linux its Swift equivalent is
/// a block that captures `self` strongly, added to the current run loop in the default mode as
/// `scheduledTimer` does. The run loop retains the timer and the timer retains the screen, so `deinit`,
/// the one place that invalidates, never runs.
final class FoundationTimerScreen: ScreenViewController, @unchecked Sendable {
    // Invariant: as in ScreenViewController (`timer` is set in viewDidAppear, read in deinit).
    var timer: Foundation.Timer?

    @MainActor
    override func viewDidAppear() {
        // An explicit first fire date: on Linux a block timer added to a run loop otherwise fires at once
        // (swift-corelibs-foundation issue 4712).
        let timer = Foundation.Timer(
            fire: Date(timeIntervalSinceNow: interval.seconds), interval: interval.seconds, repeats: true
        ) { _ in
            self.timeStart()
        }
        RunLoop.current.add(timer, forMode: .default)
        self.timer = timer
    }

    deinit {
        timer?.invalidate()
    }
}

/// The seeds' first attempted fix: `weak var timer`. It changes nothing, because the screen was never
/// what kept the timer alive: the run loop holds the timer, and the timer still holds the screen.
final class FoundationWeakTimerScreen: ScreenViewController, @unchecked Sendable {
    // Invariant: as in ScreenViewController (`timer` is set in viewDidAppear, read in deinit).
    weak var timer: Foundation.Timer?

    @MainActor
    override func viewDidAppear() {
        let timer = Foundation.Timer(
            fire: Date(timeIntervalSinceNow: interval.seconds), interval: interval.seconds, repeats: true
        ) { _ in
            self.timeStart()
        }
        RunLoop.current.add(timer, forMode: .default)
        self.timer = timer
    }

    deinit {
        timer?.invalidate()
    }
}

// MARK: - TimerKit bindings

/// Owner-bound closure: the owner is held weakly and handed to the closure, which needs no `self`.
/// The handle is not kept; the ticker stops at its next deadline after the owner is gone.
final class OwnerBoundScreen: ScreenViewController, @unchecked Sendable {
    // Invariant: as in ScreenViewController (no state of its own).
    @MainActor
    override func viewDidAppear() {
        Ticker.schedule(.every(interval), on: context, owner: self) { owner, tick in
            owner.tick(tick)
        }
    }
}

/// Target–action with an unbound method reference, the Swift form of a weak-proxy timer target. It
/// exists on the main actor only (no `on:`): the action runs on the main run loop.
final class TargetActionScreen: ScreenViewController, @unchecked Sendable {
    // Invariant: as in ScreenViewController (no state of its own).
    @MainActor
    override func viewDidAppear() {
        Ticker.schedule(.every(interval), target: self, action: TargetActionScreen.tick)
    }
}

/// A handle-owned closure kept in a property: the screen owns the handle, so its `deinit` releases the
/// handle, which cancels the ticker. The closure captures `self` weakly, as it must here.
final class HandleOwnedScreen: ScreenViewController, @unchecked Sendable {
    // Invariant: as in ScreenViewController (`ticker` is set in viewDidAppear, released in deinit).
    var ticker: Ticker?

    @MainActor
    override func viewDidAppear() {
        ticker = Ticker.schedule(.every(interval), on: context) { [weak self] tick in
            self?.tick(tick)
        }
    }
}

// MARK: - Foundation-shaped look-alikes (TimerKitMigration; main run loop)

/// The seeds' call with `selector:` replaced by `action:`; the target is held weakly. `deinit` keeps
/// its `invalidate()`, now harmless, to show that migrating needs no other change.
final class DropInTargetActionScreen: ScreenViewController, @unchecked Sendable {
    // Invariant: as in ScreenViewController (`timer` is set in viewDidAppear, read in deinit).
    var timer: Ticker?

    @MainActor
    override func viewDidAppear() {
        timer = Timer.scheduledTimer(
            timeInterval: interval.seconds,
            target: self,
            action: DropInTargetActionScreen.timeStart,
            repeats: true
        )
    }

    deinit {
        timer?.invalidate()
    }
}

/// Foundation's block factory with `owner:` added: the block receives the owner instead of capturing it.
final class DropInOwnerBlockScreen: ScreenViewController, @unchecked Sendable {
    // Invariant: as in ScreenViewController (no state of its own).
    @MainActor
    override func viewDidAppear() {
        Timer.scheduledTimer(withTimeInterval: interval.seconds, repeats: true, owner: self) { owner, _ in
            owner.timeStart()
        }
    }
}

extension Duration {
    /// The duration in seconds, for Foundation's `TimeInterval` parameters.
    var seconds: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) * 1e-18
    }
}
