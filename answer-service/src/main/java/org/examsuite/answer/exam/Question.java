package org.examsuite.answer.exam;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.examsuite.common.answers.ReviewFlags;

/**
 * A frozen question as session-service publishes it: id, type and options (never the key). The
 * draft's reserved review-flags entry is one too, of type {@link #REVIEW_FLAGS}, whose "options"
 * are the exam's question ids: every autosave path checks it as it checks an answer.
 */
public record Question(String id, String type, Set<String> options) {
    static final String REVIEW_FLAGS = "REVIEW_FLAGS";

    /** The reserved entry of an exam whose questions have these ids. */
    static Question reviewFlags(Set<String> questionIds) {
        return new Question(ReviewFlags.ENTRY_ID, REVIEW_FLAGS, Set.copyOf(questionIds));
    }

    /**
     * Whether {@code value} is an answer of this question's type (docs/api.md §4.4);
     * {@code null} (a clear) always is.
     */
    public boolean accepts(JsonNode value) {
        if (value == null || value.isNull()) {
            return true;
        }
        return switch (type) {
            case "SINGLE" -> value.isTextual() && options.contains(value.textValue());
            case "MULTIPLE" -> isSetOfOptions(value);
            case "TRUE_FALSE" -> value.isBoolean();
            case "FILL", "ESSAY" -> value.isTextual();
            case "NUMERIC" -> value.isNumber() && Double.isFinite(value.doubleValue());
            case REVIEW_FLAGS -> ReviewFlags.accepts(value, options);
            default -> false;
        };
    }

    /**
     * {@link #accepts} for a JSON string value given as its text (the autosave hot path keeps
     * string values as the bytes sent; the text is read only for a choice).
     */
    public boolean acceptsText(String text) {
        return switch (type) {
            case "SINGLE" -> options.contains(text);
            case "FILL", "ESSAY" -> true;
            default -> false;
        };
    }

    private boolean isSetOfOptions(JsonNode value) {
        if (!value.isArray()) {
            return false;
        }
        Set<String> seen = new HashSet<>();
        for (JsonNode item : value) {
            if (!item.isTextual() || !options.contains(item.textValue()) || !seen.add(item.textValue())) {
                return false;
            }
        }
        return true;
    }

    static Question of(String id, String type, List<String> options) {
        return new Question(id, type, Set.copyOf(options));
    }
}
