internal import CTimerKit
import Foundation

/// The alarm of a precise context: a TimerKit-owned thread that sleeps on a condition variable until just
/// before the armed deadline, busy-waits the last stretch, then calls the engine on itself.
///
/// The stretch it busy-waits is the thread's own typical wake-up latency, learned from its timed waits
/// (capped at 200 µs): the kernel wakes a sleeping thread tens of microseconds late on most machines, so
/// sleeping until the deadline itself is late by that much, while waking that much early and spinning is
/// late by about the time it takes to read the clock. This costs up to the learned latency of CPU per
/// wake-up, which is why it is reserved for the precise context; and it spins only after sleeping at
/// least eight times as long, so deadlines packed closer than that are slept for like any other.
/// A spin interrupted by the scheduler (a gap of more than 20 µs between two clock readings: on a loaded
/// machine the spinning thread can lose its core for a whole slice) halves the spin budget, which grows
/// back with each undisturbed spin.
///
/// On Linux the thread's timer slack is set to 1 ns (`PR_SET_TIMERSLACK`), so the kernel does not defer
/// its wake-up by the default 50 µs slack, and a precise thread asks the scheduler for a 100 µs slice
/// (`sched_setattr`'s `sched_runtime`, policy and nice value unchanged; no privilege needed). Kernels from
/// 6.12 on schedule the default policy by earliest virtual deadline, which a short slice brings forward:
/// a precise thread waking on a core that another thread keeps busy pre-empts it at once instead of
/// waiting, often for milliseconds, for that thread's slice to end. The price is finer time-slicing of the
/// precise thread itself: a handler running longer than 100 µs while other threads wait for the core is
/// interrupted sooner than on a thread with the default slice. Threads created from the precise thread
/// start with the system's slice (the request resets on fork). Older kernels ignore it. The wait is an absolute `CLOCK_MONOTONIC` deadline (the clock
/// of `DispatchTime.uptimeNanoseconds`, which is TimerKit's "now"). On Apple platforms the thread runs
/// at user-interactive quality of service and waits with a relative timeout.
///
/// The same thread without the busy-wait (``Mode/busyWaits`` false, and the timer slack it is given)
/// serves a dispatch context on Linux: see `DispatchAlarm`.
///
/// An engine's alarm is shut down when the engine goes away (its context has no live tickers left). The
/// thread does not end at once: it is parked for `lingerNanoseconds`, and the next engine of the same
/// mode adopts it (with what it learned of its wake-up latency), so a context used by one short ticker
/// after another does not start a thread for each. A thread parked that long ends.
final class ThreadAlarm: Alarm, @unchecked Sendable {
    // Invariant: `armedAt`, `wake` and `parkedAt` are read and written only while `mutex` is held; `lead`,
    // `spinBudget` and `mayBusyWait` only by the alarm's own thread (in `run`); `mutex` and `condition` are initialised
    // in init and destroyed in deinit, which runs only after the thread (which holds `self` while it runs)
    // has left its loop; `mode` is immutable.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let mode: Mode
    private var armedAt: Int64?
    /// The engine's callback; nil while the thread is parked.
    private var wake: (@Sendable () -> Void)?
    /// When the thread was last parked (or found itself parked but not yet listed in `parked`).
    private var parkedAt: Int64 = 0
    /// How long before a deadline the thread stops sleeping and busy-waits for it: a running average of
    /// its own wake-up latency (how late its timed waits return), capped at `maximumLead`.
    private var lead: Int64 = 0
    /// The most the thread busy-waits now: `maximumLead`, halved each time a busy-wait is interrupted (the
    /// thread was pre-empted or descheduled in it: on a loaded machine a spinning thread loses its core
    /// for a whole scheduler slice, milliseconds), and grown back by `maximumLead / 32` per clean one.
    private var spinBudget: Int64 = ThreadAlarm.maximumLead

    /// Whether the last sleep was long enough to busy-wait after it (see `busyWaitRatio`).
    private var mayBusyWait = false

    /// The most the thread busy-waits before one deadline.
    static let maximumLead: Int64 = 200_000
    /// The thread busy-waits only after sleeping at least this many times as long: at most about one part
    /// in nine of its time is spent spinning, however close together the deadlines are.
    static let busyWaitRatio: Int64 = 8
    /// A busy-wait whose consecutive clock readings are this far apart was interrupted (a reading takes
    /// tens of nanoseconds).
    static let interruptionGap: Int64 = 20_000
    /// The spin budget never falls below this.
    static let minimumSpinBudget: Int64 = 5_000

    /// The nanoseconds of timer slack a precise thread asks for.
    static let timerSlackNanoseconds: UInt = 1

    /// The scheduler slice a precise thread asks for (Linux), in nanoseconds: the shortest the kernel
    /// accepts (it clamps requests to 0.1–100 ms).
    static let preciseSchedulerSliceNanoseconds: UInt64 = 100_000

