#define _GNU_SOURCE
#include "CTimerKit.h"

#include <pthread.h>
#include <stdatomic.h>

#if defined(__linux__)
#include <sys/prctl.h>

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
