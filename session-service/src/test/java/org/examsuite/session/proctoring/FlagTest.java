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
}