    /// What a thread does, and the key under which a parked thread waits to be adopted.
    struct Mode: Hashable, Sendable {
        /// The thread's name (cut to 15 bytes on Linux: see ``threadName(_:)``).
        var label: String
        /// Whether the thread wakes early by its learned latency and busy-waits the rest (precise), or
        /// sleeps until the deadline itself.
        var busyWaits = true
        /// The timer slack the thread asks for (Linux), in nanoseconds, at least 1.
        var timerSlack: UInt = ThreadAlarm.timerSlackNanoseconds
        /// The scheduler slice the thread asks for (Linux), in nanoseconds; `nil` keeps the system's.
        var schedulerSlice: UInt64? = ThreadAlarm.preciseSchedulerSliceNanoseconds
    }

    /// How long a shut-down alarm's thread waits to be adopted by a new engine of its label before ending.
    static let lingerNanoseconds: Int64 = 1_000_000_000

    /// Parked alarms by mode, waiting for a new engine (several per mode: an engine per clock).
    private static let parked = Locked<[Mode: [ThreadAlarm]]>.make([:])

    /// A parked precise alarm of `label` adopted for a new engine, or a new alarm and thread.
    static func make(label: String, wake: @escaping @Sendable () -> Void) -> ThreadAlarm {
        make(Mode(label: label), wake: wake)
    }

    /// A parked alarm of `mode` adopted for a new engine, or a new alarm and thread.
    static func make(_ mode: Mode, wake: @escaping @Sendable () -> Void) -> ThreadAlarm {
        let adopted = parked.withLock { parked -> ThreadAlarm? in
            guard let alarm = parked[mode]?.popLast() else { return nil }
            if parked[mode]?.isEmpty == true { parked[mode] = nil }
            return alarm
        }
        guard let adopted else { return ThreadAlarm(mode: mode, wake: wake) }
        pthread_mutex_lock(adopted.mutex)
        adopted.wake = wake
        adopted.armedAt = nil
        pthread_mutex_unlock(adopted.mutex)
        pthread_cond_signal(adopted.condition)
        return adopted
    }

    private init(mode: Mode, wake: @escaping @Sendable () -> Void) {
        self.mode = mode
        self.wake = wake
        // Each call is made before its check: a `precondition`'s condition is not evaluated under
        // -Ounchecked.
        mutex.initialize(to: pthread_mutex_t())
        let mutexResult = pthread_mutex_init(mutex, nil)
        precondition(mutexResult == 0, "TimerKit: pthread_mutex_init failed (\(mutexResult))")
        condition.initialize(to: pthread_cond_t())
        let conditionResult = Platform.initializeCondition(condition)
        precondition(conditionResult == 0, "TimerKit: pthread_cond_init failed (\(conditionResult))")
        let name = Self.threadName(mode.label)
        let slack = max(1, mode.timerSlack)
        let slice = mode.schedulerSlice
        let thread = Thread { [self] in
            // Named from inside with pthreads: swift-corelibs-foundation does not apply a name set before
            // `start()`, and `Thread.current.name = …` on a new thread does not always take there.
            _ = ctimerkit_set_thread_name(name)
            _ = ctimerkit_set_thread_timer_slack(slack)
            // Refused (another policy, a sandbox) or ignored (an older kernel): the thread keeps the
            // system's slice, as any other thread.
            if let slice { _ = ctimerkit_set_thread_scheduler_slice(CUnsignedLongLong(slice)) }
            run()
        }
        Platform.prioritise(thread)
        thread.start()
    }

    /// The thread's name: `label`, cut to the 15 bytes Linux keeps (a longer name is refused there).
    /// Reads back with ``currentThreadName``.
    static func threadName(_ label: String) -> String { Platform.threadName(label) }

