/*
 * jvm.c - Apache-2.0, part of this project's native-image toolchain.
 *
 * Replaces SubstrateVM's libjvm.a (no Maven artifact ships it): the HotSpot
 * "JVM_*" entry points that the JDK's own C code (libjava, libnio, libnet,
 * libzip, libextnet, libmanagement_ext) calls at run time, implemented for a
 * native image, plus `initialize`, declared by com.oracle.svm.core.jdk.Jvm
 * (called before loading a JNI library; nothing to do here).
 * SubstrateVM defines no JVM_* symbols itself, so nothing here is duplicated.
 * Semantics follow the JDK's jvm.h contract; code written for this project.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jni.h>

#define JVM_INTERFACE_VERSION 6

void initialize(void) {
}

jint JVM_GetInterfaceVersion(void) {
    return JVM_INTERFACE_VERSION;
}

jboolean JVM_IsStaticallyLinked(void) {
    return JNI_TRUE;
}

/* Processors this process may run on (affinity mask), ignoring container limits:
 * com.oracle.svm.core.container.OperatingSystem relies on that. */
jint JVM_ActiveProcessorCount(void) {
    for (int ncpus = 1024; ncpus <= 65536; ncpus *= 2) {
        cpu_set_t *set = CPU_ALLOC(ncpus);
        if (set == NULL) {
            break;
        }
        size_t size = CPU_ALLOC_SIZE(ncpus);
        CPU_ZERO_S(size, set);
        if (sched_getaffinity(0, size, set) == 0) {
            int count = CPU_COUNT_S(size, set);
            CPU_FREE(set);
            if (count > 0) {
                return count;
            }
            break;
        }
        CPU_FREE(set);
    }
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (jint) n : 1;
}

/* ---- time ---- */

