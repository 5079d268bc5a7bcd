package org.examsuite.common.problem;

import org.examsuite.contracts.problem.ProblemCode;
/**
 * Strict UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing past U+10FFFF. Jackson's
 * byte parser takes overlong forms (C0 AF reads as '/') and 4-byte forms past U+10FFFF, so a
 * body is checked here before any parser sees it (./exam fuzz, docs/fuzzing.md).
 */
public final class Utf8 {
    private Utf8() {
    }

    /** The body as it is, or 400 MALFORMED_JSON: the one answer every JSON door gives to bytes that are not UTF-8. */
    public static byte[] requireValid(byte[] body) {
        if (!isValid(body)) {
            throw ApiException.badRequest(ProblemCode.MALFORMED_JSON, "The request body is not valid UTF-8.");
        }
        return body;
    }

    public static boolean isValid(byte[] bytes) {
        return isValid(bytes, 0, bytes.length);
    }

    public static boolean isValid(byte[] bytes, int offset, int length) {
        int i = offset;
        int end = offset + length;
        while (i < end) {
            int b = bytes[i];
            if (b >= 0) { // ASCII: the common case, one byte
                i++;
                continue;
            }
            b &= 0xff;
            int need;
            int min;
            if (b >= 0xc2 && b <= 0xdf) {
                need = 1;
                min = 0x80;
            } else if (b >= 0xe0 && b <= 0xef) {
                need = 2;
                min = 0x800;
            } else if (b >= 0xf0 && b <= 0xf4) {
                need = 3;
                min = 0x10000;
            } else {
                return false; // a continuation byte, C0/C1 (always overlong) or F5..FF
            }
            if (i + need >= end) {
                return false; // truncated sequence
            }
            int cp = b & (0x3f >> need);
            for (int k = 1; k <= need; k++) {
                int c = bytes[i + k] & 0xff;
                if ((c & 0xc0) != 0x80) {
                    return false;
                }
                cp = (cp << 6) | (c & 0x3f);
            }
            if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
                return false;
            }
            i += need + 1;
        }
        return true;
    }
}
