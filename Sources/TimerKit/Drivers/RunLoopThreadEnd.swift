internal import CTimerKit
import Foundation

/// Cancels the tickers of a run loop when the loop's thread ends.
///
/// A run loop whose thread has ended never runs again, so its tickers can never fire. A ticker held by its
/// handle goes when the handle goes, but one bound to an owner that outlives the thread (a worker object
/// the thread's caller drops later) would keep the engine, and through the engine's context the finished
/// thread's run loop and its file descriptors, until a dead-owner sweep happened to run. So each thread
/// keeps a weak list of the run-loop engines of its own loop in a thread-specific value whose destructor,
/// run as the thread exits, cancels every ticker of those engines (their handlers are released on the
/// exiting thread, while the run loop still exists).
///
/// An engine joins its loop thread's list the first time TimerKit runs on that thread for it: when a
/// ticker is scheduled on ``TickerContext/current``, and when the engine serves a deadline (system time
/// only: on the system time base a run-loop engine is only ever served by its loop's timers, on the
/// loop's thread). A loop that TimerKit never saw from its own thread (tickers scheduled on it from elsewhere,
/// and the loop never ran one of their deadlines) is not watched.
enum RunLoopThreadEnd {
    /// Adds `engine` to the current thread's list unless it is there already. Only call it on the thread
    /// of `engine`'s run loop.
    static func watchOnItsThread(_ engine: TickerEngine) {
        let watched: Watched
        if let value = pthread_getspecific(key) {
            watched = Unmanaged<Watched>.fromOpaque(value).takeUnretainedValue()
        } else {
            watched = Watched()
            // The thread-specific value holds one reference, handed back by the destructor. Set while the
            // thread is exiting (a handler released by `threadEnded` scheduled a ticker), the destructors
            // run again, up to the system's bound.
            let result = pthread_setspecific(key, Unmanaged.passRetained(watched).toOpaque())
            precondition(result == 0, "TimerKit: pthread_setspecific failed (\(result))")
        }
        watched.add(engine)
    }

    /// The run-loop engines of one thread, read only on that thread (by `watchOnItsThread` and, as the
    /// thread exits, by the key's destructor).
    private final class Watched {
        private var entries: [Entry] = []

        func add(_ engine: TickerEngine) {
            if entries.contains(where: { $0.engine === engine }) { return }
            // Engines that went away leave their entries; drop them before the list grows.
            if entries.count >= 8 { entries.removeAll { $0.engine == nil } }
            entries.append(Entry(engine: engine))
        }

        /// The thread is ending: its run loop will never run again. Releasing a handler may run user code
        /// that schedules another ticker on the same loop, so this repeats (a few times at most) until no
        /// watched engine has a live ticker.
        func threadEnded() {
            for _ in 0..<4 {
                let live = entries.compactMap(\.engine).filter { $0.liveCount() > 0 }
                if live.isEmpty { break }
                live.forEach { $0.cancelAll() }
            }
            entries.removeAll()
        }
    }

    private struct Entry {
        weak var engine: TickerEngine?
    }

    /// The thread-specific key whose destructor runs `threadEnded()` as each watching thread exits.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let result = ctimerkit_thread_key_create(&key) { value in
            // Called only with non-null values.
            guard let value else { return }
            RunLoopThreadEnd.threadExited(value)
        }
        precondition(result == 0, "TimerKit: pthread_key_create failed (\(result))")
        return key
    }()

    /// The key's destructor: a watching thread is exiting with `value`, its `Watched` (retained once).
    static func threadExited(_ value: UnsafeMutableRawPointer) {
        Unmanaged<Watched>.fromOpaque(value).takeRetainedValue().threadEnded()
    }
}
