package org.examsuite.session.proctoring;

import org.examsuite.common.redis.SharedRedisDataSource;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasItems;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.examsuite.common.redis.RedisKeys;
import org.examsuite.session.Fixtures;
import org.examsuite.session.Fixtures.Started;
import org.examsuite.session.TestClock;
import org.examsuite.session.session.ActiveSessions;
import org.examsuite.common.auth.Roles;
import org.examsuite.testing.TestTokens;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
class ProctoringTest {
    @Inject
    TestClock clock;
    @Inject
    SharedRedisDataSource redis;
    @Inject
    ActiveSessions activeSessions;

    @BeforeEach
    void resetClock() {
        clock.reset();
    }

    private static String events(String... ids) {
        StringBuilder body = new StringBuilder("{\"events\": [");
        for (int i = 0; i < ids.length; i++) {
            body.append(i == 0 ? "" : ",").append("{\"eventId\": \"").append(ids[i])
                    .append("\", \"type\": \"FOCUS_LOST\", \"at\": \"2026-12-01T08:31:05Z\"}");
        }
        return body.append("]}").toString();
    }

    @Test
    void eventsAreDeduplicatedByClientId() {
        String examId = Fixtures.openExam(clock.instant());
        Started s = Fixtures.startFresh(examId);
        String path = "/api/v1/sessions/" + s.sessionId() + "/events";
        given().auth().oauth2(s.token()).contentType(ContentType.JSON).body(events("e-1", "e-2")).post(path).then()
                .statusCode(202).body("accepted", equalTo(2)).body("duplicates", equalTo(0));
        given().auth().oauth2(s.token()).contentType(ContentType.JSON).body(events("e-1", "e-2", "e-3")).post(path).then()
                .statusCode(202).body("accepted", equalTo(1)).body("duplicates", equalTo(2));
        assertEquals(3, redis.stream(String.class).xlen(RedisKeys.examEvents(examId)));
        // another session may use the same client ids
        Started other = Fixtures.startFresh(examId);
        given().auth().oauth2(other.token()).contentType(ContentType.JSON).body(events("e-1"))
                .post("/api/v1/sessions/" + other.sessionId() + "/events").then().statusCode(202).body("accepted", equalTo(1));
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/exams/" + examId + "/monitor").then().statusCode(200)
                .body("recentAlerts.size()", equalTo(4))
                .body("recentAlerts[0].sessionId", equalTo(other.sessionId()))
                .body("recentAlerts[0].type", equalTo("FOCUS_LOST"))
                .body("recentAlerts[0].source", equalTo("client"))
                .body("recentAlerts.eventId", hasItems("e-1", "e-2", "e-3"));
        redis.key().del(RedisKeys.examEvents(examId), RedisKeys.examEventIds(examId), RedisKeys.examOnline(examId));
    }

