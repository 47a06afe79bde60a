import Foundation

/// Two `Foundation.Timer`s per run-loop engine, taking turns: each arming sets the fire date of the one
/// that did not fire last.
///
/// CFRunLoop serves a timer whose fire date is set from inside its own callout only in the mode it fired
/// in: while a timer's callout runs, CFRunLoopTimerSetNextFireDate repositions it in every mode it is in,
/// but each mode's next wake-up is computed without timers that are firing, and after the callout only the
/// firing mode's wake-up is computed again. A common-modes timer re-armed from its own block thus went
/// silent in every other mode as soon as that mode's wake-up was armed for some other timer (any other
/// timer on the loop). The engine re-arms from inside the fire (its handlers run there), so the alarm
/// never re-dates the timer that is firing: it sets the other one, which CFRunLoop repositions and wakes
/// for in every mode. The timer that fired is not re-dated, so CFRunLoop moves it on by its repeat interval
/// (in every mode): it waits, disarmed, for its next turn. The RunLoopContext article has the analysis.
///
/// An arming from another thread that read the turn just before a fire passed it on may still land on the
/// timer that is firing. It is not lost: `SharedAlarm` counts itself disarmed from the start of each fire,
/// so an arming it issued before that fire is covered by the fire's own re-arming for the earliest deadline
/// left, issued after the turn passed (and `Alarm.apply` makes the newest arming land last), while one
/// issued after the fire began reads the turn after it passed. Either way the deadline lands on the other timer; the stale date costs at most one spurious
/// wake-up.
///
/// The timers are created with an explicit distant-future fire date (on Linux a block timer added to a
/// run loop otherwise fires at once: swift-corelibs-foundation issue 4712) and a huge repeat interval.
/// Setting a fire date is safe from any thread; the run loop wakes for the new date.
///
/// When the engine goes away (it has no live tickers and no handle to one is left), the timers must leave
/// the run loop, and only the loop's own thread may invalidate them: shutting down sets both fire dates to
/// now, so that the loop's thread wakes, and each timer's block, finding that the receiver of its wake-ups
/// is gone (`wake` returns false), invalidates its timer. (The one that is not firing is woken for in every
/// mode; once due, the other is fired along with it in whichever mode runs.) If that thread has already
/// ended, its run loop was torn down with it and took the timers out. The alarm keeps no reference to the
/// run loop, so a finished thread's run loop (and the file descriptors it owns) is freed once no ticker
/// handle names it.
final class RunLoopAlarm: Alarm {
    private let timers: (TimerReference, TimerReference)
    /// Which timer the next arming sets (0 or 1): the one that did not fire last. Written by the timers'
    /// blocks, on the loop's thread, before they wake the engine; read by every arming.
    private let turn = Locked<Int>.make(0)

    /// An alarm whose fires call `wake` on the loop's thread. `wake` returns false once its receiver is
    /// gone: the alarm was shut down, or is about to be (the receiver shuts it down as it goes).
    init(runLoop: RunLoopReference, modes: [RunLoop.Mode], wake: @escaping @Sendable () -> Bool) {
        let turn = turn
        // Each block captures only `wake`, which holds its receiver weakly, and the turn, weakly: a fire
        // on the loop's thread takes the turn's lock, then the engine's (this is the run-loop context's
        // lateness), and a timer left behind (Linux never frees one) holds nothing.
        func makeTimer(_ index: Int) -> Foundation.Timer {
            Foundation.Timer(fire: .distantFuture, interval: 1e9, repeats: true) { [weak turn] timer in
                // From now on, armings (this fire's own, and other threads') set the other timer.
                turn?.withLock { $0 = 1 - index }
                if !wake() { timer.invalidate() }
            }
        }
        let first = makeTimer(0)
        let second = makeTimer(1)
        for mode in modes {
            runLoop.runLoop.add(first, forMode: mode)
            runLoop.runLoop.add(second, forMode: mode)
        }
        timers = (TimerReference(timer: first), TimerReference(timer: second))
    }

    func arm(at deadline: Int64) {
        let date: Date
        if deadline >= Int64.max {
            date = .distantFuture
        } else {
            let delta = deadline.subtractingSaturating(TimeBase.Source.system.now())
            date = Date(timeIntervalSinceNow: Double(delta) / 1e9)
        }
        let timer = turn.withLock { $0 } == 0 ? timers.0 : timers.1
        timer.timer.fireDate = date
    }

    /// Called by the receiver of the wake-ups as it goes (so `wake` already returns false).
    func shutDown() {
        // Wakes the loop's thread (if it still runs its loop), where the blocks invalidate the timers.
        let now = Date()
        timers.0.timer.fireDate = now
        timers.1.timer.fireDate = now
    }
}

/// A `Foundation.Timer` that may travel between threads.
struct TimerReference: @unchecked Sendable {
    // Invariant: the only cross-thread call is setting `fireDate` (CFRunLoopTimerSetNextFireDate, which
    // takes the run loop's lock); the timer is invalidated only by its own block, on the loop's thread.
    let timer: Foundation.Timer
}
