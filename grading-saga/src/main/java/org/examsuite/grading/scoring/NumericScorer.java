package org.examsuite.grading.scoring;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;

/** NUMERIC: within the tolerance of the key, both ends included; decimal arithmetic, so 3.145 vs 3.14 ± 0.005 is exact. */
public class NumericScorer implements Scorer {
    @Override
    public BigDecimal score(Question question, JsonNode answer) {
        if (Scorer.unanswered(answer) || !answer.isNumber() || question.key() == null || !question.key().isNumber()) {
            return Scorer.none();
        }
        BigDecimal difference = answer.decimalValue().subtract(question.key().decimalValue()).abs();
        return difference.compareTo(question.tolerance()) <= 0 ? Scorer.full(question) : Scorer.none();
    }
}
