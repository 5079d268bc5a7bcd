package org.examsuite.submission.paper;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import org.examsuite.common.redis.RedisKeys;
import org.examsuite.submission.submit.Admission;
import org.examsuite.submission.support.Stubs;
import org.examsuite.submission.support.SubmissionTestBase;
import org.examsuite.testing.TestKeys;
import org.junit.jupiter.api.Test;

/**
 * The paper's content: per-question merge by stamp of the sealed draft and the final sheets,
 * and the deadline rules of docs/api.md §3.5 — driven by the injectable clock, never by sleeping.
 */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(Stubs.class)
class DeadlineAndMergeTest extends SubmissionTestBase {
    @Inject
    Admission admission;

    @Test
    void mergeKeepsTheHigherStampPerQuestion() {
        Session s = session();
        publish(s, 2, clock.millis() + 600_000);
        Stubs.DRAFTS.put(s.id(), "{"
                + "\"q1\":{\"value\":\"draft-newer\",\"version\":9,\"epoch\":2},"
                + "\"q2\":{\"value\":\"draft-older\",\"version\":3,\"epoch\":2},"
                + "\"q3\":{\"value\":\"old-device\",\"version\":500,\"epoch\":1},"
                + "\"q4\":{\"value\":\"only-draft\",\"version\":1,\"epoch\":1},"
                + "\"q5\":{\"value\":\"same-stamp\",\"version\":4,\"epoch\":2}}");
        submit(s.token(2), "k-1", sheet(s.id(),
                "q1", "\"sheet-older\"", 8,
                "q2", "\"sheet-newer\"", 4,
                "q3", "\"new-device\"", 1,
                "q5", "\"same-stamp-sheet\"", 4,
                "q6", "null", 2,
                "q7", "\"only-sheet\"", 1))
                .statusCode(201)
                .body("answers.q1.value", equalTo("draft-newer"))     // a newer autosave beats an older final-sheet value
                .body("answers.q2.value", equalTo("sheet-newer"))     // and vice versa
                .body("answers.q3.value", equalTo("new-device"))      // a newer device beats any version of an older one
                .body("answers.q3.epoch", equalTo(2))
                .body("answers.q4.value", equalTo("only-draft"))
                .body("answers.q5.value", equalTo("same-stamp"))      // an equal stamp is the same write: held value stays
                .body("answers.q7.value", equalTo("only-sheet"))
                .body("answers", hasKey("q6"))                        // a cleared answer stays cleared, stamped
                .body("answerCount", equalTo(6))
                .body("lateChanges", equalTo(0));
    }

    @Test
    void theReviewFlagsOfDraftAndSheetAreNeverInThePaper() {
        Session s = session();
        Stubs.DRAFTS.put(s.id(), "{\"q1\":{\"value\":\"a\",\"version\":2,\"epoch\":1},"
                + "\"~review\":{\"value\":[\"q1\"],\"version\":3,\"epoch\":1}}");
        submit(s, "k-1", sheet(s.id(), "q2", "\"b\"", 4, "~review", "[\"q1\", \"q2\"]", 5)).statusCode(201)
                .body("answers.q1.value", equalTo("a"))
                .body("answers.q2.value", equalTo("b"))
                .body("answers", not(hasKey("~review")))
                .body("answerCount", equalTo(2));
    }

    @Test
    void anOlderDevicesKeptSheetLosesToTheNewerDevicesDraft() {
        Session s = session();
        Stubs.FAILING_SEALS.add(s.id());
        submit(s.token(1), "k-1", sheet(s.id(), "q1", "\"from-device-1\"", 40, "q2", "\"kept\"", 2)).statusCode(503)
                .header("Retry-After", notNullValue()).body("code", equalTo("ANSWER_SERVICE_UNAVAILABLE"));
        Stubs.FAILING_SEALS.remove(s.id());
        publish(s, 2, clock.millis() + 600_000);
        Stubs.DRAFTS.put(s.id(), "{\"q1\":{\"value\":\"from-device-2\",\"version\":1,\"epoch\":2}}");
        autoSubmit(s, "PROCTOR").statusCode(201)
                .body("submittedBy", equalTo("PROCTOR"))
                .body("answers.q1.value", equalTo("from-device-2"))
                .body("answers.q2.value", equalTo("kept"));
    }

    @Test
    void submitWithNothingAutosaved() {
        Session s = session();
        submit(s, "k-1", sheet(s.id(), "q1", "true", 1)).statusCode(201).body("answers.q1.value", equalTo(true))
                .body("answerCount", equalTo(1));
        Session empty = session();
        submit(empty, "k-1", sheet(empty.id())).statusCode(201).body("answerCount", equalTo(0));
    }

