package org.examsuite.session.proctoring;

import org.examsuite.common.redis.SharedRedisDataSource;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import org.examsuite.common.redis.RedisKeys;
import org.examsuite.session.Fixtures;
import org.examsuite.session.Fixtures.Started;
import org.examsuite.session.TestClock;
import org.junit.jupiter.api.BeforeEach;
import org.examsuite.testing.TestTokens;
import org.junit.jupiter.api.Test;

/**
 * The proctoring rules on the exam's event stream (default rules of application.properties:
 * 10 FOCUS_LOST within 5 minutes): a flag with its evidence in the monitor, raised once
 * however many replicas read the stream, and not raised for events spread wider than the window.
 */
@QuarkusTest
class FlagTest {
    @Inject
    Flagger flagger;
    @Inject
    SharedRedisDataSource redis;
    @Inject
    MeterRegistry registry;
    @Inject
    TestClock clock;

    @BeforeEach
    void resetClock() {
        clock.reset();
    }

    private static void events(Started s, String eventsJson, int status) {
        given().auth().oauth2(s.token()).contentType(ContentType.JSON).body("{\"events\": [" + eventsJson + "]}")
                .post("/api/v1/sessions/" + s.sessionId() + "/events").then().statusCode(status);
    }

    private static String withRules(Instant now, int durationSeconds, String rules) {
        String body = Fixtures.examBody(now.minus(Duration.ofMinutes(5)), now.plus(Duration.ofHours(2)), durationSeconds);
        return body.substring(0, body.lastIndexOf('}')) + ", \"proctoringRules\": " + rules + "}";
    }

    private static void focusLost(Started s, Instant first, Duration apart, int count, String prefix) {
        StringBuilder body = new StringBuilder("{\"events\": [");
        for (int i = 0; i < count; i++) {
            body.append(i == 0 ? "" : ",").append("{\"eventId\": \"").append(prefix).append(i)
                    .append("\", \"type\": \"FOCUS_LOST\", \"at\": \"").append(first.plus(apart.multipliedBy(i))).append("\"}");
        }
        given().auth().oauth2(s.token()).contentType(ContentType.JSON).body(body.append("]}").toString())
                .post("/api/v1/sessions/" + s.sessionId() + "/events").then().statusCode(202);
    }

