package org.examsuite.submission.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.util.ArrayList;
import java.util.List;
import org.examsuite.contracts.answer.AnswerVectors;
import org.junit.jupiter.api.Test;

/** The final sheet's check of each value against its question answers the shared vectors as autosave does. */
class ExamQuestionsVectorsTest {

    @Test
    void aFinalSheetTakesExactlyTheValuesTheAnswerRuleTakes() {
        List<String> disagreements = new ArrayList<>();
        for (AnswerVectors.Vector v : AnswerVectors.all()) {
            JsonNode value = v.value() == null ? NullNode.getInstance() : v.value(); // the sheet's null is a NullNode
            if (ExamQuestions.fits(new ExamQuestions.Spec(v.type(), v.options()), value) != v.accepted()) {
                disagreements.add(v.toString());
            }
        }
        assertEquals(List.of(), disagreements);
    }
}
