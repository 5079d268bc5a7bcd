/*
 * timezone.c - Apache-2.0, part of this project's native-image toolchain.
 *
 * Replaces SVM_FindJavaTZmd of SubstrateVM's liblibchelper.a, declared in
 * com.oracle.svm.core.LibCHelper (@CLibrary(..., dependsOn = "java")) and
 * called by the java.util.TimeZone substitution, which frees the result.
 * On Linux it is the JDK's own lookup (TZ, /etc/timezone, /etc/localtime) from
 * libjava's TimeZone_md.c; the tzmappings buffer is only meaningful on Windows.
 * Its own archive member, so only images that need it reference libjava here.
 */
#include <stddef.h>

extern char *findJavaTZ_md(const char *java_home_dir);

char *SVM_FindJavaTZmd(const char *tzMappings, int length) {
    (void) tzMappings;
    (void) length;
    return findJavaTZ_md(NULL);
}
