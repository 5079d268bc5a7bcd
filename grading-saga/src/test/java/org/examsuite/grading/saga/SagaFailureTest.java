package org.examsuite.grading.saga;

import org.examsuite.common.redis.SharedRedisDataSource;
import static io.restassured.RestAssured.given;
import static org.examsuite.grading.Fixture.awaitSaga;
import static org.examsuite.grading.Fixture.awaitStatus;
import static org.examsuite.grading.Fixture.result;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.examsuite.grading.Fixture;
import org.examsuite.grading.Fixture.Submitted;
import org.examsuite.grading.StubServices;
import org.examsuite.grading.archive.ArchiveStore;
import org.examsuite.testing.TestKeys;
import org.examsuite.testing.TestTokens;
import org.junit.jupiter.api.Test;

/** Permanent failures compensate in reverse order; transient ones are retried; a saga out of retries waits for an operator. */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(StubServices.class)
class SagaFailureTest {
    static final String EXAM = """
            [{"id":"q1","type":"SINGLE","prompt":"2+2?","options":["3","4"],"points":2,"key":"4"},
             {"id":"q2","type":"TRUE_FALSE","prompt":"0 is even","points":1,"key":true}]
            """;

    @Inject
    SharedRedisDataSource redis;
    @Inject
    ArchiveStore archive;
    @Inject
    AgroalDataSource dataSource;

    @Test
    void aPaperEditedAfterSigningNeedsReviewAndItsMarksAreVoided() throws Exception {
        String examId = Fixture.exam(EXAM, 1);
        Submitted paper = Fixture.paper(examId, Map.of("q1", "3", "q2", false));
        // someone changed the stored answers without being able to re-sign them
        ObjectNode stored = (ObjectNode) Fixture.MAPPER.readTree(StubServices.PAPERS.get(paper.paperId()));
        ((ObjectNode) stored.path("answers").path("q1")).put("value", "4");
        StubServices.PAPERS.put(paper.paperId(), stored.toString());
        Fixture.publish(redis, paper);

        JsonPath result = awaitStatus(paper.paperId(), "NEEDS_REVIEW");
        assertNull(result.get("marks"));
        assertNull(result.get("score"));
        assertTrue(result.getString("reason").startsWith("validate: paper digest mismatch"), result.getString("reason"));
        JsonPath saga = awaitSaga(paper.paperId(), "COMPENSATED");
        assertEquals(List.of("COMPENSATED", "FAILED", "PENDING"), saga.getList("steps.status"));
        assertEquals(0, countRows("SELECT count(*) FROM exam_grading.result WHERE paper_id = ? AND marks IS NOT NULL", paper.paperId()));
        assertEquals(0, archive.forPaper(paper.paperId()).size(), "nothing of a forged paper reaches the archive");
    }

