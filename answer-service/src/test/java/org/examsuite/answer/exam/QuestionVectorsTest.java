package org.examsuite.answer.exam;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.examsuite.contracts.answer.AnswerVectors;
import org.junit.jupiter.api.Test;

/** Autosave's check of a value (the parsed form and the hot path's text form) answers the shared vectors. */
class QuestionVectorsTest {

    @Test
    void autosaveTakesExactlyTheValuesTheAnswerRuleTakes() {
        for (AnswerVectors.Vector v : AnswerVectors.all()) {
            Question question = Question.of(v.questionName(), v.type(), List.copyOf(v.options()));
            assertEquals(v.accepted(), question.accepts(v.value()), v.toString());
            if (v.value() != null && v.value().isTextual()) {
                assertEquals(v.accepted(), question.acceptsText(v.value().textValue()), "text form: " + v);
            }
        }
    }
}
