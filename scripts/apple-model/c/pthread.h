/* A model of the part of Apple's <pthread.h> that CTimerKit's Apple branch uses (ThreadTuning.c,
   CTimerKit.h), for the Linux syntax check of that branch (scripts/check-apple-paths.sh). Written from the
   pthread(3) manual pages of macOS, not copied from the SDK. */
#ifndef CTIMERKIT_APPLE_MODEL_PTHREAD_H
#define CTIMERKIT_APPLE_MODEL_PTHREAD_H

typedef unsigned long pthread_key_t;
typedef struct _opaque_pthread_t *pthread_t;

/* pthread_key_create(3) */
int pthread_key_create(pthread_key_t *key, void (*destructor)(void *));
/* pthread_self(3) */
pthread_t pthread_self(void);
/* pthread_setname_np(3) on macOS: names the calling thread only (one argument, unlike Linux's). */
int pthread_setname_np(const char *name);
/* pthread_getname_np(3) on macOS */
int pthread_getname_np(pthread_t thread, char *name, unsigned long size);

#endif
