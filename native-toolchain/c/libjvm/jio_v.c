/*
 * jio_v.c - Apache-2.0, part of this project's native-image toolchain.
 *
 * Part of libjvm.a (replacing SubstrateVM's): the va_list printing functions
 * the JDK's C code uses. jio_vsnprintf follows the JVM contract: -1 when
 * `count` is 0 or the output was truncated, else the length written.
 * Kept apart from jio.c so that, should libjava's own jio.c (non-STATIC_BUILD)
 * supply jio_snprintf/jio_fprintf, only this member is pulled in.
 */
#include <stdarg.h>
#include <stdio.h>

int jio_vsnprintf(char *str, size_t count, const char *fmt, va_list args) {
    if ((long) count <= 0) {
        return -1;
    }
    int result = vsnprintf(str, count, fmt, args);
    if (result > 0 && (size_t) result >= count) {
        result = -1;
    }
    return result;
}

int jio_vfprintf(FILE *f, const char *fmt, va_list args) {
    return vfprintf(f, fmt, args);
}
