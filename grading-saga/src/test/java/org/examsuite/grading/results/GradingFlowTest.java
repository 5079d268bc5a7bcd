package org.examsuite.grading.results;

import org.examsuite.common.redis.SharedRedisDataSource;
import static io.restassured.RestAssured.given;
import static org.examsuite.grading.Fixture.awaitSaga;
import static org.examsuite.grading.Fixture.awaitStatus;
import static org.examsuite.grading.Fixture.result;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import org.examsuite.contracts.answer.QuestionType;
import org.examsuite.grading.Fixture;
import org.examsuite.grading.Fixture.Submitted;
import org.examsuite.grading.StubServices;
import org.examsuite.testing.TestKeys;
import org.examsuite.testing.TestTokens;
import org.junit.jupiter.api.Test;

/** From a stream message to a released, archived result: every question type, essays, and who may see what. */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(StubServices.class)
class GradingFlowTest {
    static final String ALL_TYPES = """
            [{"id":"q1","type":"SINGLE","prompt":"2+2?","options":["3","4"],"points":2,"key":"4"},
             {"id":"q2","type":"MULTIPLE","prompt":"Primes?","options":["2","4","5"],"points":3,"key":["2","5"]},
             {"id":"q3","type":"TRUE_FALSE","prompt":"0 is even","points":1,"key":true},
             {"id":"q4","type":"FILL","prompt":"Capital of France","points":1,"key":["Paris","Lutetia"]},
             {"id":"q5","type":"NUMERIC","prompt":"pi to 2 dp","points":1,"key":3.14,"tolerance":0.005},
             {"id":"q6","type":"MULTIPLE","prompt":"Vowels?","options":["a","b","e"],"points":2,"key":["a","e"],"scoring":"ALL_OR_NOTHING"},
             {"id":"q7","type":"NUMERIC","prompt":"ten","points":1,"key":10}]
            """;
    static final String WITH_ESSAY = """
            [{"id":"q1","type":"SINGLE","prompt":"2+2?","options":["3","4"],"points":2,"key":"4"},
             {"id":"q2","type":"ESSAY","prompt":"Explain why.","points":10}]
            """;

    @Inject
    SharedRedisDataSource redis;

    @Test
    void everyQuestionTypeIsGradedArchivedAndConfirmed() {
        String examId = Fixture.exam(ALL_TYPES, 1);
        Submitted paper = Fixture.submit(redis, examId, Map.of("q1", "4", "q2", List.of("2", "4", "5"), "q3", true,
                "q4", "  PARIS ", "q5", 3.145, "q6", List.of("a"), "q7", 10.5));

        JsonPath result = awaitStatus(paper.paperId(), "GRADED");
        // 2 + (2 right - 1 wrong)/2 * 3 + 1 + 1 + 1 + 0 (all or nothing) + 0 (outside tolerance 0)
        assertEquals(6.5, result.getDouble("score"), 1e-9);
        assertEquals(11.0, result.getDouble("maxScore"), 1e-9);
        assertEquals(1.5, result.getDouble("marks.find { it.questionId == 'q2' }.score"), 1e-9);
        assertEquals(0.0, result.getDouble("marks.find { it.questionId == 'q6' }.score"), 1e-9);
        assertEquals(1.0, result.getDouble("marks.find { it.questionId == 'q4' }.score"), 1e-9);
        assertEquals(1.0, result.getDouble("marks.find { it.questionId == 'q5' }.score"), 1e-9);
        assertNotNull(result.getString("archiveSeq"));

        JsonPath saga = awaitSaga(paper.paperId(), "COMPLETED");
        assertEquals(List.of("DONE", "DONE", "DONE"), saga.getList("steps.status"));
        assertEquals(List.of("grade", "validate", "archive"), saga.getList("steps.step"));
        // validate is read-only: its start is logged together with its end, and counted like any other
        assertEquals(List.of(1, 1, 1), saga.getList("steps.attempts"));
        assertNotNull(saga.getString("steps[1].startedAt"));
        assertEquals(List.of("CREATED", "STEP_STARTED:grade", "STEP_DONE:grade", "STEP_STARTED:validate", "STEP_DONE:validate",
                "STEP_STARTED:archive", "STEP_DONE:archive", "COMPLETED"),
                saga.getList("history.collect { it.event + (it.step ? ':' + it.step : '') }"));
        assertEquals(1, StubServices.CONFIRMATIONS.get(paper.paperId()).get());
        assertTrue(StubServices.lastAuthorization.startsWith("Bearer "), "grading-started carries a service token");
    }

