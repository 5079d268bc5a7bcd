package org.examsuite.grading.scoring;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;

/** SINGLE: the chosen option is the key. */
public class SingleScorer implements Scorer {
    @Override
    public BigDecimal score(Question question, JsonNode answer) {
        if (Scorer.unanswered(answer) || !answer.isTextual() || question.key() == null) {
            return Scorer.none();
        }
        return answer.asText().equals(question.key().asText()) ? Scorer.full(question) : Scorer.none();
    }
}
