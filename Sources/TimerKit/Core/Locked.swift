import Foundation

/// The mutex of every TimerKit lock: a POSIX mutex on every platform (as swift-nio's `NIOLock` on Linux and
/// Apple platforms alike).
typealias PlatformMutex = pthread_mutex_t

/// A value that lives inside its lock: the only way to reach it is `withLock`.
///
/// Built on `pthread_mutex_t` rather than `Synchronization.Mutex`, which draws false
/// ThreadSanitizer reports under contention on Linux. Never call user code, a continuation or a driver
/// from inside `withLock`: return an action and perform it after the closure.
///
/// Sendable only when its value is (as `NIOLockedValueBox`): the lock makes accesses exclusive, it does
/// not make a non-Sendable value safe to reach from two isolation domains. The value may be noncopyable
/// (an engine's storage is): it is consumed into the lock and only ever used in place there.
final class Locked<Value: ~Copyable> {
    // Invariant: `value` is private and read or written only between lock and unlock in `withLock`.
    // It lives behind a pointer rather than in a stored property so that each access skips the dynamic
    // exclusivity check (the lock already makes accesses exclusive). The mutex and the value share one
    // allocation, the mutex first: a cold lock reaches the value without a second allocation's miss.
    // (Aligned only as the two types need: a stricter alignment takes the allocator's slow path and pads.)
    private let mutex: UnsafeMutablePointer<PlatformMutex>
    private let value: UnsafeMutablePointer<Value>

    /// Where the value starts in the shared allocation: after the mutex, at the value's alignment.
    private static var valueOffset: Int {
        let alignment = MemoryLayout<Value>.alignment
        return (MemoryLayout<PlatformMutex>.stride + alignment - 1) / alignment * alignment
    }

    private init(_ initial: consuming Value) {
        let storage = UnsafeMutableRawPointer.allocate(
            byteCount: Self.valueOffset + MemoryLayout<Value>.stride,
            alignment: max(MemoryLayout<PlatformMutex>.alignment, MemoryLayout<Value>.alignment))
        mutex = storage.bindMemory(to: PlatformMutex.self, capacity: 1)
        mutex.initializeMutex()
        value = (storage + Self.valueOffset).bindMemory(to: Value.self, capacity: 1)
        value.initialize(to: initial)
    }

    static func make(_ initial: consuming Value) -> Locked<Value> {
        Locked(initial)
    }

    deinit {
        value.deinitialize(count: 1)
        mutex.deinitializeMutex()
        UnsafeMutableRawPointer(mutex).deallocate()
    }

    @inline(__always)
    func withLock<Result: ~Copyable>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        mutex.lock()
        defer { mutex.unlock() }
        return try body(&value.pointee)
    }
}

// Invariant: the value is reached only inside `withLock`, between lock and unlock, so two threads never
// reach it at once; and a value that is itself Sendable may be handed from one thread to another.
extension Locked: @unchecked Sendable where Value: Sendable & ~Copyable {}

extension UnsafeMutablePointer where Pointee == PlatformMutex {
    /// Initialises an unlocked mutex in this uninitialised memory.
    func initializeMutex() {
        initialize(to: pthread_mutex_t())
        let result = pthread_mutex_init(self, nil)
        precondition(result == 0, "TimerKit: pthread_mutex_init failed (\(result))")
    }

    /// Destroys the (unlocked) mutex here, leaving the memory uninitialised.
    func deinitializeMutex() {
        pthread_mutex_destroy(self)
        deinitialize(count: 1)
    }

    @inline(__always)
    func lock() {
        pthread_mutex_lock(self)
    }

    /// Locks the mutex if it is free, without waiting; returns whether it did.
    @inline(__always)
    func tryLock() -> Bool {
        pthread_mutex_trylock(self) == 0
    }

    @inline(__always)
    func unlock() {
        pthread_mutex_unlock(self)
    }
}