    /// The calling thread's name as the system holds it.
    static var currentThreadName: String {
        var buffer = [CChar](repeating: 0, count: 64)
        guard ctimerkit_get_thread_name(&buffer, buffer.count) == 0 else { return "" }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// The calling thread's timer slack in nanoseconds as the system holds it (Linux; -1 elsewhere).
    static var currentTimerSlack: Int { ctimerkit_thread_timer_slack() }

    /// The calling thread's scheduler slice in nanoseconds as the kernel reports it (Linux: the system's
    /// default slice, the requested one, or 0 on a kernel that reports none; -1 elsewhere).
    static var currentSchedulerSlice: Int64 { Int64(ctimerkit_thread_scheduler_slice()) }

    /// Asks for `nanoseconds` of scheduler slice for the calling thread; whether the kernel took it.
    static func requestSchedulerSlice(_ nanoseconds: UInt64) -> Bool {
        ctimerkit_set_thread_scheduler_slice(CUnsignedLongLong(nanoseconds)) == 0
            && currentSchedulerSlice == Int64(nanoseconds)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func arm(at deadline: Int64) {
        pthread_mutex_lock(mutex)
        armedAt = deadline
        pthread_mutex_unlock(mutex)
        pthread_cond_signal(condition)
    }

    /// Parks the thread: it stops calling the engine, and ends unless a new engine adopts it in time.
    func shutDown() {
        pthread_mutex_lock(mutex)
        wake = nil
        armedAt = nil
        parkedAt = TimeBase.Source.system.now()
        pthread_mutex_unlock(mutex)
        pthread_cond_signal(condition)
        // The engine's callback (and so its captures) was released above; listed after unlocking, so that
        // no lock is ever taken while holding `mutex` (the thread takes `parked` only without it).
        Self.parked.withLock { $0[mode, default: []].append(self) }
    }

    /// Waits while parked; returns false once the thread should end (it was not adopted in time and has
    /// taken itself out of `parked`). The mutex is held on entry and on return.
    private func waitWhileParked() -> Bool {
        let now = TimeBase.Source.system.now()
        let end = parkedAt.addingSaturating(Self.lingerNanoseconds)
        if now < end {
            wait(until: end, now: now)
            return true
        }
        pthread_mutex_unlock(mutex)
        let removed = Self.parked.withLock { parked -> Bool in
            guard let index = parked[mode]?.firstIndex(where: { $0 === self }) else { return false }
            parked[mode]!.remove(at: index)
            if parked[mode]!.isEmpty { parked[mode] = nil }
            return true
        }
        pthread_mutex_lock(mutex)
        // Not listed: adopted meanwhile (then `wake` is set), or not listed yet (wait another round).
        if !removed, wake == nil { parkedAt = TimeBase.Source.system.now() }
        return !removed
    }

    /// The thread's loop: waits for the armed deadline, then calls `wake` without holding the mutex.
    private func run() {
        pthread_mutex_lock(mutex)
        while true {
            guard let wake else {
                guard waitWhileParked() else { break }
                continue
            }
            guard let deadline = armedAt else {
                pthread_cond_wait(condition, mutex)
                continue
            }
            let now = TimeBase.Source.system.now()
            if deadline <= now {
                armedAt = nil
                pthread_mutex_unlock(mutex)
                wake()
                pthread_mutex_lock(mutex)
                continue
            }
            // The learned lead, as far as the spin budget allows.
            let lead = min(self.lead, spinBudget)
            if deadline - now > lead {
                // Sleep until `lead` before the deadline, and learn how late that wake-up comes. Busy-waiting
                // the rest is allowed only after a sleep of at least `busyWaitRatio` leads, so that
                // deadlines closer together than that are slept for, not spun through.
                let target = deadline - lead
                wait(until: target, now: now)
                let woke = TimeBase.Source.system.now()
                if woke >= target, armedAt == deadline {
                    learn(lateness: woke - target)
                    mayBusyWait = mode.busyWaits && woke - now >= Self.busyWaitRatio * lead
                }
                continue
            }
            if mayBusyWait {
                // Within `lead` of the deadline: busy-wait for it without the mutex (an arming made
                // meanwhile is seen when the loop comes round, at most `lead` later).
                mayBusyWait = false
                pthread_mutex_unlock(mutex)
                let interrupted = Self.busyWait(until: deadline, from: now)
                pthread_mutex_lock(mutex)
                spinBudget = Self.spinBudget(after: spinBudget, interrupted: interrupted)
            } else {
                wait(until: deadline, now: now)
            }
        }
        pthread_mutex_unlock(mutex)
    }

    /// The spin budget after a spin with budget `budget`: halved (not below `minimumSpinBudget`) when the
    /// spin was interrupted, else grown by `maximumLead / 32` (not above `maximumLead`).
    static func spinBudget(after budget: Int64, interrupted: Bool) -> Int64 {
        interrupted ? max(minimumSpinBudget, budget / 2) : min(maximumLead, budget + maximumLead / 32)
    }

    /// Spins until `deadline`; returns whether two consecutive clock readings were more than
    /// `interruptionGap` apart (the thread lost its core meanwhile).
    private static func busyWait(until deadline: Int64, from start: Int64) -> Bool {
        var previous = start
        var interrupted = false
        while true {
            let now = TimeBase.Source.system.now()
            if now - previous > interruptionGap { interrupted = true }
            if now >= deadline { return interrupted }
            previous = now
        }
    }

    /// Folds one timed wait's lateness into `lead` (an average over about the last eight wake-ups).
    private func learn(lateness: Int64) {
        guard mode.busyWaits else { return }
        lead = min(Self.maximumLead, max(0, lead + (lateness - lead) / 8))
    }

    /// Waits on the condition until `deadline` or a signal; the mutex is held on entry and on return.
    private func wait(until deadline: Int64, now: Int64) {
        Platform.timedWait(condition, mutex, until: deadline, now: now)
    }
}
