package org.examsuite.session.exam;

import org.examsuite.common.redis.SharedRedisDataSource;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.examsuite.common.redis.RedisKeys;
import org.examsuite.session.Fixtures;
import org.examsuite.session.TestClock;
import org.examsuite.common.auth.Roles;
import org.examsuite.testing.TestTokens;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
class ExamResourceTest {
    @Inject
    TestClock clock;
    @Inject
    SharedRedisDataSource redis;

    @BeforeEach
    void resetClock() {
        clock.reset();
    }

    private Instant now() {
        return clock.instant();
    }

    private String body(String questions) {
        return """
                {"title": "t", "opensAt": "%s", "closesAt": "%s", "durationSeconds": 3600, "questions": %s}"""
                .formatted(now(), now().plus(Duration.ofHours(2)), questions);
    }

    @Test
    void operatorCreatesAndReadsAnExamWithKeys() {
        String examId = Fixtures.openExam(now());
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/exams/" + examId).then()
                .statusCode(200)
                .body("examId", equalTo(examId))
                .body("state", equalTo("OPEN"))
                .body("graceSeconds", equalTo(30))
                .body("keyRevision", equalTo(0))
                .body("questions.id", equalTo(java.util.List.of("q1", "q2", "q3", "q4", "q5", "q6")))
                .body("questions[0].key", equalTo("4"))
                .body("questions[1].scoring", equalTo("PARTIAL"))
                .body("questions[4].tolerance", equalTo(0.005f))
                .body("questions[5].key", nullValue())
                .body("createdBy", equalTo("op-alice"));
        // reading the keys is an audited action
        given().auth().oauth2(TestTokens.operator()).queryParam("examId", examId).get("/api/v1/audit").then()
                .body("entries[0].action", equalTo("exam.viewed")).body("entries[0].actor", equalTo("op-alice"));
    }

    @Test
    void questionsArePublishedWithoutKeys() {
        String examId = Fixtures.openExam(now());
        String published = redis.value(String.class).get(RedisKeys.examQuestions(examId));
        assertTrue(published.contains("\"examId\":\"" + examId + "\""), published);
        assertTrue(published.contains("{\"id\":\"q1\",\"type\":\"SINGLE\",\"options\":[\"3\",\"4\"]}"), published);
        assertFalse(published.contains("key"), published);
        assertFalse(published.contains("tolerance"), published);
        assertFalse(published.contains("prompt"), published);
        redis.key().del(RedisKeys.examQuestions(examId));

        given().auth().oauth2(TestTokens.service(Roles.ANSWER_SERVICE)).post("/internal/v1/exams/" + examId + "/publish").then().statusCode(204);
        assertTrue(redis.value(String.class).get(RedisKeys.examQuestions(examId)).contains("\"q6\""));
        given().auth().oauth2(TestTokens.service(Roles.ANSWER_SERVICE)).post("/internal/v1/exams/nope/publish").then().statusCode(404)
                .body("code", equalTo("EXAM_NOT_FOUND"));
    }

