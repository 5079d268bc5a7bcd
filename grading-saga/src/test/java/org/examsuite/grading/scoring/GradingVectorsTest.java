package org.examsuite.grading.scoring;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.examsuite.contracts.answer.AnswerVectors;
import org.examsuite.contracts.answer.QuestionType;
import org.junit.jupiter.api.Test;

/**
 * A value the answer rule refuses scores nothing, even where the key would match it (a MULTIPLE naming an
 * option twice no longer collapses into a right set). Essays are the operator's to mark; a type no rule
 * knows makes the exam refused at grading (ScorersTest).
 */
class GradingVectorsTest {
    private final PaperGrader grader = new PaperGrader(MultipleScorer.PARTIAL);

    @Test
    void aRefusedValueScoresNothingWhateverTheKey() {
        List<String> disagreements = new ArrayList<>();
        for (AnswerVectors.Vector v : AnswerVectors.all()) {
            if (v.accepted() || !QuestionType.of(v.type()).isPresent() || "ESSAY".equals(v.type())) {
                continue;
            }
            JsonNodeFactory f = JsonNodeFactory.instance;
            ObjectNode question = f.objectNode().put("id", "q").put("type", v.type()).put("points", 2);
            question.putArray("options").addAll(v.options().stream().map(f::textNode).toList());
            // The key is the value itself (FILL: the one accepted text): the scorer alone would give credit.
            question.set("key", "FILL".equals(v.type()) && v.value().isTextual() ? f.arrayNode().add(v.value()) : v.value());
            ObjectNode exam = f.objectNode().put("examId", "e");
            exam.putArray("questions").add(question);
            JsonNode answers = f.objectNode().set("q", f.objectNode().<ObjectNode>set("value", v.value()).put("version", 1));
            Grading grading = grader.grade(ExamKey.parse(exam), answers, Map.of());
            if (grading.score().signum() != 0) {
                disagreements.add(v + " scored " + grading.score());
            }
        }
        assertEquals(List.of(), disagreements);
    }
}