    @Test
    void eventInputIsValidatedAndOwnSessionOnly() {
        String examId = Fixtures.openExam(clock.instant());
        Started s = Fixtures.startFresh(examId);
        Started other = Fixtures.startFresh(examId);
        String path = "/api/v1/sessions/" + s.sessionId() + "/events";
        given().auth().oauth2(other.token()).contentType(ContentType.JSON).body(events("e-1")).post(path).then()
                .statusCode(403).contentType("application/problem+json");
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON).body(events("e-1")).post(path).then()
                .statusCode(403);
        given().auth().oauth2(s.token()).contentType(ContentType.JSON).body("{\"events\": []}").post(path).then()
                .statusCode(400).body("code", equalTo("VALIDATION_FAILED"));
        given().auth().oauth2(s.token()).contentType(ContentType.JSON)
                .body("{\"events\": [{\"eventId\": \"e 1\", \"type\": \"focus\", \"at\": \"2026-12-01T08:31:05Z\"}]}")
                .post(path).then().statusCode(400).body("violations.field", hasItems("events[0].eventId", "events[0].type"));
        given().auth().oauth2(s.token()).contentType(ContentType.JSON)
                .body("{\"events\": [{\"eventId\": \"e1\", \"type\": \"PASTE\", \"at\": \"soon\"}]}")
                .post(path).then().statusCode(400).body("code", equalTo("INVALID_FIELD"));
        String tooMany = events(java.util.stream.IntStream.range(0, 101).mapToObj(i -> "e" + i).toArray(String[]::new));
        given().auth().oauth2(s.token()).contentType(ContentType.JSON).body(tooMany).post(path).then()
                .statusCode(400).body("violations.field", hasItem("events"));
        given().auth().oauth2(s.token()).contentType(ContentType.JSON).body("{\"events\": [").post(path).then()
                .statusCode(400).body("code", equalTo("MALFORMED_JSON"));
        redis.key().del(RedisKeys.examEvents(examId), RedisKeys.examEventIds(examId), RedisKeys.examOnline(examId));
    }

    @Test
    void monitorCountsStartedOnlineAndSubmitted() {
        String examId = Fixtures.openExam(clock.instant());
        Started a = Fixtures.startFresh(examId);
        Started b = Fixtures.startFresh(examId);
        Started c = Fixtures.startFresh(examId);
        given().auth().oauth2(TestTokens.service(Roles.SUBMISSION_SERVICE)).contentType(ContentType.JSON).body(Map.of("paperId", "p-" + c.sessionId()))
                .post("/internal/v1/sessions/" + c.sessionId() + "/submitted").then().statusCode(204);
        clock.advance(Duration.ofSeconds(31));
        given().auth().oauth2(a.token()).post("/api/v1/sessions/" + a.sessionId() + "/heartbeat").then().statusCode(200);
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/exams/" + examId + "/monitor").then().statusCode(200)
                .body("examId", equalTo(examId))
                .body("state", equalTo("OPEN"))
                .body("started", equalTo(3))
                .body("inProgress", equalTo(2))
                .body("submitted", equalTo(1))
                .body("online", equalTo(1));
        given().auth().oauth2(b.token()).get("/api/v1/exams/" + examId + "/monitor").then().statusCode(403);
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/exams/" + UUID.randomUUID() + "/monitor").then()
                .statusCode(404).body("code", equalTo("EXAM_NOT_FOUND"));
        redis.key().del(RedisKeys.examOnline(examId));
    }

    @Test
    void extendingMovesTheDeadlineEverywhereAndIsAudited() {
        String examId = Fixtures.openExam(clock.instant());
        Started s = Fixtures.startFresh(examId);
        String before = redis.hash(String.class).hget(RedisKeys.sessionState(s.sessionId()), "deadline");
        String key = UUID.randomUUID().toString();
        Response extended = given().auth().oauth2(TestTokens.operator("op-erin")).header("Idempotency-Key", key)
                .contentType(ContentType.JSON).body(Map.of("seconds", 600, "reason", "fire alarm"))
                .post("/api/v1/sessions/" + s.sessionId() + "/extend");
        extended.then().statusCode(200).body("status", equalTo("IN_PROGRESS"));
        long deadline = Instant.parse(extended.path("deadline")).toEpochMilli();
        assertEquals(Long.parseLong(before) + 600_000, deadline);
        assertEquals(Long.toString(deadline), redis.hash(String.class).hget(RedisKeys.sessionState(s.sessionId()), "deadline"));
        // a retry with the same key extends once
        given().auth().oauth2(TestTokens.operator("op-erin")).header("Idempotency-Key", key)
                .contentType(ContentType.JSON).body(Map.of("seconds", 600, "reason", "fire alarm"))
                .post("/api/v1/sessions/" + s.sessionId() + "/extend").then().statusCode(200)
                .body("deadline", equalTo(extended.path("deadline")));
        // the device hears of it: heartbeat commands (and the live socket)
        Response beat = given().auth().oauth2(s.token()).post("/api/v1/sessions/" + s.sessionId() + "/heartbeat");
        beat.then().statusCode(200).body("deadline", equalTo(extended.path("deadline")))
                .body("commands.type", equalTo(List.of("EXTENDED")))
                .body("commands[0].reason", equalTo("fire alarm"))
                .body("commands[0].deadline", equalTo(extended.path("deadline")));
        int seen = beat.path("commands[0].id");
        given().auth().oauth2(s.token()).queryParam("lastCommandId", seen).post("/api/v1/sessions/" + s.sessionId() + "/heartbeat")
                .then().statusCode(200).body("commands.size()", equalTo(0));
        given().auth().oauth2(TestTokens.operator()).queryParam("sessionId", s.sessionId()).get("/api/v1/audit").then()
                .body("entries.size()", equalTo(1))
                .body("entries[0].action", equalTo("session.extended"))
                .body("entries[0].actor", equalTo("op-erin"))
                .body("entries[0].examId", equalTo(examId))
                .body("entries[0].detail.seconds", equalTo(600))
                .body("entries[0].detail.reason", equalTo("fire alarm"));
    }

    @Test
    void extensionIsRefusedOnceSubmittedAndValidated() {
        String examId = Fixtures.openExam(clock.instant());
        Started s = Fixtures.startFresh(examId);
        String path = "/api/v1/sessions/" + s.sessionId() + "/extend";
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON).body(Map.of("seconds", 0, "reason", "x"))
                .post(path).then().statusCode(400).body("violations.field", hasItem("seconds"));
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON).body(Map.of("seconds", 60))
                .post(path).then().statusCode(400).body("violations.field", hasItem("reason"));
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON).body("{\"seconds\": \"lots\", \"reason\": \"x\"}")
                .post(path).then().statusCode(400).body("code", equalTo("INVALID_FIELD"));
        given().auth().oauth2(s.token()).contentType(ContentType.JSON).body(Map.of("seconds", 60, "reason", "me"))
                .post(path).then().statusCode(403);
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON).body(Map.of("seconds", 60, "reason", "x"))
                .post("/api/v1/sessions/" + UUID.randomUUID() + "/extend").then().statusCode(404)
                .body("code", equalTo("SESSION_NOT_FOUND"));
        given().auth().oauth2(TestTokens.service(Roles.SUBMISSION_SERVICE)).contentType(ContentType.JSON).body(Map.of("paperId", "p-" + s.sessionId()))
                .post("/internal/v1/sessions/" + s.sessionId() + "/submitted").then().statusCode(204);
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON).body(Map.of("seconds", 60, "reason", "x"))
                .post(path).then().statusCode(409).contentType("application/problem+json").body("code", equalTo("SESSION_SUBMITTED"));
    }

    @Test
    void operatorsCanWarnACandidate() {
        String examId = Fixtures.openExam(clock.instant());
        Started s = Fixtures.startFresh(examId);
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON).body(Map.of("message", "eyes on your screen"))
                .post("/api/v1/sessions/" + s.sessionId() + "/warn").then().statusCode(200).body("commandId", equalTo(1));
        given().auth().oauth2(s.token()).post("/api/v1/sessions/" + s.sessionId() + "/heartbeat").then()
                .body("commands[0].type", equalTo("WARNING")).body("commands[0].message", equalTo("eyes on your screen"));
        given().auth().oauth2(TestTokens.operator()).queryParam("sessionId", s.sessionId()).get("/api/v1/audit").then()
                .body("entries[0].action", equalTo("session.warned"));
    }

    @Test
    void activeSessionsGaugeIsExported() {
        Fixtures.startFresh(Fixtures.openExam(clock.instant()));
        activeSessions.refresh().await().indefinitely();
        given().get("/q/metrics").then().statusCode(200).body(containsString("exam_sessions_active"));
    }
}
