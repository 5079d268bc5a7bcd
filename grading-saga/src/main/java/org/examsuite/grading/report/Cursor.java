package org.examsuite.grading.report;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.examsuite.common.problem.ApiException;
import org.examsuite.contracts.problem.ProblemCode;

/**
 * Keyset cursors of the result listing: the last paper id of a page, base64url, so that
 * clients treat it as opaque. A cursor that does not decode is the client's mistake (400).
 */
final class Cursor {
    private Cursor() {
    }

    static String encode(String paperId) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(paperId.getBytes(StandardCharsets.UTF_8));
    }

    /** The paper id the cursor carries; "" for no cursor (the first page). */
    static String decode(String cursor) {
        if (cursor == null) {
            return "";
        }
        try {
            String paperId = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            if (paperId.isEmpty() || paperId.length() > 200 || paperId.indexOf('\uFFFD') >= 0) {
                throw invalid();
            }
            return paperId;
        } catch (IllegalArgumentException e) {
            throw invalid();
        }
    }

    static ApiException invalid() {
        return new ApiException(400, ProblemCode.INVALID_FIELD, "after is not a cursor this API returned.").with("field", "after");
    }
}
