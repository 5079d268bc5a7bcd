package org.examsuite.answer.exam;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.examsuite.common.answers.ReviewFlags;
import org.examsuite.common.order.CandidateOrder;

/**
 * An exam's frozen questions as session-service publishes them (by id, with the draft's reserved
 * review-flags entry) and its pools; {@code pools} empty: every session may answer every question.
 */
public record PublishedExam(Map<String, Question> questions, List<CandidateOrder.Pool> pools) {

    /**
     * What the session may answer (docs/api.md §3.1, "Order and pools per candidate"): with pools
     * only the questions it was given — the draw session-service computed for its paper from the
     * same session id — so a question it never saw is UNKNOWN_QUESTION, as grading would not score it.
     */
    public Map<String, Question> questionsFor(String sessionId) {
        if (pools.isEmpty()) {
            return questions;
        }
        List<String> ids = questions.keySet().stream().filter(id -> !ReviewFlags.ENTRY_ID.equals(id)).toList();
        Set<String> drawn = CandidateOrder.drawn(CandidateOrder.seedOf(sessionId), ids, pools);
        Map<String, Question> given = new HashMap<>();
        for (String id : drawn) {
            given.put(id, questions.get(id));
        }
        given.put(ReviewFlags.ENTRY_ID, Question.reviewFlags(drawn));
        return given;
    }
}
