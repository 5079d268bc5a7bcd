package org.examsuite.session.proctoring;

import org.examsuite.common.redis.SharedRedisDataSource;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.examsuite.common.redis.PublishedSession;
import org.examsuite.common.redis.RedisKeys;
import org.examsuite.session.Fixtures;
import org.examsuite.session.Fixtures.Started;
import org.examsuite.session.StubControl;
import org.examsuite.session.TestClock;
import org.examsuite.session.autosubmit.AutoSubmitter;
import org.examsuite.testing.TestTokens;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Pause and resume, of a session and of a whole exam, driven by the injectable clock: the
 * candidate's time stands still, auto-submit leaves the session alone, and resume moves the
 * deadline (in PostgreSQL and in the published state) by exactly the time paused.
 */
@QuarkusTest
class PauseTest {
    @Inject
    TestClock clock;
    @Inject
    SharedRedisDataSource redis;
    @Inject
    AutoSubmitter submitter;
    @ConfigProperty(name = "exam.test.submission-stub")
    String stubUrl;

    @BeforeEach
    void resetClock() {
        clock.reset();
    }

    private static Response post(String path) {
        return given().auth().oauth2(TestTokens.operator("op-pat")).post(path);
    }

    private static JsonPath view(Started s) {
        return given().auth().oauth2(s.token()).get("/api/v1/sessions/" + s.sessionId()).then().statusCode(200)
                .extract().jsonPath();
    }

    private Map<String, String> published(String sessionId) {
        return redis.hash(String.class).hgetall(RedisKeys.sessionState(sessionId));
    }

    @Test
    void aPausedSessionsClockStandsStillAndResumeMovesItsDeadlineByThePause() {
        String examId = Fixtures.openExam(clock.instant());
        Started s = Fixtures.startFresh(examId);
        Instant deadline = Instant.parse(view(s).getString("deadline"));

        JsonPath paused = post("/api/v1/sessions/" + s.sessionId() + "/pause").then().statusCode(200)
                .body("status", equalTo("PAUSED")).body("pausedAt", notNullValue()).extract().jsonPath();
        long remaining = paused.getLong("remainingMs");
        Instant pausedAt = Instant.parse(paused.getString("pausedAt"));
        assertEquals(PublishedSession.PAUSED, published(s.sessionId()).get(PublishedSession.STATUS));
        assertEquals(Long.toString(pausedAt.toEpochMilli()), published(s.sessionId()).get(PublishedSession.PAUSED_AT));
        // pausing again changes nothing
        post("/api/v1/sessions/" + s.sessionId() + "/pause").then().statusCode(200)
                .body("pausedAt", equalTo(paused.getString("pausedAt")));

        clock.advance(Duration.ofMinutes(10));
        JsonPath later = view(s);
        assertEquals("PAUSED", later.getString("status"));
        assertEquals(remaining, later.getLong("remainingMs"), "the clock stood still while paused");
        given().auth().oauth2(s.token()).post("/api/v1/sessions/" + s.sessionId() + "/heartbeat").then().statusCode(200)
                .body("status", equalTo("PAUSED")).body("remainingMs", equalTo((int) remaining))
                .body("commands.type", hasItems("PAUSED"));

        JsonPath resumed = post("/api/v1/sessions/" + s.sessionId() + "/resume").then().statusCode(200)
                .body("status", equalTo("IN_PROGRESS")).body("pausedAt", nullValue()).extract().jsonPath();
        Instant moved = Instant.parse(resumed.getString("deadline"));
        long pausedFor = Duration.between(deadline, moved).toMillis();
        assertTrue(pausedFor >= Duration.ofMinutes(10).toMillis() && pausedFor < Duration.ofMinutes(10).plusSeconds(10).toMillis(),
                "the deadline moved by the time paused (10 min of the test clock, plus the real time the test took): " + pausedFor);
        assertEquals(Long.toString(moved.toEpochMilli()), published(s.sessionId()).get(PublishedSession.DEADLINE));
        assertEquals(PublishedSession.IN_PROGRESS, published(s.sessionId()).get(PublishedSession.STATUS));
        assertEquals("0", published(s.sessionId()).get(PublishedSession.PAUSED_AT));
        // resuming again changes nothing; the clock runs again
        post("/api/v1/sessions/" + s.sessionId() + "/resume").then().statusCode(200)
                .body("deadline", equalTo(resumed.getString("deadline")));
        clock.advance(Duration.ofMinutes(1));
        assertTrue(view(s).getLong("remainingMs") < resumed.getLong("remainingMs"));

        given().auth().oauth2(TestTokens.operator()).queryParam("sessionId", s.sessionId()).get("/api/v1/audit").then()
                .statusCode(200).body("entries.action", equalTo(List.of("session.resumed", "session.paused")))
                .body("entries[0].actor", equalTo("op-pat"));
    }

