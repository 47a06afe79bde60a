#ifndef CTIMERKIT_H
#define CTIMERKIT_H

/// Sets the calling thread's timer slack in nanoseconds (Linux `prctl(PR_SET_TIMERSLACK)`, which Swift
/// cannot call directly because it is variadic). Returns 0 on success, -1 where unsupported or refused.
int ctimerkit_set_thread_timer_slack(unsigned long nanoseconds);

#endif
