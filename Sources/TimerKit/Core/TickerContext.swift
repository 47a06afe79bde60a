import Dispatch
import Foundation

/// Where a ticker's handler runs and where its wake-ups come from.
///
/// Every context is served by one engine: a queue of pending deadlines and a single armed alarm, shared
/// by all tickers on that context. Handlers on one context never run concurrently with each other, and
/// tickers that share a context and whose tolerance windows overlap are served by one wake-up.
public struct TickerContext: Sendable, Hashable, CustomStringConvertible {
    enum Storage: Sendable, Hashable {
        case runLoop(RunLoopReference, modes: [RunLoop.Mode])
        case dispatch(DispatchQueue, leewayNanoseconds: Int64, strict: Bool)
        case precise(label: String)

        static func == (lhs: Storage, rhs: Storage) -> Bool {
            switch (lhs, rhs) {
            case let (.runLoop(a, am), .runLoop(b, bm)): a == b && am == bm
            case let (.dispatch(a, al, astrict), .dispatch(b, bl, bstrict)): a === b && al == bl && astrict == bstrict
            case let (.precise(a), .precise(b)): a == b
            default: false
            }
        }

        func hash(into hasher: inout Hasher) {
            switch self {
            case let .runLoop(loop, modes):
                hasher.combine(0)
                hasher.combine(loop)
                hasher.combine(modes)
            case let .dispatch(queue, leeway, strict):
                hasher.combine(1)
                hasher.combine(ObjectIdentifier(queue))
                hasher.combine(leeway)
                hasher.combine(strict)
            case let .precise(label):
                hasher.combine(2)
                hasher.combine(label)
            }
        }
    }

    let storage: Storage

    /// A run loop: handlers run on the run loop's thread, while the loop runs in one of `modes`.
    ///
    /// The default, common modes, keeps tickers firing while a scroll view tracks touches (a default-mode
    /// `Foundation.Timer` pauses then), also right after the loop switches modes. Scheduling, pausing and
    /// cancelling are safe from any thread; the engine adds two `Foundation.Timer`s per run loop and mode set
    /// and re-arms them in turn; once the context has no live tickers (and no handle to one is kept), the
    /// timers leave the run loop, so a short-lived thread's run loop is freed when the thread ends.
    ///
    /// When the loop's thread ends, the loop's tickers are cancelled and their handlers released on the
    /// exiting thread, once TimerKit knows that thread: a ticker was scheduled on ``current`` there, or the
    /// loop served one of its deadlines (see <doc:RunLoopContext>).
    ///
    /// A ticker on a run loop that is not running does not fire until the loop runs (in debug builds,
    /// scheduling on the current thread's loop when it is neither the main thread's nor running logs a
    /// warning). An empty `modes` array is replaced by `[.common]`.
    public static func runLoop(_ runLoop: RunLoop, modes: [RunLoop.Mode] = [.common]) -> TickerContext {
        let unique =
            modes.count <= 1
            ? (modes.isEmpty ? [.common] : modes) : Array(Set(modes)).sorted { $0.rawValue < $1.rawValue }
        return TickerContext(storage: .runLoop(RunLoopReference(runLoop), modes: unique))
    }

    /// The main thread's run loop in common modes: handlers run on the main thread.
    public static var main: TickerContext { .runLoop(.main) }

    /// The calling thread's run loop in common modes (what `Foundation.Timer.scheduledTimer` uses).
    ///
    /// When the thread ends, the tickers on its run loop are cancelled (the loop never runs again) and
    /// their handlers are released on the exiting thread, so nothing of TimerKit keeps the finished
    /// thread's run loop once no handle to its tickers is kept.
    public static var current: TickerContext {
        TickerContext(storage: .runLoop(RunLoopReference(.current, isCallersOwn: true), modes: [.common]))
    }

