#include "BenchSupport.h"

#include <fcntl.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

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

int64_t bench_resident_bytes(void) {
    // statm: "size resident shared text lib data dt", in pages. A fixed buffer, so that sampling does not
    // allocate on the heap it measures.
    int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    char text[128];
    ssize_t length = read(fd, text, sizeof text - 1);
    close(fd);
    if (length <= 0) return -1;
    text[length] = 0;
    long long size = 0, resident = 0;
    if (sscanf(text, "%lld %lld", &size, &resident) != 2) return -1;
    long page = sysconf(_SC_PAGESIZE);
    return page > 0 ? (int64_t)resident * page : -1;
}

int64_t bench_process_cpu_nanoseconds(void) {
    struct timespec spec;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec) != 0) return -1;
    return (int64_t)spec.tv_sec * 1000000000 + spec.tv_nsec;
}

int64_t bench_monotonic_nanoseconds(void) {
    struct timespec spec;
    clock_gettime(CLOCK_MONOTONIC, &spec);
    return (int64_t)spec.tv_sec * 1000000000 + spec.tv_nsec;
}

void bench_line_buffer_stdout(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
}

// CoreFoundation ships inside Foundation on Linux (and on Apple platforms); its run-loop calls are
// declared here rather than importing its headers, which are not public on Linux.
typedef struct __CFRunLoop *BenchCFRunLoopRef;
extern BenchCFRunLoopRef CFRunLoopGetCurrent(void);
extern void CFRunLoopStop(BenchCFRunLoopRef loop);

void bench_stop_current_run_loop(void) {
    CFRunLoopStop(CFRunLoopGetCurrent());
}
