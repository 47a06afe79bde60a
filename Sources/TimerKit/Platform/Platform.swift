// Everything TimerKit does differently per platform, in this one file behind one `#if`: the rest of the
// library is shared by every platform and names none. Each branch provides the same `Platform` members;
// an unknown platform stops the build here.
//
// Shared files use POSIX through Foundation (which re-exports the C library on every platform): pthread
// mutexes, conditions and keys, `clock_gettime`, `DispatchTime`.

import Foundation

#if canImport(Darwin)
    import Darwin

    enum Platform {
        /// Nanoseconds of the continuous clock, which keeps counting while the device sleeps: Apple's
        /// continuous time (`CLOCK_MONOTONIC_RAW`, the clock `ContinuousClock` reads; POSIX has no name for
        /// a sleep-counting clock that both platforms share).
        @inline(__always)
        static func continuousNanoseconds() -> Int64 {
            Int64(truncatingIfNeeded: clock_gettime_nsec_np(CLOCK_MONOTONIC_RAW))
        }

        /// Initialises `condition` for `timedWait`, which waits relative to now (Darwin's conditions cannot
        /// take a monotonic clock attribute).
        static func initializeCondition(_ condition: UnsafeMutablePointer<pthread_cond_t>) -> Int32 {
            pthread_cond_init(condition, nil)
        }

        /// Waits on `condition` (its `mutex` held) until the uptime instant `deadline` or a signal; `now` is
        /// the uptime reading the wait was decided at.
        static func timedWait(
            _ condition: UnsafeMutablePointer<pthread_cond_t>, _ mutex: UnsafeMutablePointer<pthread_mutex_t>,
            until deadline: Int64, now: Int64
        ) {
            let delta = max(0, deadline - now)
            var timeout = timespec(tv_sec: Int(delta / 1_000_000_000), tv_nsec: Int(delta % 1_000_000_000))
            _ = pthread_cond_timedwait_relative_np(condition, mutex, &timeout)
        }

        /// Gives a TimerKit thread the quality of service its deadlines need.
        static func prioritise(_ thread: Thread) {
            thread.qualityOfService = .userInteractive
        }

        /// A thread name as the platform keeps it (Apple platforms keep long names).
        static func threadName(_ label: String) -> String { label }

        /// Whether a dispatch context may get a thread of its own to wait on: not on Apple platforms, whose
        /// dispatch timers are exact enough (no slack to work around).
        static let dispatchContextsMayUseThreads = false
    }
#elseif canImport(Glibc) || canImport(Musl) || canImport(Bionic)
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #else
        import Bionic
    #endif

    enum Platform {
        /// Nanoseconds of the continuous clock, which keeps counting while the device sleeps:
        /// `CLOCK_BOOTTIME` (the clock `ContinuousClock` reads on Linux).
        @inline(__always)
        static func continuousNanoseconds() -> Int64 {
            var time = timespec()
            clock_gettime(CLOCK_BOOTTIME, &time)
            return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
        }

        /// Initialises `condition` for `timedWait`, on `CLOCK_MONOTONIC` (the uptime clock), so that a wait
        /// is never moved by a change of the wall clock.
        static func initializeCondition(_ condition: UnsafeMutablePointer<pthread_cond_t>) -> Int32 {
            var attributes = pthread_condattr_t()
            pthread_condattr_init(&attributes)
            defer { pthread_condattr_destroy(&attributes) }
            let clockResult = pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
            guard clockResult == 0 else { return clockResult }
            return pthread_cond_init(condition, &attributes)
        }

        /// Waits on `condition` (its `mutex` held) until the uptime instant `deadline` or a signal.
        static func timedWait(
            _ condition: UnsafeMutablePointer<pthread_cond_t>, _ mutex: UnsafeMutablePointer<pthread_mutex_t>,
            until deadline: Int64, now: Int64
        ) {
            _ = now
            var timeout = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
            _ = pthread_cond_timedwait(condition, mutex, &timeout)
        }

        /// Gives a TimerKit thread the quality of service its deadlines need: Linux has none to set (the
        /// precise context sets its timer slack and scheduler slice instead).
        static func prioritise(_ thread: Thread) {}

        /// A thread name as Linux keeps it: at most 15 bytes (a longer name is refused).
        static func threadName(_ label: String) -> String {
            var name = ""
            for character in label {
                guard name.utf8.count + character.utf8.count <= 15 else { break }
                name.append(character)
            }
            return name
        }

        /// Whether a dispatch context may get a thread of its own to wait on: yes on Linux, where a
        /// dispatch timer's wake-up is late by the default 50 µs timer slack and more.
        static let dispatchContextsMayUseThreads = true
    }
#else
    #error("TimerKit: unsupported platform (it needs Darwin, Glibc, Musl or Bionic)")
#endif