    /// A dispatch queue: handlers run on `queue`, one at a time even when the queue is concurrent.
    ///
    /// The engine's wake-ups come from one TimerKit thread per context on Linux (for up to 16 dispatch
    /// contexts at once; further ones, and every context on Apple platforms, use one `DispatchSourceTimer`),
    /// and nothing is ever suspended, so the over-resume and released-while-suspended crashes of raw
    /// dispatch timers cannot happen. TimerKit keeps `queue` alive while it has live
    /// tickers, and while a handle to one of them is kept (a handle names its context); after that it holds
    /// no reference to the queue.
    ///
    /// - Parameters:
    ///   - queue: where handlers run. On a concurrent queue, handlers still run one at a time, but other
    ///     work on the queue runs beside them.
    ///   - leeway: slack handed to the system for the context's one dispatch timer (default zero). Per-ticker
    ///     coalescing is the schedule's `tolerance`, not this.
    ///   - strict: asks the system to honour the deadline even at some cost in power (`.strict` flag).
    public static func dispatch(_ queue: DispatchQueue, leeway: Duration = .zero, strict: Bool = false) -> TickerContext
    {
        TickerContext(
            storage: .dispatch(queue, leewayNanoseconds: max(0, leeway.saturatingNanoseconds), strict: strict))
    }

    /// The shared precise context: a TimerKit-owned thread, named "TimerKit.precise", that waits for
    /// deadlines with the smallest timer slack the system allows, for tickers whose punctuality matters
    /// more than anything else (metronomes, audio or hardware polling, measurement).
    ///
    /// Handlers run on that thread, one at a time, so keep them short and hop elsewhere for real work (a
    /// slow handler delays every other precise ticker, and the skip policy applies to each). The thread
    /// is created on first use and ends about a second after the context's last ticker stops (a ticker
    /// scheduled meanwhile keeps it).
    ///
    /// The thread sleeps on an absolute `CLOCK_MONOTONIC` deadline with its timer slack set to 1 ns on
    /// Linux (`PR_SET_TIMERSLACK`; the default is 50 µs), and wakes early by its own typical wake-up
    /// latency (learned, at most 200 µs) to busy-wait the last stretch — only after sleeping at least
    /// eight times as long, so it spins at most about a ninth of the time. Lateness is then about the time
    /// it takes to read the clock and call the handler, at the cost of that busy-wait per wake-up: see the
    /// "Performance" article for the figures. On Linux it also asks the scheduler for a 100 µs slice
    /// (honoured from kernel 6.12), so that when it wakes on a busy core it pre-empts the thread running
    /// there sooner; a handler running longer than that while other threads wait is time-sliced sooner
    /// too. On Apple platforms the thread runs at user-interactive quality of service (those systems
    /// offer no per-thread slack setting). Tolerance still coalesces wake-ups, as on every context.
    public static var precise: TickerContext { precise(label: "TimerKit.precise") }

    /// A precise context on its own thread named `label`: as ``precise``, but tickers on different labels
    /// never delay each other. Each label in use has its own thread (ending as ``precise``'s does), so use
    /// a few fixed labels, not one per ticker. The thread is named after the label (on Linux, its first 15
    /// bytes: the system keeps no more).
    public static func precise(label: String) -> TickerContext {
        TickerContext(storage: .precise(label: label))
    }

    var key: ContextKey { ContextKey(storage: storage) }

    /// The main run loop's engines live as long as the process: the main thread never ends, and on Linux a
    /// `Foundation.Timer` is never freed, so its timers are made once rather than once per burst of
    /// tickers. Every other engine lives only while it has live tickers or a handle to one of them (its
    /// timers then leave the run loop, its precise or dispatch thread ends, its dispatch source is
    /// cancelled).
    var enginesArePermanent: Bool {
        if case .runLoop(let loop, _) = storage { return loop.isMain }
        return false
    }

