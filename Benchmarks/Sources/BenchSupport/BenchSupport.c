#include "BenchSupport.h"

#if defined(__linux__)
#include <malloc.h>
#include <sys/prctl.h>
#endif

int bench_set_timer_slack(uint64_t nanoseconds) {
#if defined(__linux__)
    return prctl(PR_SET_TIMERSLACK, (unsigned long)nanoseconds, 0, 0, 0) == 0 ? 0 : -1;
#else
    (void)nanoseconds;
    return -1;
#endif
}

int64_t bench_timer_slack(void) {
#if defined(__linux__)
    int slack = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
    return slack < 0 ? -1 : (int64_t)slack;
#else
    return -1;
#endif
}

int64_t bench_malloc_in_use(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    struct mallinfo2 info = mallinfo2();
    return (int64_t)(info.uordblks + info.hblkhd);
#else
    return -1;
#endif
}

int64_t bench_malloc_arena_in_use(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    return (int64_t)mallinfo2().uordblks;
#else
    return -1;
#endif
}

int bench_malloc_trim(void) {
#if defined(__GLIBC__)
    return malloc_trim(0);
#else
    return 0;
#endif
}

// CoreFoundation ships inside Foundation on Linux (and on Apple platforms); its run-loop calls are
// declared here rather than importing its headers, which are not public on Linux.
typedef struct __CFRunLoop *BenchCFRunLoopRef;
extern BenchCFRunLoopRef CFRunLoopGetCurrent(void);
extern void CFRunLoopStop(BenchCFRunLoopRef loop);

void bench_stop_current_run_loop(void) {
    CFRunLoopStop(CFRunLoopGetCurrent());
}
