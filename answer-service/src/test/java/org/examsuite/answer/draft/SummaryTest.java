package org.examsuite.answer.draft;

import static io.restassured.RestAssured.given;
import static org.examsuite.answer.support.Fixtures.change;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.Map;
import org.examsuite.answer.support.Fixtures;
import org.examsuite.answer.support.Fixtures.TestSession;
import org.examsuite.answer.support.SessionServiceStub;
import org.examsuite.common.redis.RedisKeys;
import org.examsuite.common.redis.SharedRedisDataSource;
import org.examsuite.testing.TestKeys;
import org.examsuite.common.auth.Roles;
import org.examsuite.testing.TestTokens;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code POST /internal/v1/answers/summary}: the roster's answered count and last save, kept by autosave.lua. */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(SessionServiceStub.class)
class SummaryTest {
    @Inject
    Fixtures fixtures;
    @Inject
    SharedRedisDataSource redis;

    @AfterEach
    void cleanUp() {
        fixtures.cleanUp();
    }

    private static ValidatableResponse summary(String... sessionIds) {
        return given().auth().oauth2(TestTokens.service(Roles.SESSION_SERVICE)).contentType("application/json")
                .body(Map.of("sessionIds", java.util.List.of(sessionIds))).post("/internal/v1/answers/summary").then()
                .log().ifValidationFails().statusCode(200).contentType("application/json");
    }

    @Test
    void answeredCountsValuesNotClearedAndLastSaveIsTheLastAppliedChange() {
        TestSession a = fixtures.session();
        TestSession untouched = fixtures.session();
        long before = Instant.now().toEpochMilli();
        a.patch("{\"version\": 2, \"changes\": [{\"questionId\": \"q4\", \"value\": \"Paris\"}, {\"questionId\": \"q1\", \"value\": \"4\"}]}")
                .statusCode(200);
        summary(a.sessionId(), untouched.sessionId())
                .body("summaries." + a.sessionId() + ".answered", equalTo(2))
                .body("summaries." + a.sessionId() + ".lastSavedAt", Matchers.notNullValue())
                .body("summaries", Matchers.not(Matchers.hasKey(untouched.sessionId())));
        String saved = summary(a.sessionId()).extract().path("summaries." + a.sessionId() + ".lastSavedAt");
        org.junit.jupiter.api.Assertions.assertTrue(Instant.parse(saved).toEpochMilli() >= before - 1000, saved);

        a.patch(change(3, "q4", "null")).statusCode(200); // cleared: no longer answered
        a.patch(change(1, "q1", "\"3\"")).statusCode(200); // stale: changes nothing
        a.patch(change(4, "q4", "null")).statusCode(200); // cleared again: still not answered
        summary(a.sessionId()).body("summaries." + a.sessionId() + ".answered", equalTo(1));
        a.patch(change(5, "q6", "\"an essay\"")).statusCode(200);
        summary(a.sessionId()).body("summaries." + a.sessionId() + ".answered", equalTo(2));
        a.patch(change(6, "~review", "[\"q1\"]")).statusCode(200); // the review flags are not an answer
        summary(a.sessionId()).body("summaries." + a.sessionId() + ".answered", equalTo(2));
    }

    @Test
    void aDraftFromBeforeTheCountIsCountedAndARestoredOneCountsItsAnswers() {
        TestSession legacy = fixtures.session();
        // a draft an older release wrote: no n, no at
        redis.hash(String.class).hset(RedisKeys.draft(legacy.sessionId()), Map.of("gen", "1", "ver", "3", "rev", "2", "prev", "0",
                "exam", legacy.examId(), "a:q1", "1:3:1:\"4\"", "a:q2", "1:2:2:null", "a:q4", "1:1:1:\"Lyon\"",
                "a:~review", "1:2:1:[\"q4\"]"));
        summary(legacy.sessionId()).body("summaries." + legacy.sessionId() + ".answered", equalTo(2))
                .body("summaries." + legacy.sessionId() + ".lastSavedAt", nullValue());
        legacy.patch(change(7, "q3", "true")).statusCode(200);
        summary(legacy.sessionId()).body("summaries." + legacy.sessionId() + ".answered", equalTo(3));
        org.junit.jupiter.api.Assertions.assertEquals("3", redis.hash(String.class).hget(RedisKeys.draft(legacy.sessionId()), "n"));

        TestSession lost = fixtures.session();
        lost.patch(change(2, "q4", "\"Paris\"")).statusCode(200);
        lost.patch(change(3, "q6", "\"kept\"")).statusCode(200);
        lost.seal().statusCode(200);
        fixtures.loseDraft(lost);
        summary(lost.sessionId()).body("summaries", Matchers.anEmptyMap()); // not in Redis: not known here
        lost.seal().statusCode(200); // restored from PostgreSQL
        summary(lost.sessionId()).body("summaries." + lost.sessionId() + ".answered", equalTo(2));
    }

    @Test
    void onlyServicesAskAndBadListsAreRefused() {
        TestSession s = fixtures.session();
        String one = "{\"sessionIds\":[\"" + s.sessionId() + "\"]}";
        given().auth().oauth2(s.token()).contentType("application/json").body(one).post("/internal/v1/answers/summary")
                .then().statusCode(403).contentType("application/problem+json");
        given().auth().oauth2(TestTokens.operator()).contentType("application/json").body(one).post("/internal/v1/answers/summary")
                .then().statusCode(403);
        StringBuilder tooMany = new StringBuilder("{\"sessionIds\":[");
        for (int i = 0; i <= SummaryResource.MAX_SESSIONS; i++) {
            tooMany.append(i == 0 ? "" : ",").append("\"s-").append(i).append('"');
        }
        for (String body : java.util.List.of("{\"sessionIds\":[]}", "{}", "{\"sessionIds\":[1]}", "{\"sessionIds\":[\"a/b\"]}",
                tooMany + "]}")) {
            given().auth().oauth2(TestTokens.service(Roles.SESSION_SERVICE)).contentType("application/json").body(body)
                    .post("/internal/v1/answers/summary").then().statusCode(400).contentType("application/problem+json")
                    .body("code", equalTo("INVALID_FIELD"));
        }
    }
}
