#include "BenchSupport.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#if defined(__linux__)
#include <malloc.h>
#include <poll.h>
#include <pthread.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/timerfd.h>
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

// MARK: Noticing sets of the system clock (Linux: a timerfd with TFD_TIMER_CANCEL_ON_SET)

int bench_timerfd_realtime_create(void) {
#if defined(__linux__)
    int fd = timerfd_create(CLOCK_REALTIME, TFD_CLOEXEC | TFD_NONBLOCK);
    return fd < 0 ? -errno : fd;
#else
    return -ENOSYS;
#endif
}

int bench_timerfd_arm_cancel_on_set(int fd, int64_t wall_seconds) {
#if defined(__linux__)
    struct itimerspec spec = {0};
    spec.it_value.tv_sec = (time_t)wall_seconds;
    return timerfd_settime(fd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &spec, NULL) == 0 ? 0 : -errno;
#else
    (void)fd;
    (void)wall_seconds;
    return -ENOSYS;
#endif
}

int bench_timerfd_poll_cancelled(int fd) {
#if defined(__linux__)
    uint64_t expirations = 0;
    if (read(fd, &expirations, sizeof expirations) == (ssize_t)sizeof expirations) return 2;
    if (errno == ECANCELED) return 1;
    if (errno == EAGAIN) return 0;
    return -errno;
#else
    (void)fd;
    return -ENOSYS;
#endif
}

/// Far enough ahead never to expire: 2100-01-01 00:00 UTC.
static const int64_t bench_far_future_seconds = 4102444800;

struct bench_clock_set_watcher {
#if defined(__linux__)
    int timer;
    int stop;
    pthread_t thread;
    int64_t sets;  // written by the watcher's thread, read with __atomic loads
#else
    int unused;
#endif
};

#if defined(__linux__)
static void *bench_clock_set_watch(void *argument) {
    bench_clock_set_watcher *watcher = argument;
    prctl(PR_SET_NAME, (unsigned long)"bench.clockset", 0, 0, 0);
    struct pollfd fds[2] = {{.fd = watcher->timer, .events = POLLIN}, {.fd = watcher->stop, .events = POLLIN}};
    for (;;) {
        if (poll(fds, 2, -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        if (fds[1].revents) break;
        if (fds[0].revents && bench_timerfd_poll_cancelled(watcher->timer) == 1) {
            // The clock was set: this is where the wall-clock tickers would be recomputed. Re-arming
            // clears the cancelled state.
            __atomic_add_fetch(&watcher->sets, 1, __ATOMIC_RELAXED);
            bench_timerfd_arm_cancel_on_set(watcher->timer, bench_far_future_seconds);
        }
    }
    return NULL;
}
#endif

bench_clock_set_watcher *bench_clock_set_watcher_start(void) {
#if defined(__linux__)
    bench_clock_set_watcher *watcher = calloc(1, sizeof *watcher);
    if (watcher == NULL) return NULL;
    watcher->timer = bench_timerfd_realtime_create();
    watcher->stop = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (watcher->timer < 0 || watcher->stop < 0
        || bench_timerfd_arm_cancel_on_set(watcher->timer, bench_far_future_seconds) != 0
        || pthread_create(&watcher->thread, NULL, bench_clock_set_watch, watcher) != 0) {
        if (watcher->timer >= 0) close(watcher->timer);
        if (watcher->stop >= 0) close(watcher->stop);
        free(watcher);
        return NULL;
    }
    return watcher;
#else
    return NULL;
#endif
}

int64_t bench_clock_set_watcher_sets(const bench_clock_set_watcher *watcher) {
#if defined(__linux__)
    return __atomic_load_n(&watcher->sets, __ATOMIC_RELAXED);
#else
    (void)watcher;
    return 0;
#endif
}

void bench_clock_set_watcher_stop(bench_clock_set_watcher *watcher) {
#if defined(__linux__)
    if (watcher == NULL) return;
    uint64_t one = 1;
    ssize_t written = write(watcher->stop, &one, sizeof one);
    (void)written;
    pthread_join(watcher->thread, NULL);
    close(watcher->timer);
    close(watcher->stop);
    free(watcher);
#else
    (void)watcher;
#endif
}
