import Dispatch

/// The system alarm of a dispatch context: wakes the engine on the context's queue.
///
/// On Linux it is a TimerKit-owned thread per context (a ``ThreadAlarm`` that sleeps until the deadline,
/// without busy-waiting) which enters the queue synchronously (`queue.sync`) and wakes the engine there —
/// for up to ``threadLimit`` contexts at once; further contexts get a ``DispatchSourceAlarm``.
/// A `DispatchSourceTimer` costs three thread switches per wake-up on Linux: libdispatch's timer thread
/// goes back to sleep after handing the event to a worker, the worker goes to sleep after the handler,
/// and re-arming the source from the handler wakes the timer thread once more to reprogram its timer
/// (dispatch sources are reconfigured on that thread). The thread here sleeps once per wake-up: on an
/// idle queue `sync` runs the block on the calling thread, and the engine re-arms the alarm from that
/// same thread. The block still runs *on the queue* (a serial queue runs nothing beside it, and
/// `dispatchPrecondition(condition: .onQueue(queue))` holds); on a busy queue it waits its turn like any
/// block. The context's leeway becomes the thread's timer slack (1 ns when zero or strict), so the
/// kernel defers its wake-up by at most the leeway.
///
/// On Apple platforms, where dispatch timers are served without that extra hop, it is one
/// `DispatchSourceTimer` (``DispatchSourceAlarm``).
final class DispatchAlarm: Alarm {
    private let alarm: any Alarm

    /// The name of the threads that serve dispatch contexts on Linux.
    static let threadLabel = "TimerKit.queue"

    /// Whether this alarm holds one of the ``threadLimit`` thread slots.
    let isThreadBacked: Bool

    /// Dispatch contexts served by a thread at once, process-wide (Linux). A thread per context is cheap
    /// for the few queues an app usually times on, but dispatch queues are meant to be numerous: beyond
    /// this many contexts with live tickers, further contexts get a `DispatchSourceTimer` (three thread
    /// switches per wake-up instead of one, no thread of their own), until a slot is free again.
    static let threadLimit = 16

    /// Thread slots in use.
    private static let threadsInUse = Locked<Int>.make(0)

    init(queue: DispatchQueue, leewayNanoseconds: Int64, strict: Bool, wake: @escaping @Sendable () -> Void) {
        isThreadBacked =
            Platform.dispatchContextsMayUseThreads
            && Self.threadsInUse.withLock { inUse in
                guard inUse < Self.threadLimit else { return false }
                inUse += 1
                return true
            }
        if isThreadBacked {
            let slack = strict ? 1 : UInt(clamping: max(1, leewayNanoseconds))
            let mode = ThreadAlarm.Mode(
                label: Self.threadLabel, busyWaits: false, timerSlack: slack, schedulerSlice: nil)
            alarm = ThreadAlarm.make(mode) { queue.sync(execute: wake) }
        } else {
            alarm = DispatchSourceAlarm(queue: queue, leewayNanoseconds: leewayNanoseconds, strict: strict, wake: wake)
        }
    }

    func arm(at deadline: Int64) { alarm.arm(at: deadline) }

    /// Shuts the alarm down (once: its engine or shared alarm calls it when it goes) and frees its thread
    /// slot.
    func shutDown() {
        alarm.shutDown()
        if isThreadBacked { Self.threadsInUse.withLock { $0 -= 1 } }
    }

    /// Thread slots in use now (for tests).
    static var threadSlotsInUse: Int { threadsInUse.withLock { $0 } }
}

/// One `DispatchSourceTimer` per dispatch context, activated once and never suspended (the dispatch
/// alarm on Apple platforms; compiled everywhere).
///
/// Pausing a ticker re-arms this source (or leaves it for a harmless spurious wake), it never suspends
/// it, so the raw API's over-resume and released-while-suspended crashes are unreachable. The source is
/// cancelled when its engine goes away.
final class DispatchSourceAlarm: Alarm, @unchecked Sendable {
    // Invariant: the source is only scheduled (thread-safe in libdispatch) after init, and cancelled once
    // in shutDown; `leeway` is immutable.
    private let source: any DispatchSourceTimer
    private let leeway: DispatchTimeInterval

    init(queue: DispatchQueue, leewayNanoseconds: Int64, strict: Bool, wake: @escaping @Sendable () -> Void) {
        source = DispatchSource.makeTimerSource(flags: strict ? .strict : [], queue: queue)
        leeway = .nanoseconds(Int(clamping: leewayNanoseconds))
        source.setEventHandler(handler: wake)
        source.schedule(deadline: .distantFuture, repeating: .never, leeway: leeway)
        source.activate()
    }

    func arm(at deadline: Int64) {
        // DispatchTime(uptimeNanoseconds: 0) means "now"; anything at or before now fires at once.
        let when =
            deadline >= Int64.max
            ? DispatchTime.distantFuture : DispatchTime(uptimeNanoseconds: UInt64(max(1, deadline)))
        source.schedule(deadline: when, repeating: .never, leeway: leeway)
    }

    func shutDown() {
        source.setEventHandler(handler: nil)
        source.cancel()
    }
}
