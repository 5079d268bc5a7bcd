/*
 * jio.c - Apache-2.0, part of this project's native-image toolchain.
 *
 * Part of libjvm.a (replacing SubstrateVM's): the variadic jio_* printing
 * functions used by the JDK's C code (libjava's own copies are compiled out in
 * a STATIC_BUILD). They forward to jio_v.c.
 */
#include <stdarg.h>
#include <stdio.h>

int jio_vsnprintf(char *str, size_t count, const char *fmt, va_list args);
int jio_vfprintf(FILE *f, const char *fmt, va_list args);

int jio_snprintf(char *str, size_t count, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    int len = jio_vsnprintf(str, count, fmt, args);
    va_end(args);
    return len;
}

int jio_fprintf(FILE *f, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    int len = jio_vfprintf(f, fmt, args);
    va_end(args);
    return len;
}
