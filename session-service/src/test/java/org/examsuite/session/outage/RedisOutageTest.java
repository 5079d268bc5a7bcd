package org.examsuite.session.outage;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.examsuite.testing.Outages.neverA500;
import static org.examsuite.testing.Outages.unavailable;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import jakarta.inject.Inject;
import java.time.Duration;
import org.examsuite.session.Fixtures;
import org.examsuite.session.Fixtures.Started;
import org.examsuite.session.SubmissionStub;
import org.examsuite.session.TestClock;
import org.examsuite.testing.CuttableProxy;
import org.examsuite.testing.RedisBehindRelay;
import org.examsuite.testing.TestKeys;
import org.examsuite.common.auth.Roles;
import org.examsuite.testing.TestTokens;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfEnvironmentVariable;

/**
 * Redis goes away under a running session-service (every connection reset, new ones refused, as
 * in a restart) and comes back: meanwhile what needs Redis — a session start (rate limits,
 * published state), a heartbeat (online mark, proctor commands), proctoring events — answers
 * 503 problem+json with Retry-After, never 500, and what PostgreSQL alone serves (reading a
 * session, an exam) still answers 200; afterwards the same service serves again by itself.
 * (Standalone only: a relay cannot stand in for a cluster's nodes.)
 */
@QuarkusTest
@TestProfile(RedisBehindRelay.class)
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(SubmissionStub.class)
@DisabledIfEnvironmentVariable(named = "EXAM_TEST_REDIS_CLIENT_TYPE", matches = "cluster")
class RedisOutageTest {
    static final CuttableProxy REDIS = RedisBehindRelay.REDIS;

    @Inject
    TestClock clock;

    @AfterEach
    void restore() {
        REDIS.restore();
        clock.reset();
    }

    @Test
    void whileRedisIsGoneItsEndpointsAnswer503AndTheServiceRecoversByItself() {
        String examId = Fixtures.openExam(clock.instant());
        Started s = Fixtures.startFresh(examId);
        String candidateId = Fixtures.newCandidateId();
        String code = Fixtures.enroll(examId, candidateId).get(0);
        Started other = Fixtures.startFresh(Fixtures.openExam(clock.instant())); // for every other endpoint, in its own exam

        REDIS.cut();
        unavailable(Fixtures.start(examId, candidateId, code).then());
        unavailable(heartbeat(s));
        unavailable(events(s, "outage"));
        session(s).statusCode(200).body("status", equalTo("IN_PROGRESS"));
        exam(examId).statusCode(200).body("examId", equalTo(examId));
        neverA500(Endpoints.all(other, clock.instant()));

        REDIS.restore();
        // The pool reconnects on its own: the client's retries go through, unrestarted.
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(500))
                .until(() -> heartbeat(s).extract().statusCode() == 200);
        heartbeat(s).statusCode(200).body("sessionId", equalTo(s.sessionId()));
        events(s, "after").statusCode(202);
        Fixtures.start(examId, candidateId, code).then().statusCode(201).body("candidateId", equalTo(candidateId));
    }

    /**
     * An exam is PostgreSQL's: created while Redis is gone it is 201 (its questions are published
     * when a reader asks), so a client's retry — with or without the same key — never doubles it.
     */
    @Test
    void anExamCreatedWhileRedisIsGoneIsCreatedOnceAndPublishedOnRequest() {
        String body = Fixtures.examBody(clock.instant().minusSeconds(60), clock.instant().plusSeconds(7200), 3600);
        String key = "outage-" + System.nanoTime();
        REDIS.cut();
        String examId = createExam(body, key).statusCode(201).header("Idempotent-Replayed", nullValue())
                .extract().path("examId");
        createExam(body, key).statusCode(200).header("Idempotent-Replayed", equalTo("true")).body("examId", equalTo(examId));
        exam(examId).statusCode(200).body("examId", equalTo(examId));

        REDIS.restore();
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(500))
                .until(() -> given().auth().oauth2(TestTokens.service(Roles.ANSWER_SERVICE)).post("/internal/v1/exams/" + examId + "/publish")
                        .then().extract().statusCode() == 204);
    }

    static ValidatableResponse createExam(String body, String idempotencyKey) {
        return given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON).header("Idempotency-Key", idempotencyKey)
                .body(body).post("/api/v1/exams").then();
    }

    static ValidatableResponse heartbeat(Started s) {
        return given().auth().oauth2(s.token()).post("/api/v1/sessions/" + s.sessionId() + "/heartbeat").then();
    }

    static ValidatableResponse session(Started s) {
        return given().auth().oauth2(s.token()).get("/api/v1/sessions/" + s.sessionId()).then();
    }

    static ValidatableResponse exam(String examId) {
        return given().auth().oauth2(TestTokens.operator()).get("/api/v1/exams/" + examId).then();
    }

    static ValidatableResponse events(Started s, String eventId) {
        return given().auth().oauth2(s.token()).contentType(ContentType.JSON)
                .body("{\"events\": [{\"eventId\": \"" + eventId + "\", \"type\": \"TAB_HIDDEN\", \"at\": \"2026-12-02T08:31:05Z\"}]}")
                .post("/api/v1/sessions/" + s.sessionId() + "/events").then();
    }
}
