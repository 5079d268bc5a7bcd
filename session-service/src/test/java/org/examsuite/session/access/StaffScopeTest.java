package org.examsuite.session.access;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.examsuite.session.Fixtures;
import org.examsuite.session.SubmissionStub;
import org.examsuite.testing.TestKeys;
import org.examsuite.testing.TestTokens;
import org.junit.jupiter.api.Test;

/**
 * Staff reach exams in scope only (docs/api.md §4.2): an exam belongs to its author's organisation; admins and
 * authors reach their organisation's exams, proctors and graders the exams assigned to them; out of scope is 404, a
 * role the operation does not allow is 403.
 */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(SubmissionStub.class)
class StaffScopeTest {
    private static final String ORG = "org-scope-a";
    private static final String OTHER = "org-scope-b";

    private static String createAs(String token) {
        Instant now = Instant.now();
        return given().auth().oauth2(token).contentType(ContentType.JSON)
                .body(Fixtures.examBody(now.minus(Duration.ofHours(1)), now.plus(Duration.ofHours(2)), 3600))
                .post("/api/v1/exams").then().statusCode(201).extract().path("examId");
    }

    @Test
    void anExamBelongsToItsAuthorsOrganisation() {
        String examId = createAs(TestTokens.staff("author", ORG));
        given().auth().oauth2(TestTokens.staff("author", ORG)).get("/api/v1/exams/" + examId).then().statusCode(200);
        given().auth().oauth2(TestTokens.staff("admin", ORG)).get("/api/v1/exams/" + examId).then().statusCode(200);
        given().auth().oauth2(TestTokens.staff("author", OTHER)).get("/api/v1/exams/" + examId).then().statusCode(404)
                .body("code", equalTo("EXAM_NOT_FOUND"));
        given().auth().oauth2(TestTokens.staff("admin", OTHER)).get("/api/v1/exams/" + examId).then().statusCode(404);
        given().auth().oauth2(TestTokens.staff("proctor", ORG)).get("/api/v1/exams/" + examId).then().statusCode(404);
        given().auth().oauth2(TestTokens.staff("proctor", ORG, examId)).get("/api/v1/exams/" + examId).then().statusCode(200)
                .body("questions.size()", equalTo(6)).body("questions.key", everyItem(nullValue())); // proctors run sessions: no keys
        given().auth().oauth2(TestTokens.staff("grader", ORG, examId)).get("/api/v1/exams/" + examId).then().statusCode(200)
                .body("questions[0].key", equalTo("4"));
        given().auth().oauth2(TestTokens.staff("author", ORG)).get("/api/v1/exams/" + examId).then()
                .body("questions[0].key", equalTo("4"));
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/exams/" + examId).then().statusCode(200);
    }

    @Test
    void proctorsRunTheSessionsOfTheirAssignedExamsAndGradersDoNot() {
        String examId = createAs(TestTokens.staff("author", ORG));
        Fixtures.Started session = Fixtures.startFresh(examId);
        String path = "/api/v1/sessions/" + session.sessionId();
        given().auth().oauth2(TestTokens.staff("proctor", ORG, "another-exam")).post(path + "/pause").then().statusCode(404)
                .body("code", equalTo("SESSION_NOT_FOUND"));
        given().auth().oauth2(TestTokens.staff("grader", ORG, examId)).post(path + "/pause").then().statusCode(403);
        given().auth().oauth2(TestTokens.staff("author", ORG)).post(path + "/pause").then().statusCode(403);
        given().auth().oauth2(TestTokens.staff("proctor", ORG, examId)).post(path + "/pause").then().statusCode(200)
                .body("status", equalTo("PAUSED"));
        given().auth().oauth2(TestTokens.staff("admin", ORG)).post(path + "/resume").then().statusCode(200);
        given().auth().oauth2(TestTokens.staff("admin", OTHER)).get(path).then().statusCode(404);
        given().auth().oauth2(TestTokens.staff("proctor", ORG, examId)).get("/api/v1/exams/" + examId + "/sessions")
                .then().statusCode(200);
        given().auth().oauth2(TestTokens.staff("proctor", OTHER)).contentType(ContentType.JSON).header("Idempotency-Key", "k1")
                .body(Map.of("minutes", 5)).post("/api/v1/exams/" + examId + "/extend").then().statusCode(404);
    }

    @Test
    void listsAndTheAuditLogShowOnlyWhatIsInScope() {
        String examId = createAs(TestTokens.staff("author", ORG));
        given().auth().oauth2(TestTokens.staff("author", ORG)).get("/api/v1/exams?limit=200").then().statusCode(200)
                .body("exams.examId", hasItem(examId));
        given().auth().oauth2(TestTokens.staff("author", OTHER)).get("/api/v1/exams?limit=200").then().statusCode(200)
                .body("exams.examId", not(hasItem(examId)));
        given().auth().oauth2(TestTokens.staff("grader", OTHER, examId)).get("/api/v1/exams?limit=200").then().statusCode(200)
                .body("exams.examId", hasItem(examId));
        given().auth().oauth2(TestTokens.staff("admin", ORG)).get("/api/v1/audit?examId=" + examId).then().statusCode(200)
                .body("entries.action", hasItem("exam.created"))
                .body("entries.actor", hasItem("author of " + ORG + " <author@" + ORG + ">")); // the person, by name and subject
        given().auth().oauth2(TestTokens.staff("admin", OTHER)).get("/api/v1/audit?examId=" + examId).then().statusCode(200)
                .body("entries.size()", equalTo(0));
        given().auth().oauth2(TestTokens.staff("proctor", ORG, examId)).get("/api/v1/audit").then().statusCode(403);
    }
}
