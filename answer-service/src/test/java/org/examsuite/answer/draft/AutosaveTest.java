package org.examsuite.answer.draft;

import static io.restassured.RestAssured.given;
import static org.examsuite.answer.support.Fixtures.change;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.examsuite.answer.support.Fixtures;
import org.examsuite.answer.support.Fixtures.TestSession;
import org.examsuite.answer.support.SessionServiceStub;
import org.examsuite.testing.TestKeys;
import org.examsuite.common.auth.Roles;
import org.examsuite.testing.TestTokens;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** PATCH and GET of docs/api.md §3.3: stamps, stale, clears, epochs, deadline, auth. */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(SessionServiceStub.class)
class AutosaveTest {
    @Inject
    Fixtures fixtures;
    @Inject
    Clock clock;

    @AfterEach
    void cleanUp() {
        fixtures.cleanUp();
    }

    @Test
    void highestStampWinsAndOlderChangesAreStale() {
        TestSession s = fixtures.session();
        s.patch("{\"version\": 3, \"changes\": [{\"questionId\": \"q4\", \"value\": \"Paris\"},"
                + " {\"questionId\": \"q2\", \"value\": [\"2\", \"5\"]}]}")
                .statusCode(200).contentType("application/json")
                .body("version", equalTo(3)).body("generation", equalTo(1))
                .body("applied", contains("q4", "q2")).body("stale", empty());
        // An older request arriving late, and a replay: both stale, with the version held.
        s.patch(change(2, "q4", "\"Lyon\"")).statusCode(200)
                .body("applied", empty()).body("stale[0].questionId", equalTo("q4")).body("stale[0].heldVersion", equalTo(3));
        s.patch(change(3, "q4", "\"Paris\"")).statusCode(200).body("applied", empty()).body("stale[0].heldVersion", equalTo(3));
        s.draft().statusCode(200)
                .body("version", equalTo(3)).body("generation", equalTo(1))
                .body("answers.q4.value", equalTo("Paris")).body("answers.q4.version", equalTo(3))
                .body("answers.q2.value", contains("2", "5"));
    }

    @Test
    void nullIsAStampedClearThatOlderValuesCannotUndo() {
        TestSession s = fixtures.session();
        s.patch(change(5, "q1", "\"4\"")).statusCode(200);
        s.patch(change(6, "q1", "null")).statusCode(200).body("applied", contains("q1")).body("version", equalTo(6));
        s.patch(change(5, "q1", "\"4\"")).statusCode(200).body("stale[0].heldVersion", equalTo(6));
        s.draft().statusCode(200).body("answers.q1.value", nullValue()).body("answers.q1.version", equalTo(6));
    }

    @Test
    void aNewerDeviceWinsWhateverItsVersionAndTheOlderOneIsTakenOver() {
        TestSession s = fixtures.session();
        s.patch(1, change(50, "q3", "true")).statusCode(200);
        fixtures.publishState(s, 2, clock.millis() + 3_600_000, 30_000, "IN_PROGRESS");
        s.patch(2, change(1, "q3", "false")).statusCode(200).body("applied", contains("q3"));
        s.patch(1, change(51, "q3", "true")).statusCode(409).contentType("application/problem+json")
                .body("code", equalTo("SESSION_TAKEN_OVER"));
        s.draft().body("answers.q3.value", equalTo(false)).body("epochs.q3", equalTo(2))
                .body("answers.q3.version", equalTo(1));
    }

    @Test
    void changesAfterTheDeadlineCountAsLateUntilGraceEndsThenTheSessionIsClosed() {
        TestSession s = fixtures.session();
        fixtures.publishState(s, 1, clock.millis() - 1_000, 60_000, "IN_PROGRESS");
        s.patch(change(1, "q4", "\"late\"")).statusCode(200).body("applied", contains("q4"));
        fixtures.publishState(s, 1, clock.millis() - 61_000, 60_000, "IN_PROGRESS");
        s.patch(change(2, "q4", "\"too late\"")).statusCode(409).contentType("application/problem+json")
                .body("code", equalTo("SESSION_CLOSED"));
        s.seal().statusCode(200).body("lateChanges", equalTo(1)).body("answers.q4.value", equalTo("late"));
    }

    @Test
    void aPausedSessionTakesAnswersWhateverTheDeadlineAndNoneCountsAsLate() {
        TestSession s = fixtures.session();
        // paused long enough that deadline + grace, as published before the pause, has passed
        fixtures.publishState(s, 1, clock.millis() - 120_000, 60_000, "PAUSED");
        s.patch(change(1, "q4", "\"during the fire alarm\"")).statusCode(200).body("applied", contains("q4"));
        s.seal().statusCode(200).body("lateChanges", equalTo(0)).body("answers.q4.value", equalTo("during the fire alarm"));
    }

    @Test
    void aSubmittedSessionIsClosed() {
        TestSession s = fixtures.session();
        fixtures.publishState(s, 1, clock.millis() + 60_000, 0, "SUBMITTED");
        s.patch(change(1, "q4", "\"x\"")).statusCode(409).body("code", equalTo("SESSION_CLOSED"));
    }

