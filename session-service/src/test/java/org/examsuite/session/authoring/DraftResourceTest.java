package org.examsuite.session.authoring;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.examsuite.session.Fixtures;
import org.examsuite.session.TestClock;
import org.examsuite.testing.TestTokens;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Drafts through the API: create, edit under If-Match, publish, freeze, duplicate, delete — and who reaches them. */
@QuarkusTest
class DraftResourceTest {
    private static final String MERGE_PATCH = "application/merge-patch+json";

    @Inject
    TestClock clock;
    @Inject
    ExamDraftRepository drafts;

    private final String author = TestTokens.staff("author", "org-drafts");

    @BeforeEach
    void resetClock() {
        clock.reset();
    }

    private Response createDraft(String token, String body) {
        return given().auth().oauth2(token).contentType(ContentType.JSON).body(body).post("/api/v1/exams");
    }

    private String windowAndQuestions() {
        Instant now = clock.instant();
        return """
                {"opensAt": "%s", "closesAt": "%s", "durationSeconds": 3600, "questions": %s}"""
                .formatted(now.minus(Duration.ofMinutes(5)), now.plus(Duration.ofHours(2)), Fixtures.exampleQuestions());
    }

    private Response patch(String examId, String etag, String body) {
        var request = given().auth().oauth2(author).contentType(MERGE_PATCH).body(body);
        if (etag != null) {
            request.header("If-Match", etag);
        }
        return request.patch("/api/v1/exams/" + examId);
    }

    @Test
    void anAuthorWritesADraftInStepsAndPublishesIt() {
        Response created = createDraft(author, "{\"state\": \"DRAFT\", \"title\": \"Optics\"}");
        created.then().statusCode(201).header("ETag", "\"0\"")
                .body("state", equalTo("DRAFT")).body("title", equalTo("Optics")).body("createdBy", equalTo("author of org-drafts <author@org-drafts>"));
        String examId = created.path("examId");

        // read back with its ETag; a proctor, or an author of another organisation, does not see it
        given().auth().oauth2(author).get("/api/v1/exams/" + examId).then()
                .statusCode(200).header("ETag", "\"0\"").body("state", equalTo("DRAFT")).body("title", equalTo("Optics"));
        given().auth().oauth2(TestTokens.staff("author", "org-other")).get("/api/v1/exams/" + examId).then()
                .statusCode(404).body("code", equalTo("EXAM_NOT_FOUND"));
        given().auth().oauth2(TestTokens.staff("proctor", "org-drafts", examId)).get("/api/v1/exams/" + examId).then()
                .statusCode(404).body("code", equalTo("EXAM_NOT_FOUND"));

        // an incomplete draft is not published, and stays a draft
        given().auth().oauth2(author).post("/api/v1/exams/" + examId + "/publish").then()
                .statusCode(400).contentType("application/problem+json").body("code", equalTo("VALIDATION_FAILED"))
                .body("violations.field", hasItems("opensAt", "closesAt", "durationSeconds", "questions"));
        given().auth().oauth2(author).get("/api/v1/exams/" + examId).then().statusCode(200).body("state", equalTo("DRAFT"));

        // edits: If-Match required, a stale one refused with the current ETag, a current one applied
        patch(examId, null, windowAndQuestions()).then()
                .statusCode(428).contentType("application/problem+json").body("code", equalTo("PRECONDITION_REQUIRED"));
        patch(examId, "\"7\"", windowAndQuestions()).then()
                .statusCode(412).body("code", equalTo("PRECONDITION_FAILED")).header("ETag", "\"0\"");
        patch(examId, "\"0\"", windowAndQuestions()).then()
                .statusCode(200).header("ETag", "\"1\"").body("questions.id", hasItems("q1", "q6")).body("title", equalTo("Optics"));
        // the same edit retried with the ETag it was sent with changes nothing: 200, not 412
        patch(examId, "\"1\"", "{\"title\": \"Optics, mock\", \"graceSeconds\": 60}").then().statusCode(200).header("ETag", "\"2\"");
        patch(examId, "\"1\"", "{\"title\": \"Optics, mock\", \"graceSeconds\": 60}").then()
                .statusCode(200).header("ETag", "\"2\"").body("graceSeconds", equalTo(60));
        // null removes a member; a member an exam does not have, or of the wrong shape, is refused
        patch(examId, "\"2\"", "{\"graceSeconds\": null}").then().statusCode(200).body("graceSeconds", equalTo(null));
        patch(examId, "\"3\"", "{\"titel\": \"typo\"}").then().statusCode(400).body("code", equalTo("INVALID_FIELD")).body("field", equalTo("titel"));
        patch(examId, "\"3\"", "{\"durationSeconds\": \"long\"}").then().statusCode(400).body("code", equalTo("INVALID_FIELD"))
                .body("field", equalTo("durationSeconds"));

        // published: checked as POST /api/v1/exams checks, then an exam candidates can start
        given().auth().oauth2(author).header("If-Match", "\"2\"").post("/api/v1/exams/" + examId + "/publish").then()
                .statusCode(412).body("code", equalTo("PRECONDITION_FAILED"));
        given().auth().oauth2(author).header("If-Match", "\"3\"").post("/api/v1/exams/" + examId + "/publish").then()
                .statusCode(200).body("examId", equalTo(examId)).body("state", equalTo("OPEN")).body("title", equalTo("Optics, mock"))
                .body("graceSeconds", equalTo(30)).body("questions[0].key", equalTo("4"));
        // again: the same answer (a retry after a lost response)
        given().auth().oauth2(author).post("/api/v1/exams/" + examId + "/publish").then().statusCode(200).body("state", equalTo("OPEN"));
        Fixtures.Started started = Fixtures.startFresh(examId);
        assertNotEquals(null, started.sessionId());

        // frozen: edits and deletion refused, the exam as it was
        patch(examId, "\"4\"", "{\"title\": \"changed\"}").then()
                .statusCode(409).contentType("application/problem+json").body("code", equalTo("EXAM_PUBLISHED"));
        given().auth().oauth2(author).delete("/api/v1/exams/" + examId).then().statusCode(409).body("code", equalTo("EXAM_PUBLISHED"));
        given().auth().oauth2(author).get("/api/v1/exams/" + examId).then().statusCode(200).body("title", equalTo("Optics, mock"));

        given().auth().oauth2(TestTokens.operator()).queryParam("examId", examId).get("/api/v1/audit").then()
                .statusCode(200).body("entries.action", hasItems("exam.draft-created", "exam.draft-edited", "exam.published"))
                .body("entries.findAll { it.action == 'exam.draft-edited' }.detail.fields.flatten()", hasItems("title", "questions"));
    }

