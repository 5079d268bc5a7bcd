package org.examsuite.common.answers;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashSet;
import java.util.Set;

/**
 * The candidate's own "flag for review" marks (docs/api.md §3.3), kept in the draft as one
 * reserved entry beside the answers: autosaved and converging by stamp like an answer, so they
 * survive a reload and reach another device, but never an answer — submission-service leaves
 * the entry out of the paper, so grading, results and statistics never see it. Its id starts
 * with {@code ~}, which no question id can (they are {@code [A-Za-z0-9._-]}).
 */
public final class ReviewFlags {
    /** The draft entry's id. */
    public static final String ENTRY_ID = "~review";

    private ReviewFlags() {
    }

    /** Whether a draft or sheet entry id is reserved (not a question): only {@link #ENTRY_ID} is accepted. */
    public static boolean isReserved(String entryId) {
        return entryId != null && entryId.startsWith("~");
    }

    /**
     * Whether {@code value} is a value of the entry: null or an array of distinct question ids of
     * the exam (the flagged questions; {@code []} and null both mean none).
     */
    public static boolean accepts(JsonNode value, Set<String> questionIds) {
        if (value == null || value.isNull()) {
            return true;
        }
        if (!value.isArray() || value.size() > questionIds.size()) {
            return false;
        }
        Set<String> seen = new HashSet<>();
        for (JsonNode item : value) {
            if (!item.isTextual() || !questionIds.contains(item.textValue()) || !seen.add(item.textValue())) {
                return false;
            }
        }
        return true;
    }
}