    @Test
    void versionsUpToTwoToThe53MinusOneAreExact() {
        TestSession s = fixtures.session();
        s.patch(change(9007199254740991L, "q5", "3.14")).statusCode(200).body("version", equalTo(9007199254740991L));
        s.patch(change(9007199254740990L, "q5", "2.71")).statusCode(200)
                .body("stale[0].heldVersion", equalTo(9007199254740991L));
        s.draft().body("answers.q5.value", equalTo(3.14f)).body("answers.q5.version", equalTo(9007199254740991L));
    }

    @Test
    void reviewFlagsAreADraftEntryThatConvergesByStamp() {
        TestSession s = fixtures.session();
        s.patch("{\"version\": 4, \"changes\": [{\"questionId\": \"q4\", \"value\": \"Paris\"},"
                + " {\"questionId\": \"~review\", \"value\": [\"q6\", \"q1\"]}]}")
                .statusCode(200).body("applied", contains("q4", "~review"));
        s.patch(change(3, "~review", "[]")).statusCode(200).body("stale[0].questionId", equalTo("~review"));
        s.draft().body("answers.'~review'.value", contains("q6", "q1")).body("answers.'~review'.version", equalTo(4))
                .body("epochs.'~review'", equalTo(1));
        s.patch(change(5, "~review", "null")).statusCode(200).body("applied", contains("~review"));
        s.draft().body("answers.'~review'.value", nullValue());
        // the entry holds distinct question ids of the exam; other reserved ids are no entries at all
        for (String bad : List.of("[\"q99\"]", "[\"q1\", \"q1\"]", "\"q1\"", "[1]", "true")) {
            s.patch(change(6, "~review", bad)).statusCode(400).body("code", equalTo("INVALID_ANSWER"))
                    .body("questionId", equalTo("~review"));
        }
        s.patch(change(6, "~other", "[]")).statusCode(400).body("code", equalTo("UNKNOWN_QUESTION"));
    }

    @Test
    void everyBadInputHasItsCodeAndChangesNothing() {
        TestSession s = fixtures.session();
        s.patch(change(10, "q4", "\"kept\"")).statusCode(200);
        String before = s.draft().extract().asString();
        String big = "\"" + "x".repeat(64 * 1024) + "\"";
        // 502 changes: more than an exam has questions and the review flags, whatever they name (the limit, docs/limits.md)
        String tooMany = "{\"version\": 11, \"changes\": [" + String.join(",",
                java.util.Collections.nCopies(502, "{\"questionId\": \"q4\", \"value\": \"a\"}")) + "]}";
        List<Object[]> cases = List.of(
                new Object[] {tooMany, 400, "INVALID_FIELD"},
                new Object[] {change(0, "q4", "\"a\""), 400, "INVALID_FIELD"},
                new Object[] {change(9007199254740992L, "q4", "\"a\""), 400, "INVALID_FIELD"},
                new Object[] {"{\"version\": 11.5, \"changes\": [{\"questionId\": \"q4\", \"value\": \"a\"}]}", 400, "INVALID_FIELD"},
                new Object[] {"{\"version\": \"11\", \"changes\": [{\"questionId\": \"q4\", \"value\": \"a\"}]}", 400, "INVALID_FIELD"},
                new Object[] {"{\"changes\": [{\"questionId\": \"q4\", \"value\": \"a\"}]}", 400, "INVALID_FIELD"},
                new Object[] {"{\"version\": 11}", 400, "INVALID_FIELD"},
                new Object[] {"{\"version\": 11, \"changes\": [{\"value\": \"a\"}]}", 400, "INVALID_FIELD"},
                new Object[] {"{\"version\": 11, \"changes\": [{\"questionId\": \"q4\"}]}", 400, "INVALID_FIELD"},
                new Object[] {"[]", 400, "INVALID_FIELD"},
                new Object[] {"{\"version\": 11, \"changes\": [", 400, "MALFORMED_JSON"},
                new Object[] {change(11, "q99", "\"a\""), 400, "UNKNOWN_QUESTION"},
                new Object[] {change(11, "q1", "\"5\""), 400, "INVALID_ANSWER"},
                new Object[] {change(11, "q1", "4"), 400, "INVALID_ANSWER"},
                new Object[] {change(11, "q2", "[\"2\", \"2\"]"), 400, "INVALID_ANSWER"},
                new Object[] {change(11, "q2", "\"2\""), 400, "INVALID_ANSWER"},
                new Object[] {change(11, "q3", "\"yes\""), 400, "INVALID_ANSWER"},
                new Object[] {change(11, "q4", "5"), 400, "INVALID_ANSWER"},
                new Object[] {change(11, "q5", "\"3\""), 400, "INVALID_ANSWER"},
                new Object[] {change(11, "q6", "{\"text\": \"a\"}"), 400, "INVALID_ANSWER"},
                // one bad change spoils the whole request: the good one is not applied either
                new Object[] {"{\"version\": 11, \"changes\": [{\"questionId\": \"q4\", \"value\": \"new\"},"
                        + " {\"questionId\": \"q1\", \"value\": \"7\"}]}", 400, "INVALID_ANSWER"},
                new Object[] {change(11, "q6", big), 413, "PAYLOAD_TOO_LARGE"},
                new Object[] {"{\"version\": 11, \"changes\": [{\"questionId\": \"q6\", \"value\": \"" + "y".repeat(1024 * 1024)
                        + "\"}]}", 413, "PAYLOAD_TOO_LARGE"});
        for (Object[] c : cases) {
            s.patch((String) c[0]).statusCode((Integer) c[1]).contentType("application/problem+json")
                    .body("code", equalTo(c[2])).body("status", equalTo(c[1]));
        }
        given().auth().oauth2(s.token()).contentType("text/plain").body("x").patch("/api/v1/answers/" + s.sessionId())
                .then().statusCode(415).contentType("application/problem+json");
        // an overlong '/' (C0 AF), which Jackson alone would read as '/': not UTF-8, so not JSON
        byte[] overlong = "{\"version\": 11, \"changes\": [{\"questionId\": \"q4\", \"value\": \"a\u00ff\u00ffb\"}]}"
                .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        int at = new String(overlong, java.nio.charset.StandardCharsets.ISO_8859_1).indexOf('\u00ff');
        overlong[at] = (byte) 0xC0;
        overlong[at + 1] = (byte) 0xAF;
        given().auth().oauth2(s.token()).contentType("application/json").body(overlong).patch("/api/v1/answers/" + s.sessionId())
                .then().statusCode(400).contentType("application/problem+json").body("code", equalTo("MALFORMED_JSON"));
        assertEquals(before, s.draft().extract().asString());
    }

