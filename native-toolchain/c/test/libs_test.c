/*
 * libs_test.c - Apache-2.0, part of this project's native-image toolchain.
 *
 * Links liblibchelper.a and libjvm.a the way an image does and checks the
 * behaviour the SubstrateVM Java side relies on: the CPU feature struct and
 * the negated build-time mask check (x86-64-v3 as the default -march),
 * locale parsing, the signal semaphore, thread CPU time, jio_* printing and a
 * few JVM_* functions.
 */
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "amd64cpufeatures.h"
#include "svm_locale.h"

int cSunMiscSignal_open(void);
int cSunMiscSignal_close(void);
int cSunMiscSignal_awaitSemaphore(void);
int cSunMiscSignal_checkPendingSignal(void);
void (*cSunMiscSignal_signalHandlerFunctionPointer(void))(int);
int getThreadId(void);
long getThreadUserTimeSlow(int tid);
int jio_snprintf(char *str, size_t count, const char *fmt, ...);
int JVM_ActiveProcessorCount(void);
int JVM_FindSignal(const char *name);
long long JVM_GetNanoTimeAdjustment(void *env, void *cls, long long offset);
void *JVM_RawMonitorCreate(void);
int JVM_RawMonitorEnter(void *);
void JVM_RawMonitorExit(void *);

/* Test stand-in for libjava's function (the real one comes from libjava.a). */
char *findJavaTZ_md(const char *home) { (void) home; return strdup("UTC"); }

static int failures;
#define CHECK(cond) do { if (!(cond)) { printf("FAIL: %s (line %d)\n", #cond, __LINE__); failures++; } } while (0)

/* Builds the mask the way CPUFeatureAccessFeatureBase does. */
static void make_mask(unsigned char *mask, size_t size, const size_t *offsets, int n) {
    memset(mask, 0xff, size);
    for (int i = 0; i < n; i++) {
        mask[offsets[i]] = (unsigned char) ~1;
    }
}

int main(void) {
    CPUFeatures f;
    determineCPUFeatures(&f);
    printf("cpu: SSE2=%d SSE4_2=%d AVX=%d AVX2=%d BMI2=%d FMA=%d LZCNT=%d AVX512F=%d\n", f.fSSE2, f.fSSE4_2, f.fAVX,
           f.fAVX2, f.fBMI2, f.fFMA, f.fLZCNT, f.fAVX512F);
    enum { SIZE = (sizeof(CPUFeatures) + 7) / 8 * 8 };
    unsigned char mask[SIZE];
    size_t v3[] = {offsetof(CPUFeatures, fCMOV), offsetof(CPUFeatures, fCX8), offsetof(CPUFeatures, fFXSR),
                   offsetof(CPUFeatures, fMMX), offsetof(CPUFeatures, fSSE), offsetof(CPUFeatures, fSSE2),
                   offsetof(CPUFeatures, fPOPCNT), offsetof(CPUFeatures, fSSE3), offsetof(CPUFeatures, fSSE4_1),
                   offsetof(CPUFeatures, fSSE4_2), offsetof(CPUFeatures, fSSSE3), offsetof(CPUFeatures, fAVX),
                   offsetof(CPUFeatures, fAVX2), offsetof(CPUFeatures, fBMI1), offsetof(CPUFeatures, fBMI2),
                   offsetof(CPUFeatures, fF16C), offsetof(CPUFeatures, fFMA), offsetof(CPUFeatures, fLZCNT)};
    make_mask(mask, SIZE, v3, 1);
    CHECK(checkCPUFeatures((char *) mask) == 0); /* CMOV only */
    make_mask(mask, SIZE, v3, sizeof(v3) / sizeof(v3[0]));
    int v3ok = checkCPUFeatures((char *) mask) == 0;
    printf("x86-64-v3 supported: %s\n", v3ok ? "yes" : "no");
    CHECK(v3ok == (f.fAVX2 && f.fBMI2 && f.fFMA && f.fLZCNT && f.fF16C));
    size_t impossible[] = {offsetof(CPUFeatures, fAVX512ER)}; /* Xeon Phi only */
    make_mask(mask, SIZE, impossible, 1);
    CHECK(checkCPUFeatures((char *) mask) != 0);

    setenv("LC_ALL", "de_CH.UTF-8@euro", 1);
    CHECK(svm_initialize_locale() == SVM_LOCALE_INITIALIZATION_SUCCEEDED);
    svm_locale_props_t *p = svm_get_locale();
    printf("locale: display=%s_%s format=%s_%s\n", p->display_language, p->display_country, p->format_language,
           p->format_country);
    /* glibc only accepts installed locales; without de_CH the C locale -> en_US. */
    CHECK(p->format_language != NULL && p->format_country != NULL);
    CHECK(p->display_variant == NULL);

    CHECK(cSunMiscSignal_open() == 0);
    CHECK(cSunMiscSignal_open() == 1);
    signal(SIGUSR2, cSunMiscSignal_signalHandlerFunctionPointer());
    raise(SIGUSR2);
    CHECK(cSunMiscSignal_awaitSemaphore() == 0);
    CHECK(cSunMiscSignal_checkPendingSignal() == SIGUSR2);
    CHECK(cSunMiscSignal_checkPendingSignal() == -1);
    CHECK(cSunMiscSignal_close() == 0);

    for (volatile long i = 0; i < 100000000; i++) {
    }
    long t = getThreadUserTimeSlow(getThreadId());
    printf("thread user time: %ld ns\n", t);
    CHECK(t > 0);

    char buf[8];
    CHECK(jio_snprintf(buf, sizeof(buf), "%s", "abc") == 3);
    CHECK(jio_snprintf(buf, sizeof(buf), "%s", "truncated!") == -1);
    CHECK(JVM_ActiveProcessorCount() >= 1);
    CHECK(JVM_FindSignal("INT") == SIGINT && JVM_FindSignal("NOPE") == -1);
    CHECK(JVM_GetNanoTimeAdjustment(NULL, NULL, time(NULL)) >= 0);
    CHECK(JVM_GetNanoTimeAdjustment(NULL, NULL, 0) == -1 || time(NULL) < (1LL << 32));
    void *m = JVM_RawMonitorCreate();
    CHECK(m != NULL && JVM_RawMonitorEnter(m) == 0);
    JVM_RawMonitorExit(m);

    printf(failures == 0 ? "libs_test: all passed\n" : "libs_test: %d failures\n", failures);
    return failures != 0;
}