    @Test
    void candidatesSeeOnlyTheirOwnResultAndOnlyOnceReleased() {
        String examId = Fixture.exam(ALL_TYPES, 1);
        Submitted paper = Fixture.submit(redis, examId, Map.of("q1", "4"));
        awaitStatus(paper.paperId(), "GRADED");
        String own = TestTokens.candidate(paper.sessionId(), examId, "c-1", 1);
        String other = TestTokens.candidate("session-other", examId, "c-2", 1);

        given().auth().oauth2(own).get("/api/v1/results/" + paper.paperId()).then().statusCode(403)
                .contentType("application/problem+json").body("code", equalTo("RESULTS_NOT_RELEASED"));
        given().auth().oauth2(TestTokens.operator()).post("/api/v1/results/exams/" + examId + "/release").then()
                .statusCode(200).body("examId", equalTo(examId)).body("releasedBy", equalTo("op-alice"));
        // releasing again is a no-op that answers the same
        given().auth().oauth2(TestTokens.operator("op-bob")).post("/api/v1/results/exams/" + examId + "/release").then()
                .statusCode(200).body("releasedBy", equalTo("op-alice"));

        given().auth().oauth2(own).get("/api/v1/results/" + paper.paperId()).then().statusCode(200)
                .body("status", equalTo("GRADED")).body("score", equalTo(2)).body("sagaId", nullValue())
                .body("marks.size()", equalTo(7));
        given().auth().oauth2(other).get("/api/v1/results/" + paper.paperId()).then().statusCode(403)
                .contentType("application/problem+json").body("code", equalTo("FORBIDDEN"));
        given().get("/api/v1/results/" + paper.paperId()).then().statusCode(401);
        given().auth().oauth2(own).post("/api/v1/results/exams/" + examId + "/release").then().statusCode(403);
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/results/no-such-paper").then().statusCode(404)
                .body("code", equalTo("RESULT_NOT_FOUND"));
    }

    @Test
    void anEssayParksTheSagaUntilAnOperatorMarksIt() {
        String examId = Fixture.exam(WITH_ESSAY, 1);
        Submitted paper = Fixture.submit(redis, examId, Map.of("q1", "4", "q2", "Because."));

        JsonPath waiting = awaitSaga(paper.paperId(), "WAITING");
        assertEquals("WAITING", waiting.getString("steps[0].status"));
        JsonPath pending = result(paper.paperId());
        assertEquals("PENDING", pending.getString("status"));
        assertNull(pending.get("marks"), "provisional marks are never shown");
        assertTrue(pending.getString("reason").contains("q2"));

        String operator = TestTokens.operator();
        given().auth().oauth2(operator).contentType("application/json").body("{\"marks\":{\"q2\":11}}")
                .post("/api/v1/results/" + paper.paperId() + "/marks").then().statusCode(400)
                .contentType("application/problem+json").body("code", equalTo("INVALID_MARK"));
        given().auth().oauth2(operator).contentType("application/json").body("{\"marks\":{\"q1\":1}}")
                .post("/api/v1/results/" + paper.paperId() + "/marks").then().statusCode(400)
                .body("code", equalTo("UNKNOWN_QUESTION"));
        given().auth().oauth2(TestTokens.candidate(paper.sessionId(), examId, "c", 1)).contentType("application/json")
                .body("{\"marks\":{\"q2\":7}}").post("/api/v1/results/" + paper.paperId() + "/marks").then().statusCode(403);
        given().auth().oauth2(operator).contentType("application/json").body("{\"marks\":{\"q2\":7.5}}")
                .post("/api/v1/results/" + paper.paperId() + "/marks").then().statusCode(202)
                .body("marks.q2", equalTo(7.5f));

        JsonPath graded = awaitStatus(paper.paperId(), "GRADED");
        assertEquals(9.5, graded.getDouble("score"), 1e-9);
        assertEquals(7.5, graded.getDouble("marks.find { it.questionId == 'q2' }.score"), 1e-9);
        // the same marks again (a retried request) change nothing; other marks now conflict
        given().auth().oauth2(operator).contentType("application/json").body("{\"marks\":{\"q2\":7.5}}")
                .post("/api/v1/results/" + paper.paperId() + "/marks").then().statusCode(202);
        given().auth().oauth2(operator).contentType("application/json").body("{\"marks\":{\"q2\":3}}")
                .post("/api/v1/results/" + paper.paperId() + "/marks").then().statusCode(409)
                .body("code", equalTo("NOT_AWAITING_MARKS"));
        JsonPath saga = awaitSaga(paper.paperId(), "COMPLETED");
        assertTrue(saga.getList("history.event").contains("WAITING"));
        assertTrue(saga.getList("history.event").contains("WOKEN"));
    }

    @Test
    void badMarksRequestsAreProblems() {
        given().auth().oauth2(TestTokens.operator()).contentType("application/json").body("{\"marks\":{}}")
                .post("/api/v1/results/p-1/marks").then().statusCode(400).contentType("application/problem+json")
                .body("code", equalTo("VALIDATION_FAILED"));
        given().auth().oauth2(TestTokens.operator()).contentType("application/json").body("{\"marks\":")
                .post("/api/v1/results/p-1/marks").then().statusCode(400).contentType("application/problem+json")
                .body("code", containsString("MALFORMED"));
    }
}
