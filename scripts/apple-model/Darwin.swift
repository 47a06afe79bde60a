// A model of the part of Apple's Darwin module that TimerKit's Apple-only code uses, for the Linux
// type-check of that code (scripts/check-apple-paths.sh). The POSIX declarations Darwin shares with Linux
// (pthread mutexes, conditions and keys, `timespec`, `clock_gettime`'s clock ids) come from Glibc, which
// declares them with the same names and types as POSIX does; the Darwin-only ones are declared here from
// Apple's documentation and manual pages, not copied from the SDK. They only have to type-check.

@_exported import Glibc

/// clock_gettime_nsec_np, in the clock_gettime(3) manual page of macOS: the clock's time in nanoseconds
/// (`CLOCK_MONOTONIC_RAW`: continuous time, which counts while the device sleeps).
public func clock_gettime_nsec_np(_ clockID: clockid_t) -> UInt64 { fatalError("model only") }

/// pthread_cond_timedwait_relative_np(3) on macOS (`<pthread.h>`): waits on `condition` for at most the
/// relative `timeout`.
public func pthread_cond_timedwait_relative_np(
    _ condition: UnsafeMutablePointer<pthread_cond_t>, _ mutex: UnsafeMutablePointer<pthread_mutex_t>,
    _ timeout: UnsafePointer<timespec>
) -> Int32 { fatalError("model only") }
