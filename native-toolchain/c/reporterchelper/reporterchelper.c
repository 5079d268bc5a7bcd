/*
 * reporterchelper.c - Apache-2.0, part of this project's native-image toolchain.
 *
 * Replaces libreporterchelper.so, which a GraalVM distribution ships in
 * <java.home>/lib/svm/builder/lib/ and which no Maven artifact contains.
 * com.oracle.svm.hosted.ProgressReporterCHelper loads it with System.load and
 * declares the two JNI methods implemented here (written from that class):
 *   getTerminalWindowColumns0: columns of the terminal on stdout (or stderr),
 *                              80 (the class's default) when there is none;
 *   getPeakRSS0:               peak resident set size of the builder in bytes,
 *                              -1 if unavailable.
 */
#include <jni.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <unistd.h>

JNIEXPORT jint JNICALL
Java_com_oracle_svm_hosted_ProgressReporterCHelper_getTerminalWindowColumns0(JNIEnv *env, jclass clazz) {
    (void) env; (void) clazz;
    struct winsize w;
    if ((ioctl(STDOUT_FILENO, TIOCGWINSZ, &w) == 0 || ioctl(STDERR_FILENO, TIOCGWINSZ, &w) == 0) && w.ws_col > 0) {
        return w.ws_col;
    }
    return 80;
}

JNIEXPORT jlong JNICALL
Java_com_oracle_svm_hosted_ProgressReporterCHelper_getPeakRSS0(JNIEnv *env, jclass clazz) {
    (void) env; (void) clazz;
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) == 0) {
        return (jlong) ru.ru_maxrss * 1024; /* Linux reports KiB */
    }
    return -1;
}
