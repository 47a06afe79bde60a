#ifndef CTIMERKIT_H
#define CTIMERKIT_H

#include <pthread.h>
#include <stddef.h>

/// Sets the calling thread's timer slack in nanoseconds (Linux `prctl(PR_SET_TIMERSLACK)`, which Swift
/// cannot call directly because it is variadic). Returns 0 on success, -1 where unsupported or refused.
int ctimerkit_set_thread_timer_slack(unsigned long nanoseconds);

/// The calling thread's timer slack in nanoseconds (Linux `prctl(PR_GET_TIMERSLACK)`), or -1 where
/// unsupported.
long ctimerkit_thread_timer_slack(void);

/// Asks the scheduler for a slice of `nanoseconds` for the calling thread (Linux `sched_setattr` with
/// `sched_runtime`, policy and nice value unchanged; honoured for the default policy by kernels 6.12 and
/// later, where a shorter slice lets a waking thread pre-empt a running one sooner, and ignored by older
/// ones). Threads the calling thread creates later start with the system's slice (reset on fork).
/// Returns 0 on success, an errno value if refused, -1 where unsupported.
int ctimerkit_set_thread_scheduler_slice(unsigned long long nanoseconds);

/// The calling thread's scheduler slice in nanoseconds as the kernel reports it (the system's default
/// slice, the requested one, or 0 on a kernel that reports none), or -1 where unsupported.
long long ctimerkit_thread_scheduler_slice(void);

/// Names the calling thread (at most 15 bytes are kept on Linux). Returns 0 on success.
int ctimerkit_set_thread_name(const char *name);

/// Copies the calling thread's name into `buffer` (NUL-terminated). Returns 0 on success.
int ctimerkit_get_thread_name(char *buffer, size_t size);

/// Adds `delta` to the process-wide count of active virtual times and returns the new count (atomic).
long ctimerkit_virtual_time_count_add(long delta);

/// The process-wide count of active virtual times (an atomic load: the real-time path's only cost).
long ctimerkit_virtual_time_count(void);

/// Adds `delta` to this thread's count of virtual-time deliveries in progress and returns the new count
/// (thread-local: an advance made from inside a delivered handler sees a non-zero count).
long ctimerkit_virtual_delivery_depth_add(long delta);

/// The last owner-bound item with a handle (a ticker or a frame subscription) that the calling thread
/// created: the address of the engine or frame source holding it (an identity only, never dereferenced)
/// and its slot and serial there. Thread-local, so that other threads' creations never hide it: a bound
/// handle released on this thread compares its item with it (TimerKit's replacement rule).
typedef struct {
    const void *container;
    long long slot;
    unsigned long long serial;
} ctimerkit_bound_creation;

/// Records the calling thread's latest bound creation (thread-local).
void ctimerkit_set_last_bound_creation(ctimerkit_bound_creation creation);

/// The calling thread's latest bound creation; `container` is NULL if it made none.
ctimerkit_bound_creation ctimerkit_last_bound_creation_get(void);

/// Creates a thread-specific key whose destructor runs with each exiting thread's non-null value
/// (`pthread_key_create`). One signature for every platform: Swift imports the destructor's parameter of
/// `pthread_key_create` as optional from glibc and as non-optional from Apple's headers.
int ctimerkit_thread_key_create(pthread_key_t *key, void (*destructor)(void *));

/// Asks the processor to start loading the cache line at `address` for reading, so that a later access
/// finds it cached. A hint only: no effect on the program's results, never faults (any address may be
/// given), and may be ignored. Lets a loop over scattered objects overlap their memory latencies.
static inline void ctimerkit_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

/// As `ctimerkit_prefetch`, for a line that is about to be written (a reference count, a lock word).
static inline void ctimerkit_prefetch_for_write(const void *address) { __builtin_prefetch(address, 1, 3); }

#endif
