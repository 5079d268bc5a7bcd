package org.examsuite.grading.scoring;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.examsuite.common.order.CandidateOrder;
import org.examsuite.contracts.answer.QuestionType;

/**
 * An exam with its keys ({@code GET /internal/v1/exams/{examId}} of session-service), read
 * field by field from the JSON tree: no reflection, and a malformed exam is a clear error.
 * {@code pools} empty: every candidate is given every question.
 */
public record ExamKey(String examId, long keyRevision, Map<String, Question> questions, List<CandidateOrder.Pool> pools) {

    public ExamKey(String examId, long keyRevision, Map<String, Question> questions) {
        this(examId, keyRevision, questions, List.of());
    }

    /**
     * The exam as the session was given it: with pools, only its draw (docs/api.md §3.1, "Order and
     * pools per candidate"), computed as session-service computed the candidate's paper. Its
     * grading then scores, and its maximum counts, only those questions. Shuffles change no id and
     * so nothing here.
     */
    public ExamKey forSession(String sessionId) {
        if (pools.isEmpty()) {
            return this;
        }
        Set<String> drawn = CandidateOrder.drawn(CandidateOrder.seedOf(sessionId), List.copyOf(questions.keySet()), pools);
        Map<String, Question> given = new LinkedHashMap<>();
        questions.forEach((id, question) -> {
            if (drawn.contains(id)) {
                given.put(id, question);
            }
        });
        return new ExamKey(examId, keyRevision, given, pools);
    }

    public static ExamKey parse(JsonNode exam) {
        if (exam == null || !exam.isObject() || !exam.path("questions").isArray()) {
            throw new IllegalArgumentException("the exam has no questions");
        }
        Map<String, Question> questions = new LinkedHashMap<>();
        for (JsonNode node : exam.path("questions")) {
            String id = node.path("id").asText(null);
            if (id == null || id.isEmpty()) {
                throw new IllegalArgumentException("a question has no id");
            }
            QuestionType type;
            try {
                type = QuestionType.valueOf(node.path("type").asText(""));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("question " + id + " has an unknown type");
            }
            BigDecimal points = node.path("points").isNumber() ? node.path("points").decimalValue() : BigDecimal.ONE;
            BigDecimal tolerance = node.path("tolerance").isNumber() ? node.path("tolerance").decimalValue().abs() : BigDecimal.ZERO;
            String scoring = node.path("scoring").isTextual() ? node.path("scoring").asText() : null;
            List<String> options = new ArrayList<>();
            node.path("options").forEach(option -> options.add(option.asText()));
            questions.put(id, new Question(id, type, points, node.get("key"), tolerance, scoring, List.copyOf(options)));
        }
        List<CandidateOrder.Pool> pools = new ArrayList<>();
        for (JsonNode pool : exam.path("pools")) {
            List<String> ids = new ArrayList<>();
            pool.path("questionIds").forEach(id -> ids.add(id.asText()));
            int draw = pool.path("draw").asInt(0);
            if (draw < 1 || draw > ids.size()) {
                throw new IllegalArgumentException("pool " + pool.path("id").asText() + " draws " + draw + " of " + ids.size());
            }
            pools.add(new CandidateOrder.Pool(pool.path("id").asText(), draw, List.copyOf(ids)));
        }
        return new ExamKey(exam.path("examId").asText(null), exam.path("keyRevision").asLong(0), questions, List.copyOf(pools));
    }
}
