package org.examsuite.session.paging;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.examsuite.common.problem.ApiException;
import org.examsuite.contracts.problem.ProblemCode;

/**
 * Keyset cursors: the sort key of a page's last row, base64url so that clients treat it as
 * opaque and never build one. A cursor that does not decode is the client's mistake (400).
 */
public final class Cursor {
    private Cursor() {
    }

    public static String encode(String key) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(key.getBytes(StandardCharsets.UTF_8));
    }

    /** The key the cursor carries; null for no cursor (the first page). */
    public static String decode(String cursor) {
        if (cursor == null) {
            return null;
        }
        try {
            String key = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            if (key.isEmpty() || key.length() > 200) {
                throw invalid();
            }
            return key;
        } catch (IllegalArgumentException e) {
            throw invalid();
        }
    }

    public static ApiException invalid() {
        return new ApiException(400, ProblemCode.INVALID_FIELD, "after is not a cursor this API returned.").with("field", "after");
    }
}
