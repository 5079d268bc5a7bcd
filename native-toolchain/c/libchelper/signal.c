/*
 * signal.c - Apache-2.0, part of this project's native-image toolchain.
 *
 * Replaces the cSunMiscSignal_* helpers of SubstrateVM's liblibchelper.a.
 * Written from com.oracle.svm.core.posix.headers.CSunMiscSignal and its caller
 * PosixSignalHandlerSupport: one process-wide mechanism, owned by at most one
 * isolate; the C signal handler counts the signal and posts a semaphore
 * (both async-signal-safe); the Java "Signal Dispatcher" thread waits on the
 * semaphore and takes one pending signal at a time.
 */
#include <errno.h>
#include <semaphore.h>
#include <signal.h>
#include <stdbool.h>

static volatile int owner;              /* 0 = free, 1 = claimed by an isolate */
static sem_t semaphore;
static volatile int pending[NSIG];      /* per-signal counters, updated atomically */

int cSunMiscSignal_open(void) {
    if (!__sync_bool_compare_and_swap(&owner, 0, 1)) {
        return 1; /* already in use by another isolate */
    }
    for (int i = 0; i < NSIG; i++) {
        pending[i] = 0;
    }
    if (sem_init(&semaphore, 0, 0) != 0) {
        owner = 0;
        return -1; /* errno is set */
    }
    return 0;
}

int cSunMiscSignal_close(void) {
    int rc = sem_destroy(&semaphore);
    __sync_synchronize();
    owner = 0;
    return rc;
}

int cSunMiscSignal_awaitSemaphore(void) {
    while (sem_wait(&semaphore) != 0) {
        if (errno != EINTR) {
            return -1;
        }
    }
    return 0;
}

int cSunMiscSignal_signalSemaphore(void) {
    return sem_post(&semaphore);
}

bool cSunMiscSignal_signalRangeCheck(int sig) {
    return sig > 0 && sig < NSIG;
}

int cSunMiscSignal_checkPendingSignal(void) {
    for (int sig = 1; sig < NSIG; sig++) {
        int n;
        while ((n = pending[sig]) > 0) {
            if (__sync_bool_compare_and_swap(&pending[sig], n, n - 1)) {
                return sig;
            }
        }
    }
    return -1;
}

static void dispatch(int sig) {
    int saved_errno = errno;
    if (sig > 0 && sig < NSIG) {
        __sync_fetch_and_add(&pending[sig], 1);
        sem_post(&semaphore);
    }
    errno = saved_errno;
}

typedef void (*signal_dispatcher_t)(int);

signal_dispatcher_t cSunMiscSignal_signalHandlerFunctionPointer(void) {
    return dispatch;
}
