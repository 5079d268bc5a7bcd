/*
 * misc.c - Apache-2.0, part of this project's native-image toolchain.
 *
 * Replaces the small libc wrappers of SubstrateVM's liblibchelper.a. Written
 * from the @CFunction declarations that name them:
 *   LibCHelper.getEnviron, LinuxLibCHelper.getThreadId /
 *   getThreadUserTimeSlow / mremapP, Fcntl.openSII / openatISII,
 *   PosixVMThreads.fprintfSD, CodeSynchronizationOperations.clearCache.
 * Java cannot call variadic C functions, hence the fixed-signature wrappers
 * (the suffix letters spell the argument types: S = string, I = int, D = int).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

extern char **environ;

char **getEnviron(void) {
    return environ;
}

int getThreadId(void) {
    return (int) syscall(SYS_gettid);
}

/*
 * User CPU time of thread `tid` in nanoseconds, from /proc/self/task/<tid>/stat
 * (field 14, utime, in clock ticks); -1 on failure. No allocation: may run in
 * uninterruptible VM code.
 */
long getThreadUserTimeSlow(int tid) {
    char path[64], buf[1024];
    snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd == -1) {
        return -1;
    }
    ssize_t n = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (n <= 0) {
        return -1;
    }
    buf[n] = '\0';
    /* The command name (field 2) may contain spaces and parentheses: skip past the last ')'. */
    char *p = strrchr(buf, ')');
    if (p == NULL) {
        return -1;
    }
    unsigned long utime;
    /* fields 3..13: state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt */
    if (sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu", &utime) != 1) {
        return -1;
    }
    long ticks = sysconf(_SC_CLK_TCK);
    if (ticks <= 0) {
        return -1;
    }
    return (long) (utime * (1000000000UL / (unsigned long) ticks));
}

void *mremapP(void *old_address, size_t old_size, size_t new_size, int flags, void *new_address) {
    return mremap(old_address, old_size, new_size, flags, new_address);
}

int openSII(const char *pathname, int flags, int mode) {
    return open(pathname, flags, mode);
}

int openatISII(int dirfd, const char *pathname, int flags, int mode) {
    return openat(dirfd, pathname, flags, mode);
}

int fprintfSD(FILE *stream, const char *format, const char *arg0, int arg1) {
    return fprintf(stream, format, arg0, arg1);
}

void codeSynchronization_clearCache(long code_start, long code_size) {
    char *start = (char *) code_start;
    __builtin___clear_cache(start, start + code_size);
}