    /** Two authors edit the same version at once: one edit lands, the other is told the draft changed — never both. */
    @Test
    void ofTwoEditsOfTheSameVersionOneLandsAndTheOtherIsRefused() throws Exception {
        for (int round = 0; round < 5; round++) {
            String examId = createDraft(author, "{\"state\": \"DRAFT\", \"title\": \"Race\"}").then().extract().path("examId");
            java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
            try {
                List<java.util.concurrent.Future<Integer>> edits = new java.util.ArrayList<>();
                for (String title : List.of("A", "B")) {
                    edits.add(pool.submit(() -> {
                        go.await();
                        return patch(examId, "\"0\"", "{\"title\": \"" + title + "\"}").statusCode();
                    }));
                }
                go.countDown();
                List<Integer> statuses = new java.util.ArrayList<>();
                for (var edit : edits) {
                    statuses.add(edit.get());
                }
                statuses.sort(null);
                assertEquals(List.of(200, 412), statuses, "round " + round);
                given().auth().oauth2(author).get("/api/v1/exams/" + examId).then().statusCode(200).header("ETag", "\"1\"");
            } finally {
                pool.shutdownNow();
            }
        }
    }

    /** Publishing is three steps (freeze, make the exam, mark it published): a retry finishes one cut short after either. */
    @Test
    void aPublicationCutShortIsFinishedByARetry() throws Throwable {
        String examId = createDraft(author, "{\"state\": \"DRAFT\", \"title\": \"Cut\"}").then().extract().path("examId");
        patch(examId, "\"0\"", windowAndQuestions()).then().statusCode(200);
        // cut after the freeze: no exam yet, edits refused, a retry publishes
        setState(examId, DraftState.PUBLISHING);
        patch(examId, "\"2\"", "{\"title\": \"late\"}").then().statusCode(409).body("code", equalTo("EXAM_PUBLISHED"));
        given().auth().oauth2(author).get("/api/v1/exams/" + examId).then().statusCode(200).body("state", equalTo("PUBLISHING"));
        given().auth().oauth2(author).post("/api/v1/exams/" + examId + "/publish").then().statusCode(200).body("state", equalTo("OPEN"));
        assertEquals(DraftState.PUBLISHED, stateOf(examId));
        // cut after the exam was made: a retry only marks the draft — even once the window has passed
        setState(examId, DraftState.PUBLISHING);
        clock.advance(Duration.ofHours(3));
        given().auth().oauth2(author).post("/api/v1/exams/" + examId + "/publish").then().statusCode(200)
                .body("title", equalTo("Cut")).body("state", equalTo("CLOSED"));
        assertEquals(DraftState.PUBLISHED, stateOf(examId));
    }

