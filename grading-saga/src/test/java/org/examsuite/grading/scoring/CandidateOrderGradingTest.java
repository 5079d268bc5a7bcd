package org.examsuite.grading.scoring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.examsuite.common.order.CandidateOrder;
import org.examsuite.contracts.answer.QuestionType;
import org.junit.jupiter.api.Test;

/**
 * Order and pools per candidate in grading (issue 21): a paper answered under a shuffle scores what
 * the same choices score unshuffled, for every seed; with pools only the session's draw is scored
 * and counts toward the maximum.
 */
class CandidateOrderGradingTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final PaperGrader grader = new PaperGrader(MultipleScorer.PARTIAL);

    private static final String QUESTIONS = """
            [{"id": "s1", "type": "SINGLE", "points": 2, "options": ["a", "b", "c", "d"], "key": "c"},
             {"id": "s2", "type": "SINGLE", "points": 1, "options": ["x", "y", "z"], "key": "x"},
             {"id": "m1", "type": "MULTIPLE", "points": 3, "options": ["2", "3", "4", "5", "9"], "key": ["2", "3", "5"]},
             {"id": "m2", "type": "MULTIPLE", "points": 2, "options": ["p", "q", "r"], "key": ["q"], "scoring": "ALL_OR_NOTHING"},
             {"id": "t1", "type": "TRUE_FALSE", "points": 1, "key": false},
             {"id": "n1", "type": "NUMERIC", "points": 1, "key": 3.14, "tolerance": 0.01},
             {"id": "f1", "type": "FILL", "points": 1, "key": ["Paris"]}]""";

    private static ExamKey exam(String pools) throws Exception {
        return ExamKey.parse(JSON.readTree("{\"examId\": \"e\", \"keyRevision\": 1, \"questions\": " + QUESTIONS
                + (pools == null ? "" : ", \"pools\": " + pools) + "}"));
    }

    private static ObjectNode answer(ObjectNode answers, String id, JsonNode value) {
        answers.putObject(id).set("value", value);
        return answers;
    }

    @Test
    void aPaperAnsweredUnderAShuffleScoresAsTheSameChoicesUnshuffledForEverySeed() throws Exception {
        ExamKey exam = exam(null);
        List<String> ids = List.copyOf(exam.questions().keySet());
        SplittableRandom random = new SplittableRandom(2026);
        for (int s = 0; s < 2000; s++) {
            long seed = CandidateOrder.seedOf("session-" + s);
            List<String> shown = CandidateOrder.questions(seed, ids, List.of(), true);
            ObjectNode shuffled = JsonNodeFactory.instance.objectNode();
            ObjectNode plain = JsonNodeFactory.instance.objectNode();
            // The candidate works through the questions in its order and picks options by where they
            // are shown; the same choices made on the unshuffled paper pick the same original options.
            for (String id : shown) {
                Question q = exam.questions().get(id);
                switch (q.type()) {
                    case SINGLE -> {
                        int[] order = CandidateOrder.options(seed, id, q.options().size());
                        int original = random.nextInt(q.options().size());
                        int position = indexOf(order, original);
                        answer(shuffled, id, JSON.valueToTree(q.options().get(order[position])));
                        answer(plain, id, JSON.valueToTree(q.options().get(original)));
                    }
                    case MULTIPLE -> {
                        int[] order = CandidateOrder.options(seed, id, q.options().size());
                        ArrayNode underShuffle = JsonNodeFactory.instance.arrayNode();
                        ArrayNode unshuffled = JsonNodeFactory.instance.arrayNode();
                        for (int position = 0; position < order.length; position++) {
                            if (random.nextBoolean()) {
                                underShuffle.add(q.options().get(order[position]));
                            }
                        }
                        // the same set of options, in the exam's order
                        for (int original = 0; original < q.options().size(); original++) {
                            for (JsonNode chosen : underShuffle) {
                                if (chosen.asText().equals(q.options().get(original))) {
                                    unshuffled.add(chosen);
                                }
                            }
                        }
                        answer(shuffled, id, underShuffle);
                        answer(plain, id, unshuffled);
                    }
                    case TRUE_FALSE -> {
                        boolean value = random.nextBoolean();
                        answer(shuffled, id, JSON.valueToTree(value));
                        answer(plain, id, JSON.valueToTree(value));
                    }
                    default -> {
                        String value = random.nextBoolean() ? (q.type() == QuestionType.FILL ? "\"Paris\"" : "3.14") : "\"no\"";
                        answer(shuffled, id, JSON.readTree(value));
                        answer(plain, id, JSON.readTree(value));
                    }
                }
            }
            Grading underShuffle = grader.grade(exam.forSession("session-" + s), shuffled, Map.of());
            Grading unshuffled = grader.grade(exam, plain, Map.of());
            assertEquals(0, underShuffle.score().compareTo(unshuffled.score()), "seed of session-" + s);
            assertEquals(0, underShuffle.maxScore().compareTo(BigDecimal.valueOf(11)));
        }
    }

    private static int indexOf(int[] order, int original) {
        for (int i = 0; i < order.length; i++) {
            if (order[i] == original) {
                return i;
            }
        }
        throw new AssertionError("not a permutation");
    }

    @Test
    void withPoolsOnlyTheSessionsDrawIsScoredAndCountsTowardTheMaximum() throws Exception {
        ExamKey exam = exam("""
                [{"id": "choice", "draw": 2, "questionIds": ["s1", "s2", "m1", "m2"]},
                 {"id": "open", "draw": 1, "questionIds": ["n1", "f1"]}]""");
        ObjectNode all = JsonNodeFactory.instance.objectNode(); // every question answered right
        answer(all, "s1", JSON.valueToTree("c"));
        answer(all, "s2", JSON.valueToTree("x"));
        answer(all, "m1", JSON.valueToTree(List.of("2", "3", "5")));
        answer(all, "m2", JSON.valueToTree(List.of("q")));
        answer(all, "t1", JSON.valueToTree(false));
        answer(all, "n1", JSON.valueToTree(3.14));
        answer(all, "f1", JSON.valueToTree("Paris"));
        Set<BigDecimal> maxima = new java.util.HashSet<>();
        for (int s = 0; s < 500; s++) {
            String sessionId = "session-" + s;
            ExamKey given = exam.forSession(sessionId);
            Set<String> drawn = CandidateOrder.drawn(CandidateOrder.seedOf(sessionId), List.copyOf(exam.questions().keySet()),
                    exam.pools());
            assertEquals(drawn, given.questions().keySet(), "what session-service gave the candidate");
            assertEquals(4, drawn.size(), "2 of choice, 1 of open, and t1 (in no pool)");
            assertTrue(drawn.contains("t1"));
            Grading grading = grader.grade(given, all, Map.of());
            BigDecimal max = BigDecimal.ZERO;
            for (String id : drawn) {
                max = max.add(exam.questions().get(id).points());
            }
            assertEquals(0, grading.maxScore().compareTo(max), "maxScore = the drawn questions' points");
            assertEquals(0, grading.score().compareTo(max), "an answer to a question not drawn scores nothing");
            List<String> marked = new ArrayList<>();
            grading.marks().forEach(mark -> marked.add(mark.questionId()));
            assertEquals(Set.copyOf(marked), drawn, "marks only for the draw (item statistics count it only there)");
            maxima.add(max.stripTrailingZeros());
        }
        assertTrue(maxima.size() > 1, "different draws, different maxima: " + maxima);
        assertNotEquals(exam.questions().size(), exam.forSession("session-0").questions().size());
    }

    @Test
    void withoutPoolsEverySessionIsGradedOnTheWholeExam() throws Exception {
        ExamKey exam = exam(null);
        assertEquals(exam, exam.forSession("any"));
    }

    @Test
    void aPoolDrawingMoreThanItHoldsIsAMalformedExam() {
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> exam("[{\"id\": \"p\", \"draw\": 3, \"questionIds\": [\"s1\", \"s2\"]}]"));
    }
}