    @Test
    void aSignatureByAnotherKeyIsRefused() throws Exception {
        String examId = Fixture.exam(EXAM, 1);
        Submitted paper = Fixture.paper(examId, Map.of("q1", "4"));
        ObjectNode stored = (ObjectNode) Fixture.MAPPER.readTree(StubServices.PAPERS.get(paper.paperId()));
        String digest = stored.path("digest").asText();
        java.security.Signature rsa = java.security.Signature.getInstance("SHA256withRSA");
        rsa.initSign(TestKeys.ARCHIVE.getPrivate());
        rsa.update(digest.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        stored.put("signature", java.util.Base64.getEncoder().encodeToString(rsa.sign()));
        StubServices.PAPERS.put(paper.paperId(), stored.toString());
        Fixture.publish(redis, paper);

        JsonPath result = awaitStatus(paper.paperId(), "NEEDS_REVIEW");
        assertTrue(result.getString("reason").contains("signature invalid"), result.getString("reason"));
    }

    @Test
    void aPermanentFailureInTheLastStepCompensatesTheOthersInReverseOrder() {
        String examId = Fixture.exam(EXAM, 1);
        Submitted paper = Fixture.paper(examId, Map.of("q1", "4", "q2", true));
        // the archive already holds a different result for this paper and run: archiving must fail, not overwrite
        archive.append(paper.paperId(), "RESULT", 1, Fixture.MAPPER.createObjectNode().put("forged", true));
        Fixture.publish(redis, paper);

        awaitStatus(paper.paperId(), "NEEDS_REVIEW");
        JsonPath saga = awaitSaga(paper.paperId(), "COMPENSATED");
        assertEquals(List.of("COMPENSATED", "COMPENSATED", "FAILED"), saga.getList("steps.status"));
        List<String> trail = saga.getList("history.findAll { it.event.startsWith('STEP_') || it.event == 'COMPENSATED' }"
                + ".collect { it.event + ':' + (it.step ?: '') }");
        assertEquals(List.of("STEP_STARTED:grade", "STEP_DONE:grade", "STEP_STARTED:validate", "STEP_DONE:validate",
                "STEP_STARTED:archive", "STEP_FAILED:archive", "STEP_COMPENSATED:validate", "STEP_COMPENSATED:grade",
                "COMPENSATED:archive"), trail);
        assertTrue(saga.getString("steps[2].lastError").contains("different RESULT record"));
    }

    @Test
    void aSagaThatNeedsReviewIsReRunByAnOperatorAndItsResultSupersedesByAnAppendedRecord() throws Exception {
        String examId = Fixture.exam(EXAM, 1);
        Submitted paper = Fixture.paper(examId, Map.of("q1", "4", "q2", true));
        // a conflicting RESULT record for run 1 makes the first run compensate: NEEDS_REVIEW
        archive.append(paper.paperId(), "RESULT", 1, Fixture.MAPPER.createObjectNode().put("forged", true));
        Fixture.publish(redis, paper);
        JsonPath review = awaitStatus(paper.paperId(), "NEEDS_REVIEW");
        String oldSaga = review.getString("sagaId");
        awaitSaga(paper.paperId(), "COMPENSATED");
        ArchiveStore.ArchiveRecord blocking = archive.forPaper(paper.paperId()).get(0);

        String newSaga = given().auth().oauth2(TestTokens.operator("op-dave")).post("/api/v1/sagas/" + oldSaga + "/retry")
                .then().statusCode(202).body("run", equalTo(2)).body("paperId", equalTo(paper.paperId()))
                .extract().path("sagaId");
        assertTrue(!oldSaga.equals(newSaga), "a re-run is a new saga");
        JsonPath graded = awaitStatus(paper.paperId(), "GRADED");
        assertEquals(2, graded.getInt("run"));
        assertEquals(3.0, graded.getDouble("score"), 1e-9);

        List<ArchiveStore.ArchiveRecord> records = archive.forPaper(paper.paperId());
        assertEquals(2, records.size(), "one record appended; the old one stays");
        assertEquals(blocking, records.get(0));
        assertEquals(blocking.seq(), Fixture.MAPPER.readTree(records.get(1).payload()).path("supersedes").asLong());
        assertTrue(Fixture.saga(oldSaga).getList("history.event").contains("OPERATOR_RERUN"));
        // the old run is no longer the paper's newest: it cannot be re-run again
        given().auth().oauth2(TestTokens.operator()).post("/api/v1/sagas/" + oldSaga + "/retry").then().statusCode(409)
                .contentType("application/problem+json").body("code", equalTo("SAGA_SUPERSEDED"));
        assertEquals(1, countRows("SELECT count(*) FROM exam_grading.audit_log WHERE saga_id::text = ? AND actor = 'op-dave' "
                + "AND action = 'SAGA_RETRY'", oldSaga));
    }

    @Test
    void aTransientFailureIsRetriedThenSucceeds() {
        String examId = Fixture.exam(EXAM, 1);
        // two in-call retries (Fault Tolerance) fail, so the saga's own retry takes over once
        StubServices.EXAM_FAILURES.put(examId, new AtomicInteger(3));
        Submitted paper = Fixture.submit(redis, examId, Map.of("q1", "4", "q2", true));

        assertEquals(3.0, awaitStatus(paper.paperId(), "GRADED").getDouble("score"), 1e-9);
        JsonPath saga = awaitSaga(paper.paperId(), "COMPLETED");
        assertEquals(2, saga.getInt("steps[0].attempts"));
        assertTrue(saga.getString("history.find { it.event == 'RETRY_SCHEDULED' }.detail").contains("HTTP 503"));
        assertEquals(4, StubServices.EXAM_CALLS.get(examId).get());
    }

    @Test
    void aSagaOutOfRetriesIsFailedUntilAnOperatorRetriesIt() throws Exception {
        String examId = Fixture.exam(EXAM, 1);
        StubServices.EXAM_FAILURES.put(examId, new AtomicInteger(1_000));
        Submitted paper = Fixture.submit(redis, examId, Map.of("q1", "4"));

        JsonPath failed = awaitStatus(paper.paperId(), "FAILED");
        assertTrue(failed.getString("reason").contains("out of retries"), failed.getString("reason"));
        String sagaId = failed.getString("sagaId");
        JsonPath saga = Fixture.saga(sagaId);
        assertEquals("FAILED", saga.getString("status"));
        assertEquals(4, saga.getInt("steps[0].attempts"));

        StubServices.EXAM_FAILURES.get(examId).set(0);
        given().auth().oauth2(TestTokens.candidate(paper.sessionId(), examId, "c", 1)).post("/api/v1/sagas/" + sagaId + "/retry")
                .then().statusCode(403);
        given().auth().oauth2(TestTokens.operator("op-carol")).post("/api/v1/sagas/" + sagaId + "/retry").then()
                .statusCode(202).body("sagaId", equalTo(sagaId));
        assertTrue(List.of("PENDING", "GRADED").contains(result(paper.paperId()).getString("status")),
                "a retried saga's result is no longer FAILED");
        awaitStatus(paper.paperId(), "GRADED");
        assertEquals("COMPLETED", awaitSaga(paper.paperId(), "COMPLETED").getString("status"));
        given().auth().oauth2(TestTokens.operator()).post("/api/v1/sagas/" + sagaId + "/retry").then().statusCode(409)
                .contentType("application/problem+json").body("code", equalTo("SAGA_NOT_RETRYABLE"));
        assertEquals(1, countRows("SELECT count(*) FROM exam_grading.audit_log WHERE saga_id::text = ? AND actor = 'op-carol' "
                + "AND action = 'SAGA_RETRY'", sagaId));
        assertEquals(1, result(paper.paperId()).getInt("run"));
    }

    @Test
    void unknownSagasAre404() {
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/sagas/not-a-uuid").then().statusCode(404)
                .contentType("application/problem+json").body("code", equalTo("SAGA_NOT_FOUND"));
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/sagas/00000000-0000-0000-0000-000000000000").then()
                .statusCode(404).body("code", equalTo("SAGA_NOT_FOUND"));
        given().auth().oauth2(TestTokens.candidate("s", "e", "c", 1)).get("/api/v1/sagas/00000000-0000-0000-0000-000000000000")
                .then().statusCode(403);
    }

    private int countRows(String sql, String parameter) throws Exception {
        try (Connection c = dataSource.getConnection(); PreparedStatement select = c.prepareStatement(sql)) {
            select.setString(1, parameter);
            try (ResultSet rs = select.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
