#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Bionic)
    import Bionic
#else
    #error("TimerKit: unsupported platform (no pthread or os_unfair_lock)")
#endif

#if canImport(Darwin)
    typealias PlatformMutex = os_unfair_lock
#else
    typealias PlatformMutex = pthread_mutex_t
#endif

/// A value that lives inside its lock: the only way to reach it is `withLock`.
///
/// Built on `os_unfair_lock` / `pthread_mutex_t` rather than `Synchronization.Mutex`, which draws false
/// ThreadSanitizer reports under contention on Linux. Never call user code, a continuation or a driver
/// from inside `withLock`: return an action and perform it after the closure.
final class Locked<Value>: @unchecked Sendable {
    // Invariant: `value` is private and read or written only between lock and unlock in `withLock`.
    // It lives behind a pointer rather than in a stored property so that each access skips the dynamic
    // exclusivity check (the lock already makes accesses exclusive).
    private let mutex: UnsafeMutablePointer<PlatformMutex>
    private let value: UnsafeMutablePointer<Value>

    private init(_ initial: Value) {
        value = .allocate(capacity: 1)
        value.initialize(to: initial)
        mutex = .allocate(capacity: 1)
        #if canImport(Darwin)
            mutex.initialize(to: os_unfair_lock())
        #else
            mutex.initialize(to: pthread_mutex_t())
            let result = pthread_mutex_init(mutex, nil)
            precondition(result == 0, "TimerKit: pthread_mutex_init failed (\(result))")
        #endif
    }

    static func make(_ initial: Value) -> Locked<Value> {
        Locked(initial)
    }

    deinit {
        #if !canImport(Darwin)
            pthread_mutex_destroy(mutex)
        #endif
        mutex.deinitialize(count: 1)
        mutex.deallocate()
        value.deinitialize(count: 1)
        value.deallocate()
    }

    @inline(__always)
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        #if canImport(Darwin)
            os_unfair_lock_lock(mutex)
            defer { os_unfair_lock_unlock(mutex) }
        #else
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
        #endif
        return try body(&value.pointee)
    }
}
