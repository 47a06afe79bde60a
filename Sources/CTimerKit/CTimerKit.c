#define _GNU_SOURCE
#include "CTimerKit.h"

#include <pthread.h>
#include <stdatomic.h>

#if defined(__linux__)
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/// The kernel's `struct sched_attr` (glibc declares no wrapper for `sched_setattr`/`sched_getattr`).
struct ctimerkit_sched_attr {
    uint32_t size;
    uint32_t sched_policy;
    uint64_t sched_flags;
    int32_t sched_nice;
    uint32_t sched_priority;
    uint64_t sched_runtime;
    uint64_t sched_deadline;
    uint64_t sched_period;
};

int ctimerkit_set_thread_scheduler_slice(unsigned long long nanoseconds) {
    struct ctimerkit_sched_attr attributes;
    memset(&attributes, 0, sizeof attributes);
    if (syscall(SYS_sched_getattr, 0, &attributes, sizeof attributes, 0) != 0) return errno;
    // Only the default policy has a slice to ask for; its nice value is kept as it is.
    if (attributes.sched_policy != 0 /* SCHED_OTHER */) return EPERM;
    attributes.size = sizeof attributes;
    // SCHED_FLAG_RESET_ON_FORK: threads this one creates (a dispatch worker started by a resume, a thread
    // a handler spawns) get the system's slice, not this one's.
    attributes.sched_flags = 0x01;
    attributes.sched_runtime = nanoseconds;
    if (syscall(SYS_sched_setattr, 0, &attributes, 0) != 0) return errno;
    return 0;
}

long long ctimerkit_thread_scheduler_slice(void) {
    struct ctimerkit_sched_attr attributes;
    memset(&attributes, 0, sizeof attributes);
    if (syscall(SYS_sched_getattr, 0, &attributes, sizeof attributes, 0) != 0) return -1;
    return (long long)attributes.sched_runtime;
}

int ctimerkit_set_thread_timer_slack(unsigned long nanoseconds) {
    return prctl(PR_SET_TIMERSLACK, nanoseconds, 0, 0, 0);
}

long ctimerkit_thread_timer_slack(void) {
    return prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
}

int ctimerkit_set_thread_name(const char *name) {
    return pthread_setname_np(pthread_self(), name);
}
#else
int ctimerkit_set_thread_timer_slack(unsigned long nanoseconds) {
    (void)nanoseconds;
    return -1;
}

int ctimerkit_set_thread_scheduler_slice(unsigned long long nanoseconds) {
    (void)nanoseconds;
    return -1;
}

long long ctimerkit_thread_scheduler_slice(void) {
    return -1;
}

long ctimerkit_thread_timer_slack(void) {
    return -1;
}

int ctimerkit_set_thread_name(const char *name) {
#if defined(__APPLE__)
    return pthread_setname_np(name);
#else
    (void)name;
    return -1;
#endif
}
#endif

int ctimerkit_get_thread_name(char *buffer, size_t size) {
#if defined(__linux__) || defined(__APPLE__)
    return pthread_getname_np(pthread_self(), buffer, size);
#else
    if (size > 0) buffer[0] = 0;
    return -1;
#endif
}

static atomic_long ctimerkit_virtual_times = 0;

long ctimerkit_virtual_time_count_add(long delta) {
    return atomic_fetch_add_explicit(&ctimerkit_virtual_times, delta, memory_order_acq_rel) + delta;
}

long ctimerkit_virtual_time_count(void) {
    return atomic_load_explicit(&ctimerkit_virtual_times, memory_order_acquire);
}

static _Thread_local long ctimerkit_virtual_delivery_depth = 0;

long ctimerkit_virtual_delivery_depth_add(long delta) {
    ctimerkit_virtual_delivery_depth += delta;
    return ctimerkit_virtual_delivery_depth;
}

static _Thread_local ctimerkit_bound_creation ctimerkit_last_bound_creation = {0, 0, 0};

void ctimerkit_set_last_bound_creation(ctimerkit_bound_creation creation) {
    ctimerkit_last_bound_creation = creation;
}

ctimerkit_bound_creation ctimerkit_last_bound_creation_get(void) { return ctimerkit_last_bound_creation; }
