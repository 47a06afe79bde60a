import Foundation

/// One long-lived `Foundation.Timer` per run loop and mode set, re-armed by setting its fire date.
///
/// The timer is created with an explicit distant-future fire date (on Linux a block timer added to a run
/// loop otherwise fires at once: swift-corelibs-foundation issue 4712) and a huge repeat interval, so
/// after each fire it waits for the engine to arm it again. Setting the fire date is safe from any thread;
/// the run loop wakes for the new date. The timer is never invalidated: its engine lives as long as the
/// process, and on Linux an invalidated `Foundation.Timer` is not freed anyway.
final class RunLoopAlarm: Alarm {
    private let timer: TimerReference

    init(runLoop: RunLoopReference, modes: [RunLoop.Mode], wake: @escaping @Sendable () -> Void) {
        // The block captures only `wake`, which holds the engine weakly.
        let timer = Foundation.Timer(fire: .distantFuture, interval: 1e9, repeats: true) { _ in wake() }
        for mode in modes {
            runLoop.runLoop.add(timer, forMode: mode)
        }
        self.timer = TimerReference(timer: timer)
    }

    func arm(at deadline: Int64) {
        let date: Date
        if deadline >= Int64.max {
            date = .distantFuture
        } else {
            let delta = deadline.subtractingSaturating(TimeBase.Source.system.now())
            date = Date(timeIntervalSinceNow: Double(delta) / 1e9)
        }
        timer.timer.fireDate = date
    }

    func shutDown() {
        // Run-loop engines are permanent; nothing to release.
    }
}

/// A `Foundation.Timer` that may travel between threads.
struct TimerReference: @unchecked Sendable {
    // Invariant: the only cross-thread call is setting `fireDate` (CFRunLoopTimerSetNextFireDate, which
    // takes the run loop's lock); the timer is never invalidated, so no thread-affine call is ever needed.
    let timer: Foundation.Timer
}
