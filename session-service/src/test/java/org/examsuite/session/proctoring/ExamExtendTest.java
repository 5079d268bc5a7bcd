package org.examsuite.session.proctoring;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.response.ValidatableResponse;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.examsuite.common.redis.RedisKeys;
import org.examsuite.common.redis.SharedRedisDataSource;
import org.examsuite.session.Fixtures;
import org.examsuite.session.Fixtures.Started;
import org.examsuite.session.TestClock;
import org.examsuite.common.auth.Roles;
import org.examsuite.testing.TestTokens;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /api/v1/exams/{examId}/extend}: every open session of the exam gets the minutes once — in
 * PostgreSQL, in the published state and as an EXTENDED command — a retry with the same key extends none twice,
 * a submitted session is left alone, and the whole call is one audit entry.
 */
@QuarkusTest
class ExamExtendTest {
    @Inject
    TestClock clock;
    @Inject
    SharedRedisDataSource redis;

    @BeforeEach
    void resetClock() {
        clock.reset();
    }

    private static ValidatableResponse extend(String examId, String key, Object body) {
        var request = given().auth().oauth2(TestTokens.operator("op-ezra")).contentType(ContentType.JSON).body(body);
        if (key != null) {
            request.header("Idempotency-Key", key);
        }
        return request.post("/api/v1/exams/" + examId + "/extend").then();
    }

    private long publishedDeadline(String sessionId) {
        return Long.parseLong(redis.hash(String.class).hget(RedisKeys.sessionState(sessionId), "deadline"));
    }

    @Test
    void everyOpenSessionGetsTheMinutesOnceAndHearsOfIt() {
        String examId = Fixtures.openExam(clock.instant());
        Started a = Fixtures.startFresh(examId);
        Started b = Fixtures.startFresh(examId);
        Started done = Fixtures.startFresh(examId);
        given().auth().oauth2(TestTokens.service(Roles.SUBMISSION_SERVICE)).contentType(ContentType.JSON).body(Map.of("paperId", "p-" + done.sessionId()))
                .post("/internal/v1/sessions/" + done.sessionId() + "/submitted").then().statusCode(204);
        long aBefore = publishedDeadline(a.sessionId());
        long bBefore = publishedDeadline(b.sessionId());
        long doneBefore = publishedDeadline(done.sessionId());
        String key = UUID.randomUUID().toString();

        extend(examId, key, Map.of("minutes", 10, "reason", "late start in hall B")).statusCode(200)
                .body("examId", equalTo(examId)).body("minutes", equalTo(10))
                .body("sessionsExtended", equalTo(2)).body("replayed", equalTo(false));
        assertEquals(aBefore + 600_000, publishedDeadline(a.sessionId()));
        assertEquals(bBefore + 600_000, publishedDeadline(b.sessionId()));
        assertEquals(doneBefore, publishedDeadline(done.sessionId()));
        String deadline = given().auth().oauth2(a.token()).get("/api/v1/sessions/" + a.sessionId()).then().statusCode(200)
                .extract().path("deadline");
        assertEquals(aBefore + 600_000, Instant.parse(deadline).toEpochMilli());

        // the retry (its answer lost, say) extends nobody again
        extend(examId, key, Map.of("minutes", 10, "reason", "late start in hall B")).statusCode(200)
                .body("sessionsExtended", equalTo(0)).body("replayed", equalTo(true));
        assertEquals(aBefore + 600_000, publishedDeadline(a.sessionId()));
        // the same key with other minutes is another request
        extend(examId, key, Map.of("minutes", 5)).statusCode(422).contentType("application/problem+json")
                .body("code", equalTo("IDEMPOTENCY_KEY_REUSED"));

        Response beat = given().auth().oauth2(a.token()).post("/api/v1/sessions/" + a.sessionId() + "/heartbeat");
        beat.then().statusCode(200).body("deadline", equalTo(deadline))
                .body("commands.type", equalTo(List.of("EXTENDED")))
                .body("commands[0].deadline", equalTo(deadline))
                .body("commands[0].reason", equalTo("late start in hall B"));
        given().auth().oauth2(TestTokens.operator()).queryParam("examId", examId).get("/api/v1/audit").then()
                .body("entries.action", hasItem("exam.extended"))
                .body("entries.find { it.action == 'exam.extended' }.actor", equalTo("op-ezra"))
                .body("entries.find { it.action == 'exam.extended' }.detail.sessions", equalTo(2))
                .body("entries.findAll { it.action == 'exam.extended' }.size()", equalTo(1));

        // a second extension under another key adds up
        extend(examId, UUID.randomUUID().toString(), Map.of("minutes", 1)).statusCode(200).body("sessionsExtended", equalTo(2));
        assertEquals(aBefore + 660_000, publishedDeadline(a.sessionId()));
    }

    @Test
    void anExtensionNeedsAKeyValidMinutesAnExamAndAnOperator() {
        String examId = Fixtures.openExam(clock.instant());
        Started s = Fixtures.startFresh(examId);
        extend(examId, null, Map.of("minutes", 10)).statusCode(400).contentType("application/problem+json")
                .body("code", equalTo("IDEMPOTENCY_KEY_MISSING"));
        extend(examId, "k", Map.of("minutes", 0)).statusCode(400).body("violations.field", hasItem("minutes"));
        extend(examId, "k", Map.of("minutes", 1441)).statusCode(400).body("violations.field", hasItem("minutes"));
        extend(examId, "k", Map.of("minutes", "lots")).statusCode(400).body("code", equalTo("INVALID_FIELD"));
        extend(UUID.randomUUID().toString(), "k", Map.of("minutes", 10)).statusCode(404).body("code", equalTo("EXAM_NOT_FOUND"));
        given().auth().oauth2(s.token()).contentType(ContentType.JSON).header("Idempotency-Key", "k").body(Map.of("minutes", 10))
                .post("/api/v1/exams/" + examId + "/extend").then().statusCode(403);
        given().contentType(ContentType.JSON).header("Idempotency-Key", "k").body(Map.of("minutes", 10))
                .post("/api/v1/exams/" + examId + "/extend").then().statusCode(401);
    }
}
