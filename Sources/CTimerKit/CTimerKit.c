// The portable part of CTimerKit: counters, thread-locals and reading a thread's name, the same on every
// platform (thread tuning, which is not, is in ThreadTuning.c).
#define _GNU_SOURCE  // glibc declares pthread_getname_np and pthread_setname_np only with it
#include "CTimerKit.h"

#include <pthread.h>
#include <stdatomic.h>

int ctimerkit_thread_key_create(pthread_key_t *key, void (*destructor)(void *)) {
    return pthread_key_create(key, destructor);
}

int ctimerkit_get_thread_name(char *buffer, size_t size) {
    return pthread_getname_np(pthread_self(), buffer, size);
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
