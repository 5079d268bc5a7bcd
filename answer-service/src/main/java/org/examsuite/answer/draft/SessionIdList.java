package org.examsuite.answer.draft;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.examsuite.common.problem.ApiException;
import org.examsuite.common.redis.RedisKeys;
import org.examsuite.contracts.problem.ProblemCode;

/** The {@code {"sessionIds": [...]}} body of the internal many-session calls (summary, group seal). */
public final class SessionIdList {
    private SessionIdList() {
    }

    /** The ids in order; 400 INVALID_FIELD (field sessionIds) unless 1 to {@code max} safe id strings. */
    public static List<String> parse(JsonNode body, int max) {
        JsonNode array = body == null ? null : body.get("sessionIds");
        if (array == null || !array.isArray() || array.isEmpty() || array.size() > max) {
            throw invalid("Send {\"sessionIds\": [...]} with 1 to " + max + " session ids.");
        }
        List<String> ids = new ArrayList<>(array.size());
        for (JsonNode id : array) {
            if (!id.isTextual() || !RedisKeys.isSafeId(id.asText())) {
                throw invalid("Every session id is a session id string.");
            }
            ids.add(id.asText());
        }
        return ids;
    }

    private static ApiException invalid(String detail) {
        return ApiException.badRequest(ProblemCode.INVALID_FIELD, detail).with("field", "sessionIds");
    }
}
