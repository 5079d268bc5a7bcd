package org.examsuite.demo.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.examsuite.demo.verify.PaperCheck.Expectation;
import org.examsuite.demo.verify.PaperCheck.Kind;
import org.examsuite.demo.verify.PaperCheck.Observation;
import org.examsuite.demo.verify.PaperCheck.Paper;
import org.junit.jupiter.api.Test;

/** The verifier's comparison on fabricated candidates and papers. */
class PaperCheckTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static Map<String, JsonNode> answers(String object) {
        return JsonValues.answerValues(json(object));
    }

    private static Expectation submitted(String finalSheet, String paperId) {
        return new Expectation("c1", "s1", answers(finalSheet), Map.of(), answers(finalSheet), Set.of(paperId), List.of());
    }

    private static List<Kind> kinds(PaperCheck.Verdict verdict) {
        return verdict.mismatches().stream().map(PaperCheck.Mismatch::kind).toList();
    }

    @Test
    void aCandidatePaperEqualToTheFinalSheetPasses() {
        Expectation expected = submitted("{\"q1\":\"4\",\"q2\":[\"2\",\"5\"],\"q9\":3.14,\"q5\":null}", "p1");
        Paper paper = new Paper("p1", "CANDIDATE", answers(
                "{\"q1\":{\"value\":\"4\",\"version\":3},\"q2\":{\"value\":[\"5\",\"2\"],\"version\":4},"
                        + "\"q9\":{\"value\":3.140,\"version\":9}}"));

        PaperCheck.Verdict verdict = PaperCheck.check(expected, new Observation("p1", paper, 1, "GRADED"));

        assertTrue(verdict.ok(), verdict.mismatches().toString());
        assertTrue(verdict.hasPaper());
    }

    @Test
    void aCandidatePaperMissingOrChangingAnAnswerIsReported() {
        Expectation expected = submitted("{\"q1\":\"4\",\"q2\":\"Paris\"}", "p1");
        Paper paper = new Paper("p1", "CANDIDATE", answers("{\"q2\":\"Lyon\",\"q3\":true}"));

        PaperCheck.Verdict verdict = PaperCheck.check(expected, new Observation("p1", paper, 1, "GRADED"));

        assertEquals(List.of(Kind.LOST_ANSWER, Kind.ANSWER_MISMATCH, Kind.ANSWER_MISMATCH), kinds(verdict));
        assertEquals(1, verdict.lostAnswers());
    }

    @Test
    void anAutoSubmittedPaperMustHoldTheNewestAcknowledgedAutosave() {
        Expectation expected = new Expectation("c1", "s1", answers("{\"q1\":\"a\",\"q2\":\"b\"}"), Map.of(), null, Set.of(),
                List.of());

        assertTrue(PaperCheck.check(expected, new Observation("p1", new Paper("p1", "AUTO", answers("{\"q1\":\"a\",\"q2\":\"b\"}")),
                1, "GRADED")).ok());

        PaperCheck.Verdict lost = PaperCheck.check(expected,
                new Observation("p1", new Paper("p1", "AUTO", answers("{\"q1\":\"a\"}")), 1, "GRADED"));
        assertEquals(List.of(Kind.LOST_ANSWER), kinds(lost));
        assertEquals(1, lost.lostAnswers());

        PaperCheck.Verdict phantom = PaperCheck.check(expected, new Observation("p1", new Paper("p1", "AUTO",
                answers("{\"q1\":\"a\",\"q2\":\"b\",\"q3\":\"from nowhere\"}")), 1, "GRADED"));
        assertEquals(List.of(Kind.PHANTOM_ANSWER), kinds(phantom));
    }

    @Test
    void anAutoSubmittedPaperMayHoldAnAnswerWhoseResponseWasLostOrTheKeptFinalSheet() {
        Expectation expected = new Expectation("c1", "s1", answers("{\"q1\":\"a\",\"q2\":\"b\"}"),
                Map.of("q1", List.of(json("\"a2\""), json("\"a3\""))), answers("{\"q1\":\"a3\",\"q2\":\"b-final\"}"), Set.of(),
                List.of("submit: no answer (timeout) after 9 attempt(s)"));
        Paper paper = new Paper("p1", "AUTO", answers("{\"q1\":\"a2\",\"q2\":\"b-final\"}"));

        PaperCheck.Verdict verdict = PaperCheck.check(expected, new Observation("p1", paper, 1, "GRADED"));

        assertEquals(List.of(Kind.CLIENT_ERROR), kinds(verdict), "only the client's own error is reported");
        assertEquals(0, verdict.lostAnswers());
    }

    @Test
    void twoPapersForOneSessionAreADuplicateWhereverTheyShowUp() {
        Expectation twoIds = new Expectation("c1", "s1", Map.of(), Map.of(), Map.of(), Set.of("p1", "p2"), List.of());
        PaperCheck.Verdict seen = PaperCheck.check(twoIds, new Observation("p1", new Paper("p1", "CANDIDATE", Map.of()), 1,
                "GRADED"));
        assertTrue(seen.duplicate());
        assertEquals(List.of(Kind.DUPLICATE_PAPER), kinds(seen));

        PaperCheck.Verdict inDatabase = PaperCheck.check(submitted("{}", "p1"),
                new Observation("p1", new Paper("p1", "CANDIDATE", Map.of()), 2, "GRADED"));
        assertTrue(inDatabase.duplicate());
        assertEquals(List.of(Kind.DUPLICATE_PAPER), kinds(inDatabase));
    }

    @Test
    void aMissingPaperADifferentPaperIdAndAnUngradedPaperAreReported() {
        assertEquals(List.of(Kind.NO_PAPER), kinds(PaperCheck.check(submitted("{}", "p1"), new Observation(null, null, 0, null))));
        assertFalse(PaperCheck.check(submitted("{}", "p1"), new Observation(null, null, 0, null)).hasPaper());

        PaperCheck.Verdict other = PaperCheck.check(submitted("{}", "p1"),
                new Observation("p9", new Paper("p9", "CANDIDATE", Map.of()), 1, "NEEDS_REVIEW"));
        assertEquals(List.of(Kind.PAPER_ID_DIFFERS, Kind.NOT_GRADED), kinds(other));
    }

    @Test
    void aCandidateWithoutASessionIsReported() {
        Expectation none = new Expectation("c1", null, Map.of(), Map.of(), null, Set.of(), List.of("session start: 401"));
        assertEquals(List.of(Kind.CLIENT_ERROR, Kind.NO_SESSION), kinds(PaperCheck.check(none, new Observation(null, null, null,
                null))));
    }

    @Test
    void valuesCompareAsTheContractMeansThem() {
        assertTrue(JsonValues.same(json("3.140"), json("3.14")));
        assertTrue(JsonValues.same(json("[\"2\",\"5\"]"), json("[\"5\",\"2\"]")));
        assertTrue(JsonValues.same(null, json("null")));
        assertFalse(JsonValues.same(json("\"true\""), json("true")));
        assertFalse(JsonValues.same(json("[\"2\"]"), json("[\"2\",\"5\"]")));
        assertFalse(JsonValues.same(json("\"\""), null), "an empty string is an answer, not a clear");
    }
}
