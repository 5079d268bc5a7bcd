package org.examsuite.answer.draft;

import static io.restassured.RestAssured.given;
import static org.examsuite.answer.support.Fixtures.change;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.List;
import org.examsuite.answer.support.Fixtures;
import org.examsuite.answer.support.Fixtures.TestSession;
import org.examsuite.answer.support.SessionServiceStub;
import org.examsuite.testing.TestKeys;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The event-loop hot path ({@link AutosaveRoute}) answers exactly as the REST resource does:
 * every request here repeats one token, so after the first (verified in full) the route serves them.
 */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(SessionServiceStub.class)
class AutosaveRouteTest {
    @Inject
    Fixtures fixtures;
    @Inject
    AutosaveRoute route;
    @Inject
    Clock clock;

    @AfterEach
    void cleanUp() {
        fixtures.cleanUp();
    }

    private static ValidatableResponse patch(TestSession s, String token, String body) {
        return given().auth().oauth2(token).contentType("application/json").body(body)
                .patch("/api/v1/answers/" + s.sessionId()).then();
    }

    @Test
    void aRepeatedTokenIsServedByTheRouteWithTheSameAnswersAndProblems() {
        TestSession s = fixtures.session();
        String token = s.token();
        patch(s, token, change(3, "q4", "\"Paris\"")).statusCode(200); // verified in full, remembered
        long before = route.served();
        patch(s, token, "{\"version\": 4, \"changes\": [{\"questionId\": \"q4\", \"value\": \"Lyon \\\"x\\\"\"},"
                + " {\"questionId\": \"q2\", \"value\": [\"2\", \"5\"]}, {\"questionId\": \"q6\", \"value\": null}]}")
                .statusCode(200).contentType("application/json")
                .body("version", equalTo(4)).body("generation", equalTo(1))
                .body("applied", contains("q4", "q2", "q6")).body("stale", empty());
        patch(s, token, change(2, "q4", "\"old\"")).statusCode(200).body("version", equalTo(4))
                .body("applied", empty()).body("stale[0].questionId", equalTo("q4")).body("stale[0].heldVersion", equalTo(4));
        String draft = s.draft().extract().asString();
        List<Object[]> cases = List.of(
                new Object[] {change(0, "q4", "\"a\""), 400, "INVALID_FIELD"},
                new Object[] {"[]", 400, "INVALID_FIELD"},
                new Object[] {"", 400, "INVALID_FIELD"},
                new Object[] {"{\"version\": 11, \"changes\": [", 400, "MALFORMED_JSON"},
                new Object[] {change(11, "q99", "\"a\""), 400, "UNKNOWN_QUESTION"},
                new Object[] {change(11, "q1", "\"5\""), 400, "INVALID_ANSWER"},
                new Object[] {change(11, "q6", "\"" + "x".repeat(64 * 1024) + "\""), 413, "PAYLOAD_TOO_LARGE"});
        for (Object[] c : cases) {
            patch(s, token, (String) c[0]).statusCode((Integer) c[1]).contentType("application/problem+json")
                    .body("code", equalTo(c[2])).body("status", equalTo(c[1]));
        }
        assertEquals(draft, s.draft().extract().asString(), "bad requests change nothing");
        assertEquals(2 + cases.size(), route.served() - before, "the route served every request after the first");

        // Not JSON: left to the REST layer (415), like a token of another session (403).
        given().auth().oauth2(token).contentType("text/plain").body("x").patch("/api/v1/answers/" + s.sessionId())
                .then().statusCode(415).contentType("application/problem+json");
        TestSession other = fixtures.session();
        patch(other, token, change(1, "q4", "\"x\"")).statusCode(403).body("code", equalTo("FORBIDDEN"));
    }

    @Test
    void refusalsAndALostDraftAreAnsweredAsByTheResource() {
        TestSession s = fixtures.session();
        String token = s.token();
        patch(s, token, change(1, "q4", "\"a\"")).statusCode(200);
        long before = route.served();
        // Redis lost the draft: restored from PostgreSQL (a new generation) and applied.
        fixtures.loseDraft(s);
        patch(s, token, change(2, "q4", "\"b\"")).statusCode(200).body("generation", equalTo(2))
                .body("applied", contains("q4"));
        // Another device took over: this token's epoch is older.
        fixtures.publishState(s, 2, clock.millis() + 3_600_000, 30_000, "IN_PROGRESS");
        patch(s, token, change(3, "q4", "\"c\"")).statusCode(409).contentType("application/problem+json")
                .body("code", equalTo("SESSION_TAKEN_OVER"));
        fixtures.publishState(s, 1, clock.millis() + 3_600_000, 30_000, "SUBMITTED");
        patch(s, token, change(4, "q4", "\"d\"")).statusCode(409).body("code", equalTo("SESSION_CLOSED"));
        assertTrue(route.served() - before >= 3);
        s.draft().statusCode(200).body("answers.q4.value", equalTo("b"));
    }
}
