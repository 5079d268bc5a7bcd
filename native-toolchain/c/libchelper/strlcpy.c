/*
 * strlcpy.c - Apache-2.0, part of this project's native-image toolchain.
 *
 * PosixLibC declares strlcpy as a @CFunction; glibc only has it since 2.38
 * (Debian 12 ships 2.36). Kept in its own archive member so it is only linked
 * when the symbol is otherwise undefined. BSD semantics: copies at most
 * size-1 bytes, always NUL-terminates (if size > 0), returns strlen(src).
 */
#include <string.h>

size_t strlcpy(char *dst, const char *src, size_t size) {
    size_t len = strlen(src);
    if (size > 0) {
        size_t n = len < size - 1 ? len : size - 1;
        memcpy(dst, src, n);
        dst[n] = '\0';
    }
    return len;
}