    /** A frozen draft that no longer passes the checks (its window ended meanwhile) goes back to being a draft. */
    @Test
    void aFrozenDraftThatNoLongerPassesIsADraftAgain() throws Throwable {
        String examId = createDraft(author, "{\"state\": \"DRAFT\", \"title\": \"Late\"}").then().extract().path("examId");
        patch(examId, "\"0\"", windowAndQuestions()).then().statusCode(200);
        setState(examId, DraftState.PUBLISHING);
        clock.advance(Duration.ofHours(3));
        given().auth().oauth2(author).post("/api/v1/exams/" + examId + "/publish").then()
                .statusCode(400).body("code", equalTo("VALIDATION_FAILED")).body("violations.field", hasItem("closesAt"));
        assertEquals(DraftState.DRAFT, stateOf(examId));
    }

    private void setState(String examId, DraftState state) throws Throwable {
        VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(() -> drafts.findById(examId).invoke(d -> d.state = state)));
    }

    private DraftState stateOf(String examId) throws Throwable {
        return VertxContextSupport.subscribeAndAwait(() -> Panache.withSession(() -> drafts.findById(examId))).state;
    }

    @Test
    void anExamCreatedPublishedRefusesEditsAndItsQuestionsStay() {
        String examId = Fixtures.openExam(clock.instant());
        given().auth().oauth2(TestTokens.operator()).contentType(MERGE_PATCH).header("If-Match", "\"0\"").body("{\"title\": \"changed\"}")
                .patch("/api/v1/exams/" + examId).then().statusCode(409).body("code", equalTo("EXAM_PUBLISHED"));
        // an author outside its organisation does not learn that it exists
        patch(examId, "\"0\"", "{\"title\": \"changed\"}").then().statusCode(404).body("code", equalTo("EXAM_NOT_FOUND"));
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/exams/" + examId).then()
                .statusCode(200).body("title", equalTo("Algebra mock")).body("questions[0].key", equalTo("4"));
        // publishing what is published already: the exam, unchanged
        given().auth().oauth2(author).post("/api/v1/exams/" + examId + "/publish").then().statusCode(404);
        given().auth().oauth2(TestTokens.operator()).post("/api/v1/exams/" + examId + "/publish").then()
                .statusCode(200).body("title", equalTo("Algebra mock"));
    }

    @Test
    void anExamIsDuplicatedIntoADraftThatCanBeDeleted() {
        String source = Fixtures.openExam(clock.instant());
        String key = UUID.randomUUID().toString();
        Response copy = given().auth().oauth2(TestTokens.operator()).header("Idempotency-Key", key)
                .post("/api/v1/exams/" + source + "/duplicate");
        copy.then().statusCode(201).header("ETag", "\"0\"").body("state", equalTo("DRAFT"))
                .body("title", equalTo("Algebra mock")).body("questions.id", hasItems("q1", "q6")).body("examId", not(equalTo(source)));
        String draftId = copy.path("examId");
        // retried: the same draft
        given().auth().oauth2(TestTokens.operator()).header("Idempotency-Key", key).post("/api/v1/exams/" + source + "/duplicate").then()
                .statusCode(200).header("Idempotent-Replayed", "true").body("examId", equalTo(draftId));

        given().auth().oauth2(TestTokens.operator()).delete("/api/v1/exams/" + draftId).then().statusCode(204);
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/exams/" + draftId).then().statusCode(404).body("code", equalTo("EXAM_NOT_FOUND"));
        given().auth().oauth2(TestTokens.operator()).delete("/api/v1/exams/" + draftId).then().statusCode(404);
    }

    @Test
    void aRetriedDraftCreateIsTheSameDraftAndAnotherBodyIsRefused() {
        String key = UUID.randomUUID().toString();
        String first = given().auth().oauth2(author).header("Idempotency-Key", key).contentType(ContentType.JSON)
                .body("{\"state\": \"DRAFT\", \"title\": \"Once\"}").post("/api/v1/exams").then().statusCode(201).extract().path("examId");
        given().auth().oauth2(author).header("Idempotency-Key", key).contentType(ContentType.JSON)
                .body("{\"state\": \"DRAFT\", \"title\": \"Once\"}").post("/api/v1/exams").then()
                .statusCode(200).header("Idempotent-Replayed", "true").body("examId", equalTo(first));
        given().auth().oauth2(author).header("Idempotency-Key", key).contentType(ContentType.JSON)
                .body("{\"state\": \"DRAFT\", \"title\": \"Twice\"}").post("/api/v1/exams").then()
                .statusCode(422).body("code", equalTo("IDEMPOTENCY_KEY_REUSED"));
    }

    @Test
    void badDraftsAreProblemJson() {
        createDraft(author, "{\"state\": \"ARCHIVED\", \"title\": \"x\"}").then()
                .statusCode(400).contentType("application/problem+json").body("code", equalTo("INVALID_FIELD")).body("field", equalTo("state"));
        createDraft(author, "{\"state\": \"DRAFT\", \"questions\": {\"id\": 1}}").then()
                .statusCode(400).body("code", equalTo("INVALID_FIELD")).body("field", equalTo("questions"));
        createDraft(author, "{\"state\": \"DRAFT\", \"examId\": \"mine\"}").then()
                .statusCode(400).body("code", equalTo("INVALID_FIELD")).body("field", equalTo("examId"));
        createDraft(author, "[1]").then().statusCode(400).body("code", equalTo("INVALID_FIELD"));
        String examId = createDraft(author, "{\"state\": \"DRAFT\"}").then().statusCode(201).extract().path("examId");
        patch(examId, "\"0\"", "{\"title\": ").then().statusCode(400).body("code", equalTo("MALFORMED_JSON"));
        patch(examId, "\"0\"", "{\"questions\": [" + ("{\"id\": \"q\", \"prompt\": \"" + "x".repeat(20_000) + "\"},").repeat(40)
                + "{\"id\": \"last\"}]}").then().statusCode(200);
        // the sum of edits is bounded too, not only each request
        patch(examId, "\"1\"", "{\"pools\": [" + ("{\"name\": \"" + "y".repeat(20_000) + "\"},").repeat(40) + "{\"name\": \"p\"}]}").then()
                .statusCode(413).body("code", equalTo("PAYLOAD_TOO_LARGE"));
        given().auth().oauth2(TestTokens.staff("grader", "org-drafts")).contentType(ContentType.JSON).body("{\"state\": \"DRAFT\"}")
                .post("/api/v1/exams").then().statusCode(403);
    }

    @Test
    void draftsAreListedToTheirOrganisationNewestChangeFirst() {
        String org = "org-" + UUID.randomUUID();
        String mine = TestTokens.staff("author", org);
        List<String> ids = new java.util.ArrayList<>();
        for (String title : List.of("one", "two", "three")) {
            clock.advance(Duration.ofSeconds(1));
            ids.add(createDraft(mine, "{\"state\": \"DRAFT\", \"title\": \"" + title + "\"}").then().statusCode(201).extract().path("examId"));
        }
        Response first = given().auth().oauth2(mine).queryParam("limit", 2).get("/api/v1/exams/drafts");
        first.then().statusCode(200).body("drafts.title", equalTo(List.of("three", "two"))).body("drafts[0].state", equalTo("DRAFT"))
                .body("nextCursor", notNullValue());
        given().auth().oauth2(mine).queryParam("limit", 2).queryParam("after", first.path("nextCursor").toString())
                .get("/api/v1/exams/drafts").then().statusCode(200).body("drafts.examId", equalTo(List.of(ids.get(0))))
                .body("nextCursor", equalTo(null));
        given().auth().oauth2(TestTokens.staff("admin", org)).get("/api/v1/exams/drafts").then().statusCode(200)
                .body("drafts.examId", hasItems(ids.toArray(String[]::new)));
        given().auth().oauth2(TestTokens.staff("author", "org-" + UUID.randomUUID())).get("/api/v1/exams/drafts").then()
                .statusCode(200).body("drafts", equalTo(List.of()));
        given().auth().oauth2(TestTokens.staff("proctor", org)).get("/api/v1/exams/drafts").then().statusCode(403);
        given().auth().oauth2(mine).queryParam("after", "bm90LWEtY3Vyc29y").get("/api/v1/exams/drafts").then()
                .statusCode(400).body("code", equalTo("INVALID_FIELD")).body("field", equalTo("after"));
    }

    @Test
    void fieldsListsEveryMemberOfTheRequest() {
        List<String> members = java.util.Arrays.stream(org.examsuite.session.exam.ExamRequest.class.getRecordComponents())
                .map(java.lang.reflect.RecordComponent::getName).sorted().toList();
        assertEquals(members, org.examsuite.session.exam.ExamRequest.FIELDS.stream().sorted().toList());
    }
}
