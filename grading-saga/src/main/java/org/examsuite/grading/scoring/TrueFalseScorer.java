package org.examsuite.grading.scoring;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;

/** TRUE_FALSE: a boolean equal to the key. */
public class TrueFalseScorer implements Scorer {
    @Override
    public BigDecimal score(Question question, JsonNode answer) {
        if (Scorer.unanswered(answer) || !answer.isBoolean() || question.key() == null || !question.key().isBoolean()) {
            return Scorer.none();
        }
        return answer.booleanValue() == question.key().booleanValue() ? Scorer.full(question) : Scorer.none();
    }
}
