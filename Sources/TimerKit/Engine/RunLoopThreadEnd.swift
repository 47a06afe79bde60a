import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Bionic)
    import Bionic
#endif

/// Cancels the tickers of a thread's own run loop when the thread ends.
///
/// A run loop whose thread has ended never runs again, so its tickers can never fire. A ticker held by its
/// handle goes when the handle goes, but one bound to an owner that outlives the thread (a worker object
/// the thread's caller drops later) would keep the engine, and through the engine's context the finished
/// thread's run loop and its file descriptors, until a dead-owner sweep happened to run. So when an engine
/// is made for a run loop on that loop's own thread (as ``TickerContext/current`` does), the thread keeps a
/// weak list of its run-loop engines in a thread-specific value whose destructor, run as the thread exits,
/// cancels their tickers. Their handlers are released on the exiting thread.
///
/// Engines made for a run loop from another thread (`.runLoop(someLoop)` on a thread that is not
/// `someLoop`'s) are not watched: the loop's thread cannot be known from there.
enum RunLoopThreadEnd {
    /// Watches `engine` when `context` is the current thread's own run loop (not the main one, whose thread
    /// ends with the process).
    static func watch(_ engine: TickerEngine, for context: TickerContext) {
        guard case .runLoop(let loop, _) = context.storage, !loop.isMain, loop.runLoop === RunLoop.current else {
            return
        }
        let watched: Watched
        if let value = pthread_getspecific(key) {
            watched = Unmanaged<Watched>.fromOpaque(value).takeUnretainedValue()
        } else {
            watched = Watched()
            // The thread-specific value holds one reference, handed back by the destructor.
            let result = pthread_setspecific(key, Unmanaged.passRetained(watched).toOpaque())
            precondition(result == 0, "TimerKit: pthread_setspecific failed (\(result))")
        }
        watched.add(engine)
    }

    /// The run-loop engines made on one thread, read only on that thread (by `watch` and, as the thread
    /// exits, by the key's destructor).
    private final class Watched {
        private var engines: [Weak] = []

        func add(_ engine: TickerEngine) {
            // Engines that went away leave their entries; drop them before the list grows.
            if engines.count >= 8 { engines.removeAll { $0.engine == nil } }
            engines.append(Weak(engine: engine))
        }

        /// The thread is ending: its run loop will never run again.
        func threadEnded() {
            let live = engines.compactMap(\.engine)
            engines.removeAll()
            live.forEach { $0.cancelAll() }
        }
    }

    private struct Weak {
        weak var engine: TickerEngine?
    }

    /// The thread-specific key whose destructor runs `threadEnded()` as each watching thread exits.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        #if canImport(Darwin)
            let result = pthread_key_create(&key) { value in
                Unmanaged<Watched>.fromOpaque(value).takeRetainedValue().threadEnded()
            }
        #else
            let result = pthread_key_create(&key) { value in
                guard let value else { return }
                Unmanaged<Watched>.fromOpaque(value).takeRetainedValue().threadEnded()
            }
        #endif
        precondition(result == 0, "TimerKit: pthread_key_create failed (\(result))")
        return key
    }()
}