    @Test
    void aSheetWithinGraceIsTakenAndCountedLate() {
        Session s = session(Duration.ofSeconds(-10));
        Stubs.DRAFTS.put(s.id(), "{\"q1\":{\"value\":\"a\",\"version\":5,\"epoch\":1}}");
        Stubs.LATE_CHANGES.put(s.id(), 2);
        submit(s, "k-1", sheet(s.id(), "q1", "\"b\"", 6, "q2", "\"c\"", 1, "q3", "\"d\"", 1)).statusCode(201)
                .body("submittedBy", equalTo("CANDIDATE"))
                .body("answers.q1.value", equalTo("b"))
                .body("lateChanges", equalTo(5));
    }

    @Test
    void afterDeadlinePlusGraceNoNewSheetIsTaken() {
        Session s = session(Duration.ofMinutes(1));
        Stubs.DRAFTS.put(s.id(), "{\"q1\":{\"value\":\"autosaved\",\"version\":5,\"epoch\":1}}");
        clock.advance(Duration.ofMinutes(1).plus(GRACE).plusSeconds(1));
        String paperId = submit(s, "k-1", sheet(s.id(), "q1", "\"too-late\"", 9, "q2", "\"too-late\"", 1)).statusCode(200)
                .body("submittedBy", equalTo("AUTO"))
                .body("answers.q1.value", equalTo("autosaved"))
                .body("answers", not(hasKey("q2")))
                .extract().path("paperId");
        autoSubmit(s, "AUTO").statusCode(200).body("paperId", equalTo(paperId));
        assertEquals(1, paperCount(s));
    }

    @Test
    void aPausedSessionsSheetIsTakenWhateverTheDeadlineAndNothingInItIsLate() {
        Session s = session(Duration.ofMinutes(1));
        redis.hash(String.class).hset(RedisKeys.sessionState(s.id()),
                Map.of("status", "PAUSED", "pausedAt", Long.toString(clock.millis())));
        clock.advance(Duration.ofMinutes(1).plus(GRACE).plusSeconds(30)); // the fire alarm lasts
        submit(s, "k-1", sheet(s.id(), "q1", "\"in the pause\"", 3)).statusCode(201)
                .body("submittedBy", equalTo("CANDIDATE"))
                .body("answers.q1.value", equalTo("in the pause"))
                .body("lateChanges", equalTo(0));
        assertEquals(1, paperCount(s));
    }

    @Test
    void aLateSubmitGetsTheAutoSubmittedPaper() {
        Session s = session(Duration.ofMinutes(-1));
        String paperId = autoSubmit(s, "AUTO").statusCode(201).body("submittedBy", equalTo("AUTO")).extract().path("paperId");
        submit(s, "k-1", sheet(s.id(), "q1", "\"x\"", 1)).statusCode(200).body("paperId", equalTo(paperId))
                .body("submittedBy", equalTo("AUTO"));
        assertEquals(1, paperCount(s));
    }

    @Test
    void aSheetShedWith429BeforeTheDeadlineEndsUpInTheAutoSubmittedPaper() {
        Session s = session(Duration.ofMinutes(1));
        Stubs.DRAFTS.put(s.id(), "{\"q1\":{\"value\":\"draft\",\"version\":1,\"epoch\":1}}");
        int taken = 0;
        while (admission.tryEnter()) {
            taken++;
        }
        try {
            submit(s, "k-1", sheet(s.id(), "q1", "\"final\"", 2, "q2", "\"final\"", 1)).statusCode(429)
                    .contentType("application/problem+json").header("Retry-After", notNullValue())
                    .body("code", equalTo("SUBMISSIONS_BUSY"));
        } finally {
            for (int i = 0; i < taken; i++) {
                admission.leave(0);
            }
        }
        assertEquals(0, paperCount(s));
        clock.advance(Duration.ofMinutes(1).plus(GRACE));
        autoSubmit(s, "AUTO").statusCode(201)
                .body("answers.q1.value", equalTo("final"))
                .body("answers.q2.value", equalTo("final"))
                .body("answerCount", equalTo(2));
        // The 429 was not stored: the client's retry gets the paper.
        submit(s, "k-1", sheet(s.id(), "q1", "\"final\"", 2, "q2", "\"final\"", 1)).statusCode(200)
                .body("answers.q1.value", equalTo("final"));
    }

    @Test
    void answerServiceDownIs503AndNeverAPaperWithoutTheSealedDraft() {
        Session s = session();
        Stubs.FAILING_SEALS.add(s.id());
        String body = sheet(s.id(), "q1", "\"4\"", 1);
        submit(s, "k-1", body).statusCode(503).contentType("application/problem+json")
                .header("Retry-After", notNullValue()).body("code", equalTo("ANSWER_SERVICE_UNAVAILABLE"));
        assertEquals(0, paperCount(s));
        Stubs.FAILING_SEALS.remove(s.id());
        // The 503 was not stored for replay: the retry with the same key does the work.
        submit(s, "k-1", body).statusCode(201).header("Idempotent-Replayed", org.hamcrest.Matchers.nullValue()).body("answers.q1.value", equalTo("4"));
    }
}