    @Test
    void autoSubmitLeavesAPausedSessionAloneAndTakesItAtTheMovedTime() {
        Instant now = clock.instant();
        String examId = Fixtures.createExam(Fixtures.examBody(now.minus(Duration.ofMinutes(1)), now.plus(Duration.ofHours(2)), 60));
        Started s = Fixtures.startFresh(examId);
        StubControl stub = new StubControl(stubUrl);
        post("/api/v1/sessions/" + s.sessionId() + "/pause").then().statusCode(200);
        clock.advance(Duration.ofMinutes(5)); // far past deadline + grace of the unpaused session
        submitter.runOnce("replica-a").await().indefinitely();
        assertEquals(0, stub.calls(s.sessionId()));
        post("/api/v1/sessions/" + s.sessionId() + "/resume").then().statusCode(200).body("status", equalTo("IN_PROGRESS"));
        submitter.runOnce("replica-a").await().indefinitely();
        assertEquals(0, stub.calls(s.sessionId()), "60 s of the exam were left at the pause, and they start again now");
        clock.advance(Duration.ofSeconds(60 + 30 + 2));
        submitter.runOnce("replica-a").await().indefinitely();
        assertEquals(1, stub.calls(s.sessionId()));
        post("/api/v1/sessions/" + s.sessionId() + "/pause").then().statusCode(409).contentType("application/problem+json")
                .body("code", equalTo("SESSION_SUBMITTED"));
    }

    @Test
    void anExamPausePausesItsRunningSessionsAndThoseStartedMeanwhileAndResumesOnlyThose() {
        String examId = Fixtures.openExam(clock.instant());
        Started running = Fixtures.startFresh(examId);
        Started alone = Fixtures.startFresh(examId);
        post("/api/v1/sessions/" + alone.sessionId() + "/pause").then().statusCode(200);

        post("/api/v1/exams/" + examId + "/pause").then().statusCode(200).body("paused", equalTo(true))
                .body("pausedAt", notNullValue()).body("sessionsChanged", equalTo(1));
        post("/api/v1/exams/" + examId + "/pause").then().statusCode(200).body("sessionsChanged", equalTo(0));
        assertEquals("PAUSED", view(running).getString("status"));
        Started meanwhile = Fixtures.startFresh(examId);
        assertEquals("PAUSED", view(meanwhile).getString("status"), "a session started during the exam's pause starts paused");
        assertEquals(PublishedSession.PAUSED, published(meanwhile.sessionId()).get(PublishedSession.STATUS));
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/exams/" + examId + "/monitor").then().statusCode(200)
                .body("paused", equalTo(3)).body("pausedAt", notNullValue());

        post("/api/v1/exams/" + examId + "/resume").then().statusCode(200).body("paused", equalTo(false))
                .body("sessionsChanged", equalTo(2));
        assertEquals("IN_PROGRESS", view(running).getString("status"));
        assertEquals("IN_PROGRESS", view(meanwhile).getString("status"));
        assertEquals("PAUSED", view(alone).getString("status"), "paused on its own, it waits for its own resume");
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/exams/" + examId + "/monitor").then().statusCode(200)
                .body("paused", equalTo(1)).body("pausedAt", nullValue());
        given().auth().oauth2(TestTokens.operator()).queryParam("examId", examId).queryParam("limit", 500).get("/api/v1/audit")
                .then().statusCode(200).body("entries.action", hasItems("exam.paused", "exam.resumed"));
    }

    /** What a pause that committed and then failed to publish (Redis down, the replica killed) leaves in Redis. */
    private void publishedAsBefore(String sessionId, Map<String, String> before) {
        redis.key(String.class).del(RedisKeys.sessionState(sessionId));
        redis.hash(String.class).hset(RedisKeys.sessionState(sessionId), before);
    }

    @Test
    void aRetriedExamPauseOrResumeRepublishesStatesItsFirstCallFailedToPublish() {
        String examId = Fixtures.openExam(clock.instant());
        Started first = Fixtures.startFresh(examId);
        Started second = Fixtures.startFresh(examId);
        Map<String, String> running = published(first.sessionId());
        assertEquals(PublishedSession.IN_PROGRESS, running.get(PublishedSession.STATUS));

        post("/api/v1/exams/" + examId + "/pause").then().statusCode(200).body("sessionsChanged", equalTo(2));
        Map<String, String> paused = published(first.sessionId());
        publishedAsBefore(first.sessionId(), running);
        post("/api/v1/exams/" + examId + "/pause").then().statusCode(200).body("sessionsChanged", equalTo(0));
        assertEquals(PublishedSession.PAUSED, published(first.sessionId()).get(PublishedSession.STATUS),
                "the retry republished the state its first call left stale");
        assertEquals(PublishedSession.PAUSED, published(second.sessionId()).get(PublishedSession.STATUS));

        clock.advance(Duration.ofMinutes(3));
        post("/api/v1/exams/" + examId + "/resume").then().statusCode(200).body("sessionsChanged", equalTo(2));
        Map<String, String> resumed = published(first.sessionId());
        publishedAsBefore(first.sessionId(), paused);
        post("/api/v1/exams/" + examId + "/resume").then().statusCode(200).body("sessionsChanged", equalTo(0));
        assertEquals(resumed, published(first.sessionId()), "the retry republished the resumed state, moved deadline included");
        assertEquals(PublishedSession.IN_PROGRESS, published(second.sessionId()).get(PublishedSession.STATUS));
    }

    @Test
    void onlyOperatorsPauseAndUnknownsAreNotFound() {
        String examId = Fixtures.openExam(clock.instant());
        Started s = Fixtures.startFresh(examId);
        given().auth().oauth2(s.token()).post("/api/v1/sessions/" + s.sessionId() + "/pause").then().statusCode(403);
        given().post("/api/v1/exams/" + examId + "/pause").then().statusCode(401);
        post("/api/v1/sessions/" + UUID.randomUUID() + "/pause").then().statusCode(404)
                .contentType("application/problem+json").body("code", equalTo("SESSION_NOT_FOUND"));
        post("/api/v1/exams/" + UUID.randomUUID() + "/resume").then().statusCode(404).body("code", equalTo("EXAM_NOT_FOUND"));
    }
}
