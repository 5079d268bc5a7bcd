package org.examsuite.grading.scoring;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.math.RoundingMode;

/** Scores one answer of one question type: between 0 and the question's points. */
public interface Scorer {
    int SCALE = 4;

    /** {@code answer} is the answer's value; null or JSON null when unanswered. */
    BigDecimal score(Question question, JsonNode answer);

    static BigDecimal full(Question question) {
        return question.points().setScale(SCALE, RoundingMode.HALF_EVEN);
    }

    static BigDecimal none() {
        return BigDecimal.ZERO.setScale(SCALE);
    }

    static boolean unanswered(JsonNode answer) {
        return answer == null || answer.isNull() || answer.isMissingNode();
    }
}
