// C helpers for timerkit-bench and timerkit-soak: the few glibc, /proc and CoreFoundation calls Swift cannot
// make directly (or cheaply).
#ifndef BENCH_SUPPORT_H
#define BENCH_SUPPORT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Sets the calling thread's timer slack (`prctl(PR_SET_TIMERSLACK, nanoseconds)`; 0 restores the
/// thread's default). Returns 0 on success, -1 where unsupported or on error.
int bench_set_timer_slack(uint64_t nanoseconds);

/// The calling thread's timer slack in nanoseconds (`prctl(PR_GET_TIMERSLACK)`), or -1.
int64_t bench_timer_slack(void);

/// Bytes the C heap has handed out and not taken back: `mallinfo2()` `uordblks` (in-use chunks of every
/// arena) plus `hblkhd` (chunks served by their own `mmap`, such as large arrays). -1 where unavailable.
int64_t bench_malloc_in_use(void);

/// `mallinfo2()` `uordblks` alone (in-use bytes in the arenas, without `mmap`ed chunks), or -1.
int64_t bench_malloc_arena_in_use(void);

/// Returns free memory at the top of the heaps to the system (`malloc_trim(0)`); 1 if some was released.
int bench_malloc_trim(void);

/// The process's resident set size in bytes (`resident` pages of /proc/self/statm times the page size), read
/// without allocating; -1 where unavailable.
int64_t bench_resident_bytes(void);

/// CPU time consumed by every thread of the process, user and system, in nanoseconds
/// (`CLOCK_PROCESS_CPUTIME_ID`); -1 on error.
int64_t bench_process_cpu_nanoseconds(void);

/// Nanoseconds on `CLOCK_MONOTONIC`.
int64_t bench_monotonic_nanoseconds(void);

/// Makes standard output line-buffered, so that progress lines show at once through a pipe.
void bench_line_buffer_stdout(void);

/// Stops the calling thread's run loop (`CFRunLoopStop(CFRunLoopGetCurrent())`): makes the current
/// `RunLoop.run(mode:before:)` return. Foundation's Swift API has no undeprecated spelling of this.
void bench_stop_current_run_loop(void);

/// A timer file descriptor on `CLOCK_REALTIME` (`timerfd_create(CLOCK_REALTIME, TFD_CLOEXEC |
/// TFD_NONBLOCK)`), or -errno (-ENOSYS where there is no timerfd). Close it with `close`.
int bench_timerfd_realtime_create(void);

/// Arms `fd` (from `bench_timerfd_realtime_create`) to expire at `wall_seconds` since 1970 on
/// `CLOCK_REALTIME`, with `TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET`: a set of the system clock
/// before then makes its next `read` fail with `ECANCELED`. Returns 0 or -errno.
int bench_timerfd_arm_cancel_on_set(int fd, int64_t wall_seconds);

/// Reads `fd` without blocking: 1 when the clock was set since it was armed (`ECANCELED`), 0 when
/// nothing happened (`EAGAIN`), 2 when it expired, -errno on another error.
int bench_timerfd_poll_cancelled(int fd);

/// A thread that notices sets of the system clock at once: blocked in `poll` on a timerfd armed with
/// `TFD_TIMER_CANCEL_ON_SET` for the far future (and on an eventfd, so that it can be stopped), it counts
/// each set and re-arms. Named "bench.clockset".
typedef struct bench_clock_set_watcher bench_clock_set_watcher;

/// Starts the watcher; NULL on error (or where there is no timerfd).
bench_clock_set_watcher *bench_clock_set_watcher_start(void);

/// Clock sets the watcher has noticed.
int64_t bench_clock_set_watcher_sets(const bench_clock_set_watcher *watcher);

/// Wakes the watcher's thread, joins it, closes its descriptors and frees it.
void bench_clock_set_watcher_stop(bench_clock_set_watcher *watcher);

#ifdef __cplusplus
}
#endif

#endif
