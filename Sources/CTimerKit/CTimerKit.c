#include "CTimerKit.h"

#if defined(__linux__)
#include <sys/prctl.h>

int ctimerkit_set_thread_timer_slack(unsigned long nanoseconds) {
    return prctl(PR_SET_TIMERSLACK, nanoseconds, 0, 0, 0);
}
#else
int ctimerkit_set_thread_timer_slack(unsigned long nanoseconds) {
    (void)nanoseconds;
    return -1;
}
#endif
