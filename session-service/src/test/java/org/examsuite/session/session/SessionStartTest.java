package org.examsuite.session.session;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.examsuite.session.Fixtures;
import org.examsuite.session.Fixtures.Started;
import org.examsuite.session.TestClock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Session starts under a surge: the exam comes from the replica's cache, but a pause of the
 * exam written by another replica is seen by the very next start, and a start that finds every
 * place taken is refused at once with 429 SESSIONS_BUSY and a Retry-After.
 */
@QuarkusTest
class SessionStartTest {
    @Inject
    Pool pool;
    @Inject
    TestClock clock;
    @Inject
    StartAdmission admission;

    @BeforeEach
    void resetClock() {
        clock.reset();
    }

    private void sql(String statement, Object... args) {
        pool.preparedQuery(statement).execute(Tuple.from(args)).await().indefinitely();
    }

    private static String status(Started s) {
        return io.restassured.RestAssured.given().auth().oauth2(s.token()).get("/api/v1/sessions/" + s.sessionId())
                .then().statusCode(200).extract().path("status");
    }

    @Test
    void startsReadTheExamFromTheCacheNotFromPostgresql() {
        String examId = Fixtures.openExam(clock.instant());
        Fixtures.startFresh(examId); // the exam is read once, here
        // The candidate's part of an exam never changes once created; changed behind the
        // service's back, the next start still answers with the copy it holds.
        sql("UPDATE exam SET title = 'changed behind the cache' WHERE exam_id = $1", examId);
        String candidateId = Fixtures.newCandidateId();
        String code = Fixtures.enroll(examId, candidateId).get(0);
        Fixtures.start(examId, candidateId, code).then().statusCode(201).body("paper.title", equalTo("Algebra mock"))
                .body("paper.questions[0].key", nullValue()).body("paper.questions.size()", equalTo(6));
    }

    @Test
    void anExamPausedOrResumedByAnotherReplicaIsSeenByTheNextStart() {
        String examId = Fixtures.openExam(clock.instant());
        Started before = Fixtures.startFresh(examId);
        assertEquals("IN_PROGRESS", status(before));
        // Another replica's pause, as its PauseService commits it: the exam row (its sessions too,
        // but a session started after that commit is this replica's own to pause).
        sql("UPDATE exam SET paused_at = $2 WHERE exam_id = $1", examId, OffsetDateTime.ofInstant(clock.instant(), ZoneOffset.UTC));
        Started during = Fixtures.startFresh(examId);
        assertEquals("PAUSED", status(during), "a start after another replica's pause starts paused");
        sql("UPDATE exam SET paused_at = NULL WHERE exam_id = $1", examId);
        Started after = Fixtures.startFresh(examId);
        assertEquals("IN_PROGRESS", status(after), "a start after the exam's resume runs");
    }

    @Test
    void aStartFindingEveryPlaceTakenIsRefusedAtOnceWith429AndARetryAfter() {
        String examId = Fixtures.openExam(clock.instant());
        String candidateId = Fixtures.newCandidateId();
        String code = Fixtures.enroll(examId, candidateId).get(0);
        int taken = 0;
        while (admission.tryEnter()) {
            taken++;
        }
        try {
            assertTrue(taken > 0);
            Response refused = Fixtures.start(examId, candidateId, code);
            refused.then().statusCode(429).contentType("application/problem+json").body("code", equalTo("SESSIONS_BUSY"))
                    .header("Retry-After", not(equalTo(null))).body(not(org.hamcrest.Matchers.containsString("Exception")));
            int retryAfter = Integer.parseInt(refused.header("Retry-After"));
            assertTrue(retryAfter >= 1 && retryAfter <= 30, "Retry-After " + retryAfter);
        } finally {
            for (int i = 0; i < taken; i++) {
                admission.leave(1_000_000);
            }
        }
        // Refused before any work: the retry is the candidate's first start.
        Fixtures.start(examId, candidateId, code).then().statusCode(201).body("deviceEpoch", equalTo(1));
    }
}
