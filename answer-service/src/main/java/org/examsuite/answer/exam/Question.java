package org.examsuite.answer.exam;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Set;
import org.examsuite.common.answers.ReviewFlags;
import org.examsuite.contracts.answer.AnswerRule;

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
     * Whether {@code value} is an answer of this question's type (docs/api.md §4.4, suite-contracts
     * {@link AnswerRule}); {@code null} (a clear) always is.
     */
    public boolean accepts(JsonNode value) {
        if (REVIEW_FLAGS.equals(type)) {
            return value == null || value.isNull() || ReviewFlags.accepts(value, options);
        }
        return AnswerRule.accepts(type, options, value);
    }

    /**
     * {@link #accepts} for a JSON string value given as its text (the autosave hot path keeps
     * string values as the bytes sent; the text is read only for a choice).
     */
    public boolean acceptsText(String text) {
        return !REVIEW_FLAGS.equals(type) && AnswerRule.acceptsText(type, options, text);
    }

    static Question of(String id, String type, List<String> options) {
        return new Question(id, type, Set.copyOf(options));
    }
}
