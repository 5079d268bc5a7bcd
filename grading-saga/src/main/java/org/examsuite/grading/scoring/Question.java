package org.examsuite.grading.scoring;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;

/** One question with its key, as session-service's internal exam API gives it. */
public record Question(String id, QuestionType type, BigDecimal points, JsonNode key, BigDecimal tolerance, String scoring) {
}
