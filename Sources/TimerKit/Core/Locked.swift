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
///
/// The value and its lock share one allocation (the value as the buffer's header, the lock in its tail,
/// where it never moves, as a mutex must not): taking the lock and reaching the value touch one object.
struct Locked<Value>: @unchecked Sendable {
    // Invariant: the value is read or written only between lock and unlock in `withLock`, through the
    // buffer's pointers, which skip the dynamic exclusivity check (the lock already makes accesses
    // exclusive). Copies share the one buffer, so a `Locked` is passed around like a reference.
    private let storage: LockedStorage<Value>

    /// A lock around `initial`.
    static func make(_ initial: Value) -> Locked<Value> {
        Locked(storage: .make(initial))
    }

    @inline(__always)
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { value, mutex in
            mutex.lock()
            defer { mutex.unlock() }
            return try body(&value.pointee)
        }
    }
}

/// A ``Locked`` value (the buffer's header) and its mutex (in the tail, which never moves, as a mutex must
/// not), in one allocation.
private final class LockedStorage<Value>: ManagedBuffer<Value, PlatformMutex> {
    /// `initial` and an unlocked mutex; the mutex is initialised before the buffer is shared.
    static func make(_ initial: Value) -> LockedStorage<Value> {
        let storage = unsafeDowncast(create(minimumCapacity: 1) { _ in initial }, to: LockedStorage<Value>.self)
        storage.withUnsafeMutablePointerToElements { $0.initializeMutex() }
        return storage
    }

    deinit {
        withUnsafeMutablePointerToElements { $0.deinitializeMutex() }
    }
}

extension UnsafeMutablePointer where Pointee == PlatformMutex {
    /// Initialises an unlocked mutex in this uninitialised memory.
    func initializeMutex() {
        #if canImport(Darwin)
            initialize(to: os_unfair_lock())
        #else
            initialize(to: pthread_mutex_t())
            let result = pthread_mutex_init(self, nil)
            precondition(result == 0, "TimerKit: pthread_mutex_init failed (\(result))")
        #endif
    }

    /// Destroys the (unlocked) mutex here, leaving the memory uninitialised.
    func deinitializeMutex() {
        #if !canImport(Darwin)
            pthread_mutex_destroy(self)
        #endif
        deinitialize(count: 1)
    }

    @inline(__always)
    func lock() {
        #if canImport(Darwin)
            os_unfair_lock_lock(self)
        #else
            pthread_mutex_lock(self)
        #endif
    }

    @inline(__always)
    func unlock() {
        #if canImport(Darwin)
            os_unfair_lock_unlock(self)
        #else
            pthread_mutex_unlock(self)
        #endif
    }
}
