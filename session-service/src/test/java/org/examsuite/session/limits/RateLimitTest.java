package org.examsuite.session.limits;

import org.examsuite.common.redis.SharedRedisDataSource;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import org.examsuite.common.redis.RedisKeys;
import org.examsuite.session.Fixtures;
import org.examsuite.session.Fixtures.Started;
import org.examsuite.session.TestClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The per-minute limits of session-service's candidate doors: 429 RATE_LIMITED naming the limit, with Retry-After. */
@QuarkusTest
@TestProfile(RateLimitTest.LowLimits.class)
class RateLimitTest {
    public static class LowLimits implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("exam.limits.events-per-minute", "5", "exam.limits.heartbeats-per-minute", "3",
                    "exam.limits.starts-per-minute-per-candidate", "3", "exam.limits.starts-per-minute-per-source", "6");
        }
    }

    @Inject
    TestClock clock;
    @Inject
    SharedRedisDataSource redis;

    /** Each test starts at the beginning of a window (the service's clock moved there), so it does not straddle two. */
    @BeforeEach
    void atTheStartOfAWindow() {
        clock.reset();
        clock.advance(Duration.ofMillis(RequestRates.WINDOW_MS - clock.millis() % RequestRates.WINDOW_MS + 200));
        forgetSource();
    }

    @AfterEach
    void forgetSource() {
        long window = clock.millis() / RequestRates.WINDOW_MS;
        for (long w = window - 2; w <= window + 2; w++) {
            redis.key().del(RedisKeys.subjectRate("starts-src", "127.0.0.1", w));
        }
    }

    private static ValidatableResponse limited(ValidatableResponse response, String limit, int perMinute) {
        response.statusCode(429).contentType("application/problem+json").body("code", equalTo("RATE_LIMITED"))
                .body("limit", equalTo(limit)).body("perMinute", equalTo(perMinute));
        int retryAfter = Integer.parseInt(response.extract().header("Retry-After"));
        assertTrue(retryAfter >= 1 && retryAfter <= 60, "Retry-After " + retryAfter + " is the rest of the window");
        return response;
    }

    private static ValidatableResponse events(Started s, int count, String prefix) {
        StringBuilder body = new StringBuilder("{\"events\": [");
        for (int i = 0; i < count; i++) {
            body.append(i == 0 ? "" : ",").append("{\"eventId\": \"").append(prefix).append(i)
                    .append("\", \"type\": \"TAB_HIDDEN\", \"at\": \"2026-12-02T08:31:05Z\"}");
        }
        return given().auth().oauth2(s.token()).contentType(ContentType.JSON).body(body.append("]}").toString())
                .post("/api/v1/sessions/" + s.sessionId() + "/events").then();
    }

    private static ValidatableResponse heartbeat(Started s) {
        return given().auth().oauth2(s.token()).post("/api/v1/sessions/" + s.sessionId() + "/heartbeat").then();
    }

    @Test
    void eventsAreCountedPerEventAndPerSession() {
        String examId = Fixtures.openExam(clock.instant());
        Started s = Fixtures.startFresh(examId);
        Started other = Fixtures.startFresh(examId);
        events(s, 3, "a").statusCode(202);
        limited(events(s, 3, "b"), "events", 5);
        events(other, 5, "a").statusCode(202);
        clock.advance(Duration.ofMinutes(1));
        events(s, 2, "c").statusCode(202);
    }

    @Test
    void heartbeatsBeyondTheLimitAreRefusedUntilTheNextWindow() {
        String examId = Fixtures.openExam(clock.instant());
        Started s = Fixtures.startFresh(examId);
        Started other = Fixtures.startFresh(examId);
        for (int i = 0; i < 3; i++) {
            heartbeat(s).statusCode(200);
        }
        limited(heartbeat(s), "heartbeats", 3);
        heartbeat(other).statusCode(200);
        clock.advance(Duration.ofMinutes(1));
        heartbeat(s).statusCode(200);
    }

    @Test
    void startsArePerCandidateWithTheRightCodeOnly() {
        String examId = Fixtures.openExam(clock.instant());
        Started s = Fixtures.startFresh(examId);
        // wrong codes are the access throttle's, not this limit's: someone else's guesses use none of it
        // (one: this profile's per-source limit, 6, counts every attempt of the test)
        Fixtures.start(examId, s.candidateId(), "wrong-code").then().statusCode(401);
        Fixtures.start(examId, s.candidateId(), s.accessCode()).then().statusCode(200);
        Fixtures.start(examId, s.candidateId(), s.accessCode()).then().statusCode(200);
        limited(Fixtures.start(examId, s.candidateId(), s.accessCode()).then(), "starts-per-candidate", 3);
        Fixtures.startFresh(examId); // another candidate starts
    }

    @Test
    void startsArePerSourceWhenThatLimitIsOn() {
        String examId = Fixtures.openExam(clock.instant());
        String[] candidates = new String[7];
        for (int i = 0; i < candidates.length; i++) {
            candidates[i] = Fixtures.newCandidateId();
        }
        java.util.List<String> codes = Fixtures.enroll(examId, candidates);
        for (int i = 0; i < 6; i++) {
            Fixtures.start(examId, candidates[i], codes.get(i)).then().statusCode(201);
        }
        limited(Fixtures.start(examId, candidates[6], codes.get(6)).then(), "starts-per-source", 6);
    }
}
