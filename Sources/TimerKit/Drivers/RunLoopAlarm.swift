import Foundation

/// One `Foundation.Timer` per run-loop engine, re-armed by setting its fire date.
///
/// The timer is created with an explicit distant-future fire date (on Linux a block timer added to a run
/// loop otherwise fires at once: swift-corelibs-foundation issue 4712) and a huge repeat interval, so
/// after each fire it waits for the engine to arm it again. Setting the fire date is safe from any thread;
/// the run loop wakes for the new date.
///
/// When the engine goes away (it has no live tickers and no handle to one is left), the timer must leave
/// the run loop, and only the loop's own thread may invalidate it: shutting down sets the fire date to now,
/// so that the loop's thread wakes, and the timer's block, finding that the receiver of its wake-ups is
/// gone (`wake` returns false), invalidates the timer. If that thread has already ended, its run loop was
/// torn down with it and took the timer out. The alarm keeps no reference to the run loop, so a finished
/// thread's run loop (and the file descriptors it owns) is freed once no ticker handle names it.
final class RunLoopAlarm: Alarm {
    private let timer: TimerReference

    /// An alarm whose fires call `wake` on the loop's thread. `wake` returns false once its receiver is
    /// gone: the alarm was shut down, or is about to be (the receiver shuts it down as it goes).
    init(runLoop: RunLoopReference, modes: [RunLoop.Mode], wake: @escaping @Sendable () -> Bool) {
        // The block captures only `wake`, which holds its receiver weakly: a fire on the loop's thread
        // reads no lock before the engine's own (this is the run-loop context's lateness).
        let timer = Foundation.Timer(fire: .distantFuture, interval: 1e9, repeats: true) { timer in
            if !wake() { timer.invalidate() }
        }
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

    /// Called by the receiver of the wake-ups as it goes (so `wake` already returns false).
    func shutDown() {
        // Wakes the loop's thread (if it still runs its loop), where the block invalidates the timer.
        timer.timer.fireDate = Date()
    }
}

/// A `Foundation.Timer` that may travel between threads.
struct TimerReference: @unchecked Sendable {
    // Invariant: the only cross-thread call is setting `fireDate` (CFRunLoopTimerSetNextFireDate, which
    // takes the run loop's lock); the timer is invalidated only by its own block, on the loop's thread.
    let timer: Foundation.Timer
}