    /// The context's system alarm, calling `wake` on the context. `wake` returns false once its receiver
    /// is gone (which then shuts the alarm down): a run-loop alarm reads that instead of a flag of its own.
    func makeSystemAlarm(wake: @escaping @Sendable () -> Bool) -> any Alarm {
        switch storage {
        case let .runLoop(loop, modes):
            RunLoopAlarm(runLoop: loop, modes: modes, wake: wake)
        case let .dispatch(queue, leeway, strict):
            DispatchAlarm(queue: queue, leewayNanoseconds: leeway, strict: strict) { _ = wake() }
        case let .precise(label):
            ThreadAlarm.make(label: label) { _ = wake() }
        }
    }

    /// Where virtual time delivers this context's wake-ups: where it runs them in production, except
    /// other threads' run loops and precise threads, which run on the advancing thread.
    var virtualDelivery: VirtualClock.Delivery {
        switch storage {
        case let .runLoop(loop, modes): loop.isMain ? .mainRunLoop(modes: modes) : .inline
        case let .dispatch(queue, _, _): .queue(queue)
        case .precise: .inline
        }
    }

    /// A short human-readable description, for logs and test output.
    public var description: String {
        switch storage {
        case let .runLoop(loop, modes):
            let name = loop.isMain ? "main" : "thread"
            return "runLoop(\(name), modes: \(modes.map(\.rawValue).joined(separator: ",")))"
        case let .dispatch(queue, leeway, strict):
            var text = "dispatch(\(queue.label.isEmpty ? "unlabelled" : queue.label)"
            if leeway > 0 { text += ", leeway: \(Duration.nanoseconds(leeway))" }
            if strict { text += ", strict" }
            return text + ")"
        case let .precise(label):
            return "precise(\(label))"
        }
    }
}

/// What identifies a context in the registries of engines and frame sources. A run loop or dispatch queue
/// is identified, not retained: those registries hold engines (but the main run loop's) and frame sources
/// weakly, and each of them keeps its own context (so its run loop or queue) alive, so no other run loop
/// or queue can take the identifier of a live entry, and a dead entry is replaced when its key is
/// registered again. A key that retained the queue
/// kept a queue its creator had released alive after its last ticker stopped, until later registrations
/// happened to sweep the dead entry.
struct ContextKey: Hashable, Sendable {
    private enum Identity: Hashable, Sendable {
        // A run loop is identified, not retained, for the same reason as a queue: a key that retained it
        // would keep a finished thread's run loop, and the file descriptors it owns, alive.
        case runLoop(ObjectIdentifier, modes: [RunLoop.Mode])
        case dispatch(ObjectIdentifier, leewayNanoseconds: Int64, strict: Bool)
        case precise(label: String)
    }

    private let identity: Identity

    init(storage: TickerContext.Storage) {
        switch storage {
        case let .runLoop(loop, modes):
            identity = .runLoop(ObjectIdentifier(loop.runLoop), modes: modes)
        case let .dispatch(queue, leeway, strict):
            identity = .dispatch(ObjectIdentifier(queue), leewayNanoseconds: leeway, strict: strict)
        case let .precise(label):
            identity = .precise(label: label)
        }
    }
}

/// A `RunLoop` that may travel between threads.
struct RunLoopReference: @unchecked Sendable, Hashable {
    // Invariant: from other threads TimerKit only calls the run loop's thread-safe CFRunLoop-backed
    // operations (adding a timer, setting a timer's fire date, reading the current mode, which
    // CFRunLoopCopyCurrentMode reads under the loop's lock); its handlers run on the loop's own thread.
    let runLoop: RunLoop
    let isMain: Bool
    /// Made by ``TickerContext/current`` on the loop's own thread, which is not the main thread (not part
    /// of the reference's identity).
    let isCallersOwn: Bool

    init(_ runLoop: RunLoop, isCallersOwn: Bool = false) {
        self.runLoop = runLoop
        self.isMain = runLoop === RunLoop.main
        self.isCallersOwn = isCallersOwn && !isMain
    }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.runLoop === rhs.runLoop }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(runLoop)) }
}
