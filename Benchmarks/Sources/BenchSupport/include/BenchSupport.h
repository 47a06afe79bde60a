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

#ifdef __cplusplus
}
#endif

#endif
