package org.examsuite.grading.scoring;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An exam with its keys ({@code GET /internal/v1/exams/{examId}} of session-service), read
 * field by field from the JSON tree: no reflection, and a malformed exam is a clear error.
 */
public record ExamKey(String examId, long keyRevision, Map<String, Question> questions) {

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
        return new ExamKey(exam.path("examId").asText(null), exam.path("keyRevision").asLong(0), questions);
    }
}