    @Test
    void aValueJustUnderTheLimitIsAccepted() {
        TestSession s = fixtures.session();
        s.patch(change(1, "q6", "\"" + "x".repeat(64 * 1024 - 2) + "\"")).statusCode(200).body("applied", contains("q6"));
    }

    @Test
    void candidatesReachOnlyTheirOwnSessionAndOperatorsCannotWrite() {
        TestSession s = fixtures.session();
        TestSession other = fixtures.session();
        given().auth().oauth2(other.token()).contentType("application/json").body(change(1, "q4", "\"x\""))
                .patch("/api/v1/answers/" + s.sessionId()).then().statusCode(403).contentType("application/problem+json")
                .body("code", equalTo("FORBIDDEN"));
        given().auth().oauth2(TestTokens.operator()).contentType("application/json").body(change(1, "q4", "\"x\""))
                .patch("/api/v1/answers/" + s.sessionId()).then().statusCode(403);
        given().auth().oauth2(TestTokens.service(Roles.SUBMISSION_SERVICE)).contentType("application/json").body(change(1, "q4", "\"x\""))
                .patch("/api/v1/answers/" + s.sessionId()).then().statusCode(403);
        given().contentType("application/json").body(change(1, "q4", "\"x\"")).patch("/api/v1/answers/" + s.sessionId())
                .then().statusCode(401).contentType("application/problem+json");
        given().auth().oauth2(other.token()).get("/api/v1/answers/" + s.sessionId()).then().statusCode(403);
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/answers/" + s.sessionId()).then().statusCode(200)
                .body("answers", equalTo(Map.of()));
        s.draft().statusCode(200).body("answers", equalTo(Map.of()));
    }

    @Test
    void aMissingPublishedStateIsAskedForAgainFromSessionService() {
        TestSession s = new TestSession("s-" + UUID.randomUUID(), "e-" + UUID.randomUUID(), "c-9");
        fixtures.stageQuestionsForRepublish(s.examId());
        fixtures.stageForRepublish(s, 1, clock.millis() + 60_000, 0);
        s.patch(change(1, "q4", "\"x\"")).statusCode(200).body("applied", contains("q4"));

        TestSession unknown = new TestSession("s-" + UUID.randomUUID(), s.examId(), "c-8");
        unknown.patch(change(1, "q4", "\"x\"")).statusCode(404).contentType("application/problem+json")
                .body("code", equalTo("SESSION_NOT_FOUND"));
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/answers/" + unknown.sessionId()).then().statusCode(404)
                .body("code", equalTo("SESSION_NOT_FOUND"));
        TestSession unknownExam = new TestSession(unknown.sessionId(), "e-" + UUID.randomUUID(), "c-8");
        unknownExam.patch(change(1, "q4", "\"x\"")).statusCode(404).body("code", equalTo("EXAM_NOT_FOUND"));
    }

    @Test
    void autosavesAreCountedByResult() {
        TestSession s = fixtures.session();
        s.patch(change(2, "q4", "\"a\"")).statusCode(200);
        s.patch(change(1, "q4", "\"b\"")).statusCode(200);
        given().get("/q/metrics").then().statusCode(200)
                .body(containsString("exam_autosave_changes_total{result=\"applied\"}"))
                .body(containsString("exam_autosave_changes_total{result=\"stale\"}"));
    }
}