    private double raised() {
        var counter = registry.find("exam_proctoring_flags_total").tag("rule", "focus-lost").counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void tenFocusLossesWithinFiveMinutesFlagTheSessionOnceWithTheirEvidence() {
        String examId = Fixtures.openExam(Instant.now());
        Started s = Fixtures.startFresh(examId);
        Started calm = Fixtures.startFresh(examId);
        Instant first = Instant.now().minus(Duration.ofMinutes(4));
        focusLost(s, first, Duration.ofSeconds(20), 9, "f");
        focusLost(calm, first, Duration.ofSeconds(20), 9, "f");
        flagger.runOnce("replica-a").await().indefinitely();
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/exams/" + examId + "/monitor").then().statusCode(200)
                .body("flagged", empty());

        double before = raised();
        focusLost(s, first.plus(Duration.ofSeconds(190)), Duration.ofSeconds(1), 1, "g");
        // two replicas read the stream at once: the work is shared, the flag raised once
        CompletableFuture<Integer> a = flagger.runOnce("replica-a").subscribeAsCompletionStage();
        CompletableFuture<Integer> b = flagger.runOnce("replica-b").subscribeAsCompletionStage();
        CompletableFuture.allOf(a, b).join();
        assertTrue(raised() >= before + 1, "exam_proctoring_flags_total{rule=focus-lost} counts the flag");
        String flag = redis.hash(String.class).hget(RedisKeys.flags(s.sessionId()), "focus-lost");
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/exams/" + examId + "/monitor").then().statusCode(200)
                .body("flagged", hasSize(1))
                .body("flagged[0].sessionId", equalTo(s.sessionId()))
                .body("flagged[0].flags[0].rule", equalTo("focus-lost"))
                .body("flagged[0].flags[0].events", hasSize(10));

        // more losses, another round: still the one flag, as it was raised
        focusLost(s, first.plus(Duration.ofSeconds(200)), Duration.ofSeconds(1), 3, "h");
        flagger.runOnce("replica-b").await().indefinitely();
        assertEquals(1, redis.hash(String.class).hgetall(RedisKeys.flags(s.sessionId())).size());
        assertEquals(flag, redis.hash(String.class).hget(RedisKeys.flags(s.sessionId()), "focus-lost"));
    }

    @Test
    void eventsProcessedNewestFirstFlagAsWellAsInOrder() {
        String examId = Fixtures.openExam(Instant.now());
        Started s = Fixtures.startFresh(examId);
        Instant first = Instant.now().minus(Duration.ofMinutes(3));
        // a device's outbox sends in any order: here the newest first, one event per batch
        for (int i = 9; i >= 0; i--) {
            focusLost(s, first.plus(Duration.ofSeconds(i)), Duration.ZERO, 1, "r" + i + "-");
        }
        flagger.runOnce("replica-a").await().indefinitely();
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/exams/" + examId + "/monitor").then().statusCode(200)
                .body("flagged[0].sessionId", equalTo(s.sessionId()))
                .body("flagged[0].flags[0].events", hasSize(10));
    }

    @Test
    void focusLossesSpreadWiderThanTheWindowRaiseNothing() {
        String examId = Fixtures.openExam(Instant.now());
        Started s = Fixtures.startFresh(examId);
        focusLost(s, Instant.now().minus(Duration.ofMinutes(50)), Duration.ofMinutes(1), 40, "w");
        flagger.runOnce("replica-a").await().indefinitely();
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/exams/" + examId + "/monitor").then().statusCode(200)
                .body("flagged", empty());
    }

    @Test
    void entriesADeadReplicaHeldAreEvaluatedByAnother() {
        String examId = Fixtures.openExam(Instant.now());
        Started s = Fixtures.startFresh(examId);
        flagger.runOnce("replica-a").await().indefinitely(); // the group exists from here on
        focusLost(s, Instant.now().minus(Duration.ofMinutes(1)), Duration.ofSeconds(1), 10, "d");
        // a replica took the entries and died before evaluating them
        redis.stream(String.class).xreadgroup(Flagger.GROUP, "replica-dead", RedisKeys.examEvents(examId), ">");
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/exams/" + examId + "/monitor").then()
                .body("flagged", empty());
        // after claim-idle (test profile: 0) another replica claims and evaluates them
        flagger.runOnce("replica-b").await().indefinitely();
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/exams/" + examId + "/monitor").then()
                .body("flagged[0].flags[0].rule", equalTo("focus-lost"));
    }

    @Test
    void anExamsOwnRulesReplaceTheDefaultsAndAreShownWithIt() {
        String examId = Fixtures.createExam(withRules(Instant.now(), 3600, """
                [{"name": "quick-blur", "kind": "EVENT_COUNT", "eventType": "FOCUS_LOST", "count": 2, "windowSeconds": 60}]"""));
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/exams/" + examId).then().statusCode(200)
                .body("proctoringRules", hasSize(1))
                .body("proctoringRules[0].name", equalTo("quick-blur"))
                .body("proctoringRules[0].count", equalTo(2));
        String defaults = Fixtures.openExam(Instant.now());
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/exams/" + defaults).then().statusCode(200)
                .body("proctoringRules.name", org.hamcrest.Matchers.hasItems("focus-lost", "long-paste", "offline-near-deadline"));

        Started s = Fixtures.startFresh(examId);
        focusLost(s, Instant.now().minus(Duration.ofMinutes(2)), Duration.ofSeconds(1), 10, "o");
        flagger.runOnce("replica-a").await().indefinitely();
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/exams/" + examId + "/monitor").then().statusCode(200)
                .body("flagged[0].flags", hasSize(1))
                .body("flagged[0].flags[0].rule", equalTo("quick-blur"))
                .body("flagged[0].flags[0].events", hasSize(2));
    }

    @Test
    void badRulesAreRefusedWithTheirField() {
        String body = withRules(Instant.now(), 3600, """
                [{"name": "a", "kind": "EVENT_COUNT", "eventType": "FOCUS_LOST", "count": 2, "windowSeconds": 60, "minLength": 5},
                 {"name": "a", "kind": "OFFLINE_NEAR_DEADLINE", "offlineSeconds": 600, "lastSeconds": 300, "count": 3},
                 {"name": "b", "kind": "EVENT_COUNT"}]""");
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON).body(body).post("/api/v1/exams").then()
                .statusCode(400).contentType("application/problem+json").body("code", equalTo("VALIDATION_FAILED"))
                .body("violations.field", org.hamcrest.Matchers.hasItems("proctoringRules[0].minLength", "proctoringRules[1].name",
                        "proctoringRules[1].offlineSeconds", "proctoringRules[1].count", "proctoringRules[2].eventType",
                        "proctoringRules[2].count", "proctoringRules[2].windowSeconds"));
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON)
                .body(withRules(Instant.now(), 3600, "[{\"name\": \"Bad Name\", \"kind\": \"SOMETIMES\"}]"))
                .post("/api/v1/exams").then().statusCode(400).contentType("application/problem+json");
    }

    @Test
    void oneLongPasteRaisesTheLongPasteFlagWithItAsEvidenceAndShortOnesDoNot() {
        String examId = Fixtures.openExam(Instant.now());
        Started s = Fixtures.startFresh(examId);
        String at = Instant.now().minusSeconds(30).toString();
        events(s, """
                {"eventId": "p1", "type": "PASTE", "at": "%s", "length": 120},
                {"eventId": "p2", "type": "PASTE", "at": "%s"}""".formatted(at, at), 202);
        flagger.runOnce("replica-a").await().indefinitely();
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/exams/" + examId + "/monitor").then().body("flagged", empty());

        events(s, "{\"eventId\": \"p3\", \"type\": \"PASTE\", \"at\": \"" + at + "\", \"length\": 4200}", 202);
        CompletableFuture<Integer> a = flagger.runOnce("replica-a").subscribeAsCompletionStage();
        CompletableFuture<Integer> b = flagger.runOnce("replica-b").subscribeAsCompletionStage();
        CompletableFuture.allOf(a, b).join();
        // A round returns the flags it raised in every exam, other tests' (and earlier runs') included:
        // that the two replicas raised this one once is what the monitor's single flag shows.
        assertTrue(a.join() + b.join() >= 1, "raised by one of the two replicas");
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/exams/" + examId + "/monitor").then()
                .body("flagged[0].flags", hasSize(1))
                .body("flagged[0].flags[0].rule", equalTo("long-paste"))
                .body("flagged[0].flags[0].events", equalTo(java.util.List.of("p3")));
    }

    @Test
    void aPastedLengthIsCheckedAndToldOnlyWithAPaste() {
        Started s = Fixtures.startFresh(Fixtures.openExam(Instant.now()));
        String at = Instant.now().toString();
        given().auth().oauth2(s.token()).contentType(ContentType.JSON)
                .body("{\"events\": [{\"eventId\": \"x1\", \"type\": \"FOCUS_LOST\", \"at\": \"" + at + "\", \"length\": 3}]}")
                .post("/api/v1/sessions/" + s.sessionId() + "/events").then().statusCode(400)
                .contentType("application/problem+json").body("code", equalTo("INVALID_FIELD")).body("field", equalTo("events[0].length"));
        given().auth().oauth2(s.token()).contentType(ContentType.JSON)
                .body("{\"events\": [{\"eventId\": \"x2\", \"type\": \"PASTE\", \"at\": \"" + at + "\", \"length\": -1}]}")
                .post("/api/v1/sessions/" + s.sessionId() + "/events").then().statusCode(400).body("code", equalTo("VALIDATION_FAILED"));
        given().auth().oauth2(s.token()).contentType(ContentType.JSON)
                .body("{\"events\": [{\"eventId\": \"x3\", \"type\": \"PASTE\", \"at\": \"" + at + "\", \"length\": \"long\"}]}")
                .post("/api/v1/sessions/" + s.sessionId() + "/events").then().statusCode(400).body("code", equalTo("INVALID_FIELD"));
    }

    @Test
    void aCandidateSilentForLongerThanTheRuleSaysNearTheDeadlineIsFlaggedOnceWithWhenLastHeard() {
        String examId = Fixtures.createExam(withRules(clock.instant(), 600, """
                [{"name": "gone-near-end", "kind": "OFFLINE_NEAR_DEADLINE", "offlineSeconds": 30, "lastSeconds": 120}]"""));
        Started absent = Fixtures.startFresh(examId);
        Started present = Fixtures.startFresh(examId);
        clock.advance(Duration.ofSeconds(500)); // the last 120 s began at 480: 20 s of silence in it so far
        flagger.runOnce("replica-a").await().indefinitely();
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/exams/" + examId + "/monitor").then().body("flagged", empty());
        given().auth().oauth2(present.token()).post("/api/v1/sessions/" + present.sessionId() + "/heartbeat").then().statusCode(200);
        // Earlier tests' events that the scheduled round has not taken yet would count in the sum below.
        while (flagger.runOnce("replica-a").await().indefinitely() > 0) {
        }

        clock.advance(Duration.ofSeconds(15)); // absent: 35 s of silence within the last stretch; present: 15 s
        CompletableFuture<Integer> a = flagger.runOnce("replica-a").subscribeAsCompletionStage();
        CompletableFuture<Integer> b = flagger.runOnce("replica-b").subscribeAsCompletionStage();
        CompletableFuture.allOf(a, b).join();
        // A round returns the flags it raised in every exam, other tests' (and earlier runs') included:
        // that the two replicas raised this one once is what the monitor's single flag shows.
        assertTrue(a.join() + b.join() >= 1, "raised by one of the two replicas");
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/exams/" + examId + "/monitor").then()
                .body("flagged", hasSize(1))
                .body("flagged[0].flags", hasSize(1))
                .body("flagged[0].sessionId", equalTo(absent.sessionId()))
                .body("flagged[0].flags[0].rule", equalTo("gone-near-end"))
                .body("flagged[0].flags[0].offlineSeconds", org.hamcrest.Matchers.both(org.hamcrest.Matchers.greaterThanOrEqualTo(35))
                        .and(org.hamcrest.Matchers.lessThan(60)))
                .body("flagged[0].flags[0].lastSeenAt", org.hamcrest.Matchers.notNullValue());
        String raised = redis.hash(String.class).hget(RedisKeys.flags(absent.sessionId()), "gone-near-end");
        flagger.runOnce("replica-a").await().indefinitely();
        assertEquals(raised, redis.hash(String.class).hget(RedisKeys.flags(absent.sessionId()), "gone-near-end"), "not raised again");
    }
}
