package org.examsuite.grading.scoring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.examsuite.contracts.answer.QuestionType;
import org.junit.jupiter.api.Test;

/** One scorer per question type (docs/api.md §4.4), with the edges that decide marks. */
class ScorersTest {
    static final ObjectMapper JSON = new ObjectMapper();
    final PaperGrader grader = new PaperGrader(MultipleScorer.PARTIAL);

    static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    static Question question(String type, double points, String key, Double tolerance, String scoring) {
        return new Question("q", QuestionType.valueOf(type), BigDecimal.valueOf(points), key == null ? null : json(key),
                tolerance == null ? BigDecimal.ZERO : BigDecimal.valueOf(tolerance), scoring);
    }

    static double score(Scorer scorer, Question question, String answer) {
        return scorer.score(question, answer == null ? null : json(answer)).doubleValue();
    }

    @Test
    void single() {
        Question q = question("SINGLE", 2, "\"4\"", null, null);
        assertEquals(2, score(new SingleScorer(), q, "\"4\""));
        assertEquals(0, score(new SingleScorer(), q, "\"3\""));
        assertEquals(0, score(new SingleScorer(), q, "4"), "a number is not the option \"4\"");
        assertEquals(0, score(new SingleScorer(), q, null));
        assertEquals(0, score(new SingleScorer(), q, "null"));
    }

    @Test
    void multiplePartialIsRightMinusWrongFlooredAtZeroProRata() {
        Question q = question("MULTIPLE", 3, "[\"2\",\"5\",\"7\"]", null, null);
        MultipleScorer partial = new MultipleScorer(MultipleScorer.PARTIAL);
        assertEquals(3, score(partial, q, "[\"2\",\"5\",\"7\"]"));
        assertEquals(2, score(partial, q, "[\"2\",\"5\"]"));
        assertEquals(1, score(partial, q, "[\"2\",\"5\",\"4\"]"), "2 right - 1 wrong = 1 of 3");
        assertEquals(0, score(partial, q, "[\"2\",\"4\",\"6\"]"), "floored at 0, never negative");
        assertEquals(1, score(partial, q, "[\"2\",\"2\"]"), "a choice counts once");
        assertEquals(0, score(partial, q, "[]"));
        assertEquals(0, score(partial, q, "\"2\""), "not an array");
        Question thirds = question("MULTIPLE", 1, "[\"a\",\"b\",\"c\"]", null, null);
        assertEquals(new BigDecimal("0.3333"), partial.score(thirds, json("[\"a\"]")));
    }

    @Test
    void multipleAllOrNothingPerQuestionOrByDefault() {
        Question q = question("MULTIPLE", 3, "[\"2\",\"5\"]", null, MultipleScorer.ALL_OR_NOTHING);
        MultipleScorer partialDefault = new MultipleScorer(MultipleScorer.PARTIAL);
        assertEquals(3, score(partialDefault, q, "[\"5\",\"2\"]"));
        assertEquals(0, score(partialDefault, q, "[\"2\"]"));
        Question unscored = question("MULTIPLE", 3, "[\"2\",\"5\"]", null, null);
        assertEquals(0, score(new MultipleScorer(MultipleScorer.ALL_OR_NOTHING), unscored, "[\"2\"]"),
                "the configured default applies when the question names none");
    }

    @Test
    void trueFalse() {
        Question q = question("TRUE_FALSE", 1, "true", null, null);
        assertEquals(1, score(new TrueFalseScorer(), q, "true"));
        assertEquals(0, score(new TrueFalseScorer(), q, "false"));
        assertEquals(0, score(new TrueFalseScorer(), q, "\"true\""), "a string is not a boolean");
    }

    @Test
    void fillMatchesAnyAcceptedKeyAfterNormalisation() {
        Question q = question("FILL", 1, "[\"Paris\",\"Lutetia Parisiorum\"]", null, null);
        FillScorer fill = new FillScorer();
        assertEquals(1, score(fill, q, "\"Paris\""));
        assertEquals(1, score(fill, q, "\"  pARIS \""));
        assertEquals(1, score(fill, q, "\"lutetia   parisiorum\""));
        assertEquals(1, score(fill, q, "\"\uFF30\uFF41\uFF52\uFF49\uFF53\""), "full-width letters fold under NFKC");
        assertEquals(0, score(fill, q, "\"Pariss\""));
        assertEquals(0, score(fill, q, "\"   \""));
        assertEquals(1, score(fill, question("FILL", 1, "\"Berlin\"", null, null), "\"berlin\""), "a single key works too");
    }

    @Test
    void numericWithinToleranceBothEndsIncluded() {
        Question q = question("NUMERIC", 1, "3.14", 0.005, null);
        NumericScorer numeric = new NumericScorer();
        assertEquals(1, score(numeric, q, "3.14"));
        assertEquals(1, score(numeric, q, "3.145"), "exactly at the tolerance: decimal arithmetic, no float error");
        assertEquals(1, score(numeric, q, "3.135"));
        assertEquals(0, score(numeric, q, "3.1451"));
        assertEquals(0, score(numeric, q, "\"3.14\""), "a string is not a number");
        assertEquals(1, score(numeric, question("NUMERIC", 1, "10", null, null), "10.0"));
        assertEquals(0, score(numeric, question("NUMERIC", 1, "10", null, null), "10.0001"));
    }

    @Test
    void aPaperWithAnUnmarkedEssayIsIncomplete() {
        ExamKey exam = ExamKey.parse(json("""
                {"examId": "e", "keyRevision": 3, "questions": [
                 {"id": "q1", "type": "SINGLE", "points": 2, "key": "4"},
                 {"id": "q2", "type": "ESSAY", "points": 10}]}
                """));
        JsonNode answers = json("{\"q1\": {\"value\": \"4\", \"version\": 1, \"epoch\": 1}, \"q2\": {\"value\": \"Because.\"}}");
        Grading waiting = grader.grade(exam, answers, Map.of());
        assertEquals(List.of("q2"), waiting.awaiting());
        assertEquals(0, waiting.score().compareTo(BigDecimal.valueOf(2)));
        assertEquals(0, waiting.maxScore().compareTo(BigDecimal.valueOf(12)));
        Grading marked = grader.grade(exam, answers, Map.of("q2", new BigDecimal("6.5")));
        assertTrue(marked.complete());
        assertEquals(0, marked.score().compareTo(new BigDecimal("8.5")));
        assertEquals(3, exam.keyRevision());
    }

    @Test
    void unansweredQuestionsScoreZeroAndUnknownAnswersAreIgnored() {
        ExamKey exam = ExamKey.parse(json("""
                {"examId": "e", "questions": [{"id": "q1", "type": "TRUE_FALSE", "points": 1, "key": true}]}
                """));
        Grading grading = grader.grade(exam, json("{\"zz\": {\"value\": true}}"), Map.of());
        assertEquals(0, grading.score().signum());
        assertEquals(1, grading.marks().size());
    }

    @Test
    void aMalformedExamIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> ExamKey.parse(json("{\"questions\": [{\"id\": \"q\", \"type\": \"POEM\"}]}")));
        assertThrows(IllegalArgumentException.class, () -> ExamKey.parse(json("{\"title\": \"no questions\"}")));
    }
}