    @Test
    void wholeExamIsValidated() {
        String bad = """
                [
                 {"id": "q1", "type": "SINGLE", "prompt": "p", "options": ["a", "b"], "points": 1, "key": "c"},
                 {"id": "q1", "type": "TRUE_FALSE", "prompt": "p", "options": ["a"], "points": 1, "key": "yes"},
                 {"id": "q3", "type": "MULTIPLE", "prompt": "p", "options": ["a", "a"], "points": 1, "key": "a"},
                 {"id": "q4", "type": "NUMERIC", "prompt": "p", "points": 1, "key": "3", "scoring": "PARTIAL"},
                 {"id": "q5", "type": "ESSAY", "prompt": "p", "points": 1, "key": "x", "tolerance": 1},
                 {"id": "q6", "type": "FILL", "prompt": "p", "points": 1, "key": []},
                 {"id": "q7", "type": "SINGLE", "prompt": "p", "points": 1, "key": "a"}]""";
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON).body(body(bad)).post("/api/v1/exams").then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("code", equalTo("VALIDATION_FAILED"))
                .body("violations.field", hasItems("questions[0].key", "questions[1].id", "questions[1].options",
                        "questions[1].key", "questions[2].options", "questions[2].key", "questions[3].key",
                        "questions[3].scoring", "questions[4].key", "questions[4].tolerance", "questions[5].key",
                        "questions[6].options"));
    }

    @Test
    void windowAndDurationMustBeSane() {
        String inverted = """
                {"title": "t", "opensAt": "%s", "closesAt": "%s", "durationSeconds": 3600, "questions": %s}"""
                .formatted(now().plus(Duration.ofHours(2)), now().plus(Duration.ofHours(1)), Fixtures.exampleQuestions());
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON).body(inverted).post("/api/v1/exams").then()
                .statusCode(400).body("code", equalTo("VALIDATION_FAILED")).body("violations.field", hasItem("closesAt"));
        String past = Fixtures.examBody(now().minus(Duration.ofHours(3)), now().minus(Duration.ofHours(1)), 600);
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON).body(past).post("/api/v1/exams").then()
                .statusCode(400).body("violations.message", hasItem("must be in the future"));
        String tooLong = Fixtures.examBody(now(), now().plus(Duration.ofMinutes(30)), 3600);
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON).body(tooLong).post("/api/v1/exams").then()
                .statusCode(400).body("violations.field", hasItem("durationSeconds"));
        String noQuestions = Fixtures.examBody(now(), now().plus(Duration.ofHours(2)), 10).replace(Fixtures.exampleQuestions(), "[]");
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON).body(noQuestions).post("/api/v1/exams").then()
                .statusCode(400).body("violations.field", hasItems("questions", "durationSeconds"));
    }

    @Test
    void badInputIsProblemJson() {
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON).body("{\"title\": ").post("/api/v1/exams").then()
                .statusCode(400).contentType("application/problem+json").body("code", equalTo("MALFORMED_JSON"));
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON)
                .body(Fixtures.examBody(now(), now().plus(Duration.ofHours(2)), 600)
                        .replace("\"durationSeconds\": 600", "\"durationSeconds\": \"ten\""))
                .post("/api/v1/exams").then()
                .statusCode(400).contentType("application/problem+json").body("code", equalTo("INVALID_FIELD"))
                .body("field", equalTo("durationSeconds"));
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON)
                .body(body("[{\"id\": \"q1\", \"type\": \"DRAWING\", \"prompt\": \"p\", \"points\": 1}]"))
                .post("/api/v1/exams").then()
                .statusCode(400).body("code", equalTo("INVALID_FIELD")).body("field", equalTo("questions[0].type"));
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON)
                .body("{\"opensAt\": \"yesterday\"}").post("/api/v1/exams").then()
                .statusCode(400).body("code", equalTo("INVALID_FIELD")).body("field", equalTo("opensAt"));
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON).body("{}").post("/api/v1/exams").then()
                .statusCode(400).body("code", equalTo("VALIDATION_FAILED"))
                .body("violations.field", hasItems("title", "opensAt", "closesAt", "durationSeconds", "questions"));
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON).body(body("[" + "{\"id\": \"q\", \"type\": \"ESSAY\", \"prompt\": \"" + "x".repeat(20001) + "\", \"points\": 1}]"))
                .post("/api/v1/exams").then()
                .statusCode(400).body("violations.field", hasItem("questions[0].prompt"));
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON).body("{\"title\": \"" + "x".repeat(1_100_000) + "\"}")
                .post("/api/v1/exams").then()
                .statusCode(413).contentType("application/problem+json").body("code", equalTo("PAYLOAD_TOO_LARGE"));
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.TEXT).body("hello").post("/api/v1/exams").then()
                .statusCode(415).contentType("application/problem+json");
        given().auth().oauth2(TestTokens.operator()).put("/api/v1/exams/x").then()
                .statusCode(405).contentType("application/problem+json").body("code", equalTo("METHOD_NOT_ALLOWED"));
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/exams/" + UUID.randomUUID()).then()
                .statusCode(404).contentType("application/problem+json").body("code", equalTo("EXAM_NOT_FOUND"));
    }

    @Test
    void onlyOperatorsCreateAndRead() {
        String examId = Fixtures.openExam(now());
        given().contentType(ContentType.JSON).body("{}").post("/api/v1/exams").then()
                .statusCode(401).contentType("application/problem+json").body("code", equalTo("UNAUTHORIZED"));
        given().auth().oauth2(TestTokens.candidate("s", examId, "c", 1)).get("/api/v1/exams/" + examId).then()
                .statusCode(403).contentType("application/problem+json");
        given().auth().oauth2(TestTokens.service(Roles.GRADING_SAGA)).get("/api/v1/exams/" + examId).then().statusCode(403);
        for (String forged : new String[] {TestTokens.unsignedOperator(), TestTokens.strangerOperator(),
                TestTokens.wrongIssuerOperator(), TestTokens.garbage()}) {
            given().auth().oauth2(forged).get("/api/v1/exams/" + examId).then().statusCode(401)
                    .body("code", equalTo("UNAUTHORIZED"));
        }
    }

    @Test
    void internalReadHasKeysAndRevisionForServicesOnly() {
        String examId = Fixtures.openExam(now());
        given().auth().oauth2(TestTokens.service(Roles.GRADING_SAGA)).get("/internal/v1/exams/" + examId).then()
                .statusCode(200).body("questions[2].key", equalTo(true)).body("keyRevision", equalTo(0));
        given().auth().oauth2(TestTokens.operator()).get("/internal/v1/exams/" + examId).then().statusCode(403)
                .contentType("application/problem+json");
        given().auth().oauth2(TestTokens.candidate("s", examId, "c", 1)).get("/internal/v1/exams/" + examId).then()
                .statusCode(403);
        given().auth().oauth2(TestTokens.operatorClaimingService()).get("/internal/v1/exams/" + examId).then().statusCode(403);
        given().auth().oauth2(TestTokens.serviceSignedWithCandidateKey()).get("/internal/v1/exams/" + examId).then().statusCode(401);
        given().get("/internal/v1/exams/" + examId).then().statusCode(401).contentType("application/problem+json");
        given().auth().oauth2(TestTokens.service(Roles.GRADING_SAGA)).get("/internal/v1/exams/" + UUID.randomUUID()).then().statusCode(404)
                .body("code", equalTo("EXAM_NOT_FOUND"));
    }

    @Test
    void idempotencyKeyMakesCreateSafeToRetry() {
        String key = UUID.randomUUID().toString();
        String body = Fixtures.examBody(now(), now().plus(Duration.ofHours(2)), 600);
        String examId = given().auth().oauth2(TestTokens.operator()).header("Idempotency-Key", key).contentType(ContentType.JSON)
                .body(body).post("/api/v1/exams").then().statusCode(201).header("Idempotent-Replayed", nullValue())
                .extract().path("examId");
        given().auth().oauth2(TestTokens.operator()).header("Idempotency-Key", key).contentType(ContentType.JSON)
                .body(body).post("/api/v1/exams").then().statusCode(200).header("Idempotent-Replayed", "true")
                .body("examId", equalTo(examId));
        given().auth().oauth2(TestTokens.operator()).header("Idempotency-Key", key).contentType(ContentType.JSON)
                .body(body.replace("Algebra mock", "Other")).post("/api/v1/exams").then().statusCode(422)
                .contentType("application/problem+json").body("code", equalTo("IDEMPOTENCY_KEY_REUSED"));
        // keys are per operator
        given().auth().oauth2(TestTokens.operator("op-bob")).header("Idempotency-Key", key).contentType(ContentType.JSON)
                .body(body).post("/api/v1/exams").then().statusCode(201).body("examId", not(equalTo(examId)));
    }

    @Test
    void keyCorrectionChangesOnlyTheKeyAndIsAudited() {
        String examId = Fixtures.openExam(now());
        given().auth().oauth2(TestTokens.operator("op-carol")).contentType(ContentType.JSON)
                .body("{\"questionId\": \"q1\", \"key\": \"3\"}")
                .post("/api/v1/exams/" + examId + "/key-corrections").then()
                .statusCode(200).body("keyRevision", equalTo(1)).body("questions[0].key", equalTo("3"))
                .body("questions[0].options", equalTo(java.util.List.of("3", "4")));
        // the same correction again changes nothing
        given().auth().oauth2(TestTokens.operator("op-carol")).contentType(ContentType.JSON)
                .body("{\"questionId\": \"q1\", \"key\": \"3\"}")
                .post("/api/v1/exams/" + examId + "/key-corrections").then().statusCode(200).body("keyRevision", equalTo(1));
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON)
                .body("{\"questionId\": \"q5\", \"key\": 3.1416, \"tolerance\": 0.001}")
                .post("/api/v1/exams/" + examId + "/key-corrections").then()
                .statusCode(200).body("keyRevision", equalTo(2)).body("questions[4].tolerance", equalTo(0.001f));
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON)
                .body("{\"questionId\": \"q1\", \"key\": \"5\"}")
                .post("/api/v1/exams/" + examId + "/key-corrections").then()
                .statusCode(400).body("code", equalTo("VALIDATION_FAILED")).body("violations[0].field", equalTo("key"));
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON)
                .body("{\"questionId\": \"q9\", \"key\": \"5\"}")
                .post("/api/v1/exams/" + examId + "/key-corrections").then()
                .statusCode(404).body("code", equalTo("QUESTION_NOT_FOUND"));
        given().auth().oauth2(TestTokens.service(Roles.GRADING_SAGA)).get("/internal/v1/exams/" + examId).then()
                .body("keyRevision", equalTo(2)).body("questions[0].key", equalTo("3"));

        given().auth().oauth2(TestTokens.operator()).queryParam("examId", examId).get("/api/v1/audit").then()
                .statusCode(200)
                .body("entries.action", equalTo(java.util.List.of("exam.key-corrected", "exam.key-corrected", "exam.created")))
                .body("entries[1].actor", equalTo("op-carol"))
                .body("entries[1].detail.oldKey", equalTo("4"))
                .body("entries[1].detail.newKey", equalTo("3"))
                .body("entries[1].at", notNullValue())
                .body("entries[2].actor", equalTo("op-alice"));
        given().auth().oauth2(TestTokens.candidate("s", examId, "c", 1)).get("/api/v1/audit").then().statusCode(403);
        given().auth().oauth2(TestTokens.operator()).queryParam("limit", 0).get("/api/v1/audit").then().statusCode(400)
                .body("code", equalTo("VALIDATION_FAILED"));
    }

    @Test
    void examCreationIsAudited() {
        String examId = Fixtures.openExam(now());
        given().auth().oauth2(TestTokens.operator()).queryParam("examId", examId).get("/api/v1/audit").then()
                .statusCode(200).body("entries[0].action", equalTo("exam.created"))
                .body("entries[0].examId", equalTo(examId))
                .body("entries[0].detail.title", containsString("Algebra"));
    }
}
