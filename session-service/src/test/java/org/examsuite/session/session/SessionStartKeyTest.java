package org.examsuite.session.session;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.examsuite.session.Fixtures;
import org.examsuite.session.TestClock;
import org.examsuite.testing.TestTokens;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A start under an Idempotency-Key (docs/api.md §3.2): its retries and late copies get the epoch the first
 * copy got, so a weak network's duplicate never takes the session over from the device that sent it.
 */
@QuarkusTest
class SessionStartKeyTest {
    @Inject
    Pool pool;
    @Inject
    TestClock clock;

    @BeforeEach
    void resetClock() {
        clock.reset();
    }

    /** A candidate enrolled in a fresh open exam, with the access code. */
    private record Enrolled(String examId, String candidateId, String code) {
    }

    private Enrolled enrolled() {
        String examId = Fixtures.openExam(clock.instant());
        String candidateId = Fixtures.newCandidateId();
        return new Enrolled(examId, candidateId, Fixtures.enroll(examId, candidateId).get(0));
    }

    private static Response start(Enrolled who, String key) {
        return given().contentType(ContentType.JSON).header("Idempotency-Key", key)
                .body(Map.of("examId", who.examId(), "candidateId", who.candidateId(), "accessCode", who.code()))
                .post("/api/v1/sessions");
    }

    private static Response heartbeat(String sessionId, String token) {
        return given().auth().oauth2(token).post("/api/v1/sessions/" + sessionId + "/heartbeat");
    }

    private int epochInPostgres(String sessionId) {
        return pool.preparedQuery("SELECT device_epoch FROM session WHERE session_id = $1").execute(Tuple.of(sessionId))
                .await().indefinitely().iterator().next().getInteger(0);
    }

    /** The takeover alerts the proctors see for the exam. */
    private static int takeoverAlerts(String examId) {
        return given().auth().oauth2(TestTokens.operator()).get("/api/v1/exams/" + examId + "/monitor").then()
                .statusCode(200).extract().path("recentAlerts.findAll { it.type == 'TAKEOVER' }.size()");
    }

    @Test
    void aRetriedStartGetsTheFirstCopysEpochAndTakesNothingOver() {
        Enrolled who = enrolled();
        Response first = start(who, "sign-in-1");
        first.then().statusCode(201).header("Idempotent-Replayed", nullValue()).body("deviceEpoch", equalTo(1));
        String sessionId = first.path("sessionId");

        // The first answer was lost; the retry is the same sign-in: the same session at the same epoch.
        Response retry = start(who, "sign-in-1");
        retry.then().statusCode(201).header("Idempotent-Replayed", equalTo("true")).header("Cache-Control", "no-store")
                .body("sessionId", equalTo(sessionId)).body("deviceEpoch", equalTo(1));
        assertEquals(1, epochInPostgres(sessionId));
        heartbeat(sessionId, first.path("token")).then().statusCode(200);
        heartbeat(sessionId, retry.path("token")).then().statusCode(200);
        assertEquals(0, takeoverAlerts(who.examId()));
    }

    @Test
    void aLateCopyOfAnEarlierSignInReplaysItsOwnEpochAndLeavesTheNewerDeviceWriting() {
        Enrolled who = enrolled();
        String sessionId = start(who, "laptop").then().statusCode(201).extract().path("sessionId");
        Response tablet = start(who, "tablet");
        tablet.then().statusCode(200).header("Idempotent-Replayed", nullValue()).body("deviceEpoch", equalTo(2));
        assertEquals(1, takeoverAlerts(who.examId()));

        // The laptop's first request, held up on the network, lands now: it gets what it got then.
        Response late = start(who, "laptop");
        late.then().statusCode(201).header("Idempotent-Replayed", equalTo("true")).body("deviceEpoch", equalTo(1));
        assertEquals(2, epochInPostgres(sessionId), "the late copy took nothing over");
        heartbeat(sessionId, tablet.path("token")).then().statusCode(200);
        heartbeat(sessionId, late.path("token")).then().statusCode(409).body("code", equalTo("SESSION_TAKEN_OVER"));
        assertEquals(1, takeoverAlerts(who.examId()));
    }

    @Test
    void concurrentCopiesOfOneSignInRaiseTheEpochOnce() {
        Enrolled who = enrolled();
        String sessionId = start(who, "first").then().statusCode(201).extract().path("sessionId");
        List<CompletableFuture<Response>> copies = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            copies.add(CompletableFuture.supplyAsync(() -> start(who, "second")));
        }
        for (CompletableFuture<Response> copy : copies) {
            copy.join().then().statusCode(200).body("sessionId", equalTo(sessionId)).body("deviceEpoch", equalTo(2));
        }
        assertEquals(2, epochInPostgres(sessionId));
        assertEquals(1, takeoverAlerts(who.examId()));
    }

    @Test
    void withoutAKeyEveryStartIsATakeoverAsBefore() {
        Enrolled who = enrolled();
        Fixtures.start(who.examId(), who.candidateId(), who.code()).then().statusCode(201).body("deviceEpoch", equalTo(1));
        Fixtures.start(who.examId(), who.candidateId(), who.code()).then().statusCode(200).body("deviceEpoch", equalTo(2));
        Fixtures.start(who.examId(), who.candidateId(), who.code()).then().statusCode(200).body("deviceEpoch", equalTo(3));
    }

    @Test
    void anOversizedKeyIsA400ProblemAndStartsNothing() {
        Enrolled who = enrolled();
        start(who, "k".repeat(201)).then().statusCode(400).contentType("application/problem+json")
                .body("code", equalTo("VALIDATION_FAILED"));
        long sessions = pool.preparedQuery("SELECT count(*) FROM session WHERE exam_id = $1 AND candidate_id = $2")
                .execute(Tuple.of(who.examId(), who.candidateId())).await().indefinitely().iterator().next().getLong(0);
        assertEquals(0, sessions);
    }
}
