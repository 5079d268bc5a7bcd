package org.examsuite.answer.draft;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.examsuite.common.problem.ApiException;

/**
 * The body of an autosave, checked for shape and size before anything is touched:
 * {@code {"version": 17, "changes": [{"questionId": "q3", "value": ...}]}}.
 */
public record AutosaveRequest(long version, List<ChangeNode> changes) {
    /** Versions are JSON-safe integers: [1, 2^53). */
    public static final long MAX_VERSION_EXCLUSIVE = 1L << 53;

    /** A change as sent; {@code value} is a JSON null node for a clear. */
    public record ChangeNode(String questionId, JsonNode value, String json) {
    }

    public static AutosaveRequest parse(JsonNode body, int maxValueBytes) {
        if (body == null || !body.isObject()) {
            throw invalid("", "The body must be a JSON object {version, changes}.");
        }
        JsonNode version = body.get("version");
        if (version == null || !version.isIntegralNumber() || !version.canConvertToLong() || version.longValue() < 1
                || version.longValue() >= MAX_VERSION_EXCLUSIVE) {
            throw invalid("version", "'version' must be an integer in [1, 2^53).");
        }
        JsonNode changes = body.get("changes");
        if (changes == null || !changes.isArray()) {
            throw invalid("changes", "'changes' must be an array of {questionId, value}.");
        }
        // A question sent twice in one request: the later entry is the newer edit.
        Map<String, ChangeNode> byQuestion = new LinkedHashMap<>();
        for (int i = 0; i < changes.size(); i++) {
            JsonNode change = changes.get(i);
            JsonNode questionId = change.get("questionId");
            if (!change.isObject() || questionId == null || !questionId.isTextual() || questionId.textValue().isEmpty()) {
                throw invalid("changes[" + i + "].questionId", "Each change needs a 'questionId' string.");
            }
            if (!change.has("value")) {
                throw invalid("changes[" + i + "].value", "Each change needs a 'value' (null clears the answer).");
            }
            JsonNode value = change.get("value");
            String json = value.toString();
            if (json.length() > maxValueBytes || utf8Length(json, maxValueBytes) > maxValueBytes) {
                throw ApiException.tooLarge("The value of '" + questionId.textValue() + "' is larger than " + maxValueBytes
                        + " bytes.").with("questionId", questionId.textValue());
            }
            byQuestion.remove(questionId.textValue());
            byQuestion.put(questionId.textValue(), new ChangeNode(questionId.textValue(), value, json));
        }
        return new AutosaveRequest(version.longValue(), new ArrayList<>(byQuestion.values()));
    }

    /**
     * The UTF-8 length of {@code text} (a surrogate pair is 4 bytes, a lone surrogate the 1 byte
     * of '?' that the encoder writes), counted without encoding; stops once past {@code limit}.
     */
    static long utf8Length(String text, int limit) {
        long bytes = 0;
        for (int i = 0, n = text.length(); i < n && bytes <= limit; i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(text.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else if (Character.isSurrogate(c)) {
                bytes += 1;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }

    private static ApiException invalid(String field, String detail) {
        return ApiException.badRequest("INVALID_FIELD", detail).with("field", field);
    }
}