jlong JVM_CurrentTimeMillis(JNIEnv *env, jclass ignored) {
    (void) env; (void) ignored;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (jlong) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

jlong JVM_NanoTime(JNIEnv *env, jclass ignored) {
    (void) env; (void) ignored;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (jlong) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Nanoseconds since offset_secs (UTC), or -1 if that is 2^32 s or more away. */
jlong JVM_GetNanoTimeAdjustment(JNIEnv *env, jclass ignored, jlong offset_secs) {
    (void) env; (void) ignored;
    const jlong max_diff = (jlong) 1 << 32;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    jlong diff = (jlong) ts.tv_sec - offset_secs;
    if (diff >= max_diff || diff <= -max_diff) {
        return -1;
    }
    return diff * 1000000000 + ts.tv_nsec;
}

/* ---- files, libraries ---- */

/* POSIX paths need no conversion. */
char *JVM_NativePath(char *path) {
    return path;
}

jstring JVM_GetTemporaryDirectory(JNIEnv *env) {
    return (*env)->NewStringUTF(env, "/tmp");
}

void *JVM_LoadLibrary(const char *name, jboolean throwException) {
    (void) throwException; /* callers check for NULL; no exception is raised here */
    return dlopen(name, RTLD_LAZY);
}

void JVM_UnloadLibrary(void *handle) {
    if (handle != NULL) {
        dlclose(handle);
    }
}

void *JVM_FindLibraryEntry(void *handle, const char *name) {
    return dlsym(handle, name);
}

jboolean JVM_IsSupportedJNIVersion(jint version) {
    switch (version) {
        case JNI_VERSION_1_2: case JNI_VERSION_1_4: case JNI_VERSION_1_6: case JNI_VERSION_1_8:
        case JNI_VERSION_9: case JNI_VERSION_10: case JNI_VERSION_19: case JNI_VERSION_20:
        case JNI_VERSION_21: case 0x00180000 /* JNI_VERSION_24 */:
            return JNI_TRUE;
        default:
            return JNI_FALSE;
    }
}

/* ---- raw monitors (used by libzip): plain non-recursive mutexes ---- */

void *JVM_RawMonitorCreate(void) {
    pthread_mutex_t *m = malloc(sizeof(pthread_mutex_t));
    if (m != NULL && pthread_mutex_init(m, NULL) != 0) {
        free(m);
        m = NULL;
    }
    return m;
}

void JVM_RawMonitorDestroy(void *mon) {
    if (mon != NULL) {
        pthread_mutex_destroy((pthread_mutex_t *) mon);
        free(mon);
    }
}

jint JVM_RawMonitorEnter(void *mon) {
    return pthread_mutex_lock((pthread_mutex_t *) mon) == 0 ? 0 : -1;
}

void JVM_RawMonitorExit(void *mon) {
    pthread_mutex_unlock((pthread_mutex_t *) mon);
}

/* ---- signals ---- */

static const struct { const char *name; int number; } signals[] = {
    {"HUP", SIGHUP}, {"INT", SIGINT}, {"QUIT", SIGQUIT}, {"ILL", SIGILL}, {"TRAP", SIGTRAP},
    {"ABRT", SIGABRT}, {"IOT", SIGIOT}, {"BUS", SIGBUS}, {"FPE", SIGFPE}, {"KILL", SIGKILL},
    {"USR1", SIGUSR1}, {"SEGV", SIGSEGV}, {"USR2", SIGUSR2}, {"PIPE", SIGPIPE}, {"ALRM", SIGALRM},
    {"TERM", SIGTERM}, {"STKFLT", SIGSTKFLT}, {"CHLD", SIGCHLD}, {"CONT", SIGCONT}, {"STOP", SIGSTOP},
    {"TSTP", SIGTSTP}, {"TTIN", SIGTTIN}, {"TTOU", SIGTTOU}, {"URG", SIGURG}, {"XCPU", SIGXCPU},
    {"XFSZ", SIGXFSZ}, {"VTALRM", SIGVTALRM}, {"PROF", SIGPROF}, {"WINCH", SIGWINCH},
    {"POLL", SIGPOLL}, {"IO", SIGIO}, {"PWR", SIGPWR}, {"SYS", SIGSYS},
};

/* Signal number for a name without the "SIG" prefix (as jdk.internal.misc.Signal passes it); -1 if unknown. */
jint JVM_FindSignal(const char *name) {
    for (size_t i = 0; i < sizeof(signals) / sizeof(signals[0]); i++) {
        if (strcmp(name, signals[i].name) == 0) {
            return signals[i].number;
        }
    }
    return -1;
}

/* Installs a plain handler (0 = default, 1 = ignore, else a function); returns the old one or (void*)-1. */
void *JVM_RegisterSignal(jint sig, void *handler) {
    struct sigaction act, old;
    memset(&act, 0, sizeof(act));
    sigemptyset(&act.sa_mask);
    act.sa_flags = SA_RESTART;
    act.sa_handler = (void (*)(int)) handler;
    if (sigaction(sig, &act, &old) != 0) {
        return (void *) -1;
    }
    return (void *) old.sa_handler;
}

jboolean JVM_RaiseSignal(jint sig) {
    return raise(sig) == 0 ? JNI_TRUE : JNI_FALSE;
}

/* ---- VM-level switches ---- */

void JVM_BeforeHalt(void) {
}

void JVM_Halt(jint code) {
    exit(code);
}

void JVM_Yield(JNIEnv *env, jclass threadClass) {
    (void) env; (void) threadClass;
    sched_yield();
}

void JVM_SleepNanos(JNIEnv *env, jclass threadClass, jlong nanos) {
    (void) env; (void) threadClass;
    struct timespec ts = {(time_t) (nanos / 1000000000), (long) (nanos % 1000000000)};
    while (nanosleep(&ts, &ts) != 0) {
    }
}

jboolean JVM_IsUseContainerSupport(void) {
    return JNI_TRUE;
}

/* Answered by libsvm_container.a when it is linked (weak reference, no hard dependency). */
extern int svm_container_initialize(int version) __attribute__((weak));

jboolean JVM_IsContainerized(void) {
    if (svm_container_initialize == NULL) {
        return JNI_FALSE;
    }
    return svm_container_initialize(240100) == 1 ? JNI_TRUE : JNI_FALSE;
}

/* No HotSpot management interface: the JDK treats NULL as "not available". */
void *JVM_GetManagement(jint version) {
    (void) version;
    return NULL;
}

jboolean JVM_IsPreviewEnabled(void) { return JNI_FALSE; }
jboolean JVM_IsContinuationsSupported(void) { return JNI_TRUE; }
jboolean JVM_IsForeignLinkerSupported(void) { return JNI_TRUE; }
jboolean JVM_IsFinalizationEnabled(void) { return JNI_TRUE; }
