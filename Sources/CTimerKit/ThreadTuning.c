// Thread tuning, the one part of CTimerKit that differs per platform: timer slack and scheduler slice
// (Linux only) and naming the calling thread (each platform's own `pthread_setname_np`). One `#if`, one
// branch per platform; an unknown platform stops the build.
#define _GNU_SOURCE  // glibc declares pthread_getname_np and pthread_setname_np only with it
#include "CTimerKit.h"

#if defined(__linux__)
#include <errno.h>
#include <pthread.h>
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
#elif defined(__APPLE__)
#include <pthread.h>

// Apple platforms have no timer slack or scheduler slice to set: the precise context's thread runs at
// user-interactive quality of service instead (set from Swift).
int ctimerkit_set_thread_timer_slack(unsigned long nanoseconds) {
    (void)nanoseconds;
    return -1;
}

long ctimerkit_thread_timer_slack(void) {
    return -1;
}

int ctimerkit_set_thread_scheduler_slice(unsigned long long nanoseconds) {
    (void)nanoseconds;
    return -1;
}

long long ctimerkit_thread_scheduler_slice(void) {
    return -1;
}

int ctimerkit_set_thread_name(const char *name) {
    return pthread_setname_np(name);
}
#else
#error "CTimerKit: unsupported platform (thread tuning is written for Linux and Apple platforms)"
#endif
