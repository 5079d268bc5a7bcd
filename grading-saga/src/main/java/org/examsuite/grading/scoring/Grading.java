package org.examsuite.grading.scoring;

import java.math.BigDecimal;
import java.util.List;
import org.examsuite.contracts.answer.QuestionType;

/** A paper's marks. {@code awaiting} lists the essays still without an operator's mark (their score is null). */
public record Grading(List<Mark> marks, BigDecimal score, BigDecimal maxScore, List<String> awaiting) {

    public record Mark(String questionId, QuestionType type, BigDecimal points, BigDecimal score) {
    }

    public boolean complete() {
        return awaiting.isEmpty();
    }
}
