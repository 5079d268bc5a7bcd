package org.examsuite.grading.scoring;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.List;
import org.examsuite.contracts.answer.QuestionType;

/**
 * One question with its key, as session-service's internal exam API gives it. {@code options}
 * are the SINGLE/MULTIPLE options in the exam's order (empty for the other types).
 */
public record Question(String id, QuestionType type, BigDecimal points, JsonNode key, BigDecimal tolerance, String scoring,
        List<String> options) {

    public Question(String id, QuestionType type, BigDecimal points, JsonNode key, BigDecimal tolerance, String scoring) {
        this(id, type, points, key, tolerance, scoring, List.of());
    }
}
