package org.examsuite.grading.saga;

import static org.examsuite.grading.Fixture.awaitSaga;
import static org.examsuite.grading.Fixture.awaitStatus;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.sql.PreparedStatement;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.examsuite.grading.Fixture;
import org.examsuite.grading.Fixture.Submitted;
import org.examsuite.grading.StubServices;
import org.examsuite.grading.archive.ArchiveStore;
import org.examsuite.grading.db.Db;
import org.examsuite.grading.flow.GradingSaga;
import org.examsuite.grading.results.PaperRun;
import org.examsuite.grading.results.ResultStore;
import org.examsuite.testing.TestKeys;
import org.junit.jupiter.api.Test;

/**
 * A replica that died mid-saga leaves a step RUNNING under a lease nobody renews. Once the
 * lease runs out another worker resumes from the step log: done steps are not run again.
 */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(StubServices.class)
class RecoveryTest {
    static final String EXAM = """
            [{"id":"q1","type":"SINGLE","prompt":"2+2?","options":["3","4"],"points":2,"key":"4"},
             {"id":"q2","type":"TRUE_FALSE","prompt":"0 is even","points":1,"key":true}]
            """;

    @Inject
    Db db;
    @Inject
    SagaStore sagas;
    @Inject
    StepLog stepLog;
    @Inject
    ResultStore results;
    @Inject
    ArchiveStore archive;
    @Inject
    SagaEngine engine;

    @Test
    void aSagaWhoseReplicaDiedDuringValidateResumesWithoutGradingAgain() throws Exception {
        String examId = Fixture.exam(EXAM, 1);
        Submitted paper = Fixture.paper(examId, Map.of("q1", "4", "q2", true));
        String digest = Fixture.MAPPER.readTree(StubServices.PAPERS.get(paper.paperId())).path("digest").asText();
        ObjectNode data = (ObjectNode) Fixture.MAPPER.readTree("""
                {"grade": {"paperDigest": "%s", "candidateId": "c-1", "keyRevision": 1, "score": 3, "maxScore": 3,
                  "marks": [{"questionId": "q1", "type": "SINGLE", "points": 2, "score": 2},
                            {"questionId": "q2", "type": "TRUE_FALSE", "points": 1, "score": 1}],
                  "awaiting": []}}
                """.formatted(digest));
        crashed(paper, data.toString(), new String[] {"DONE", "RUNNING", "PENDING"});

        JsonPath result = awaitStatus(paper.paperId(), "GRADED");
        assertEquals(3.0, result.getDouble("score"), 1e-9);
        JsonPath saga = awaitSaga(paper.paperId(), "COMPLETED");
        assertEquals(List.of(1, 2, 1), saga.getList("steps.attempts"));
        assertNull(StubServices.EXAM_CALLS.get(examId), "the grade step was not run again");
        assertEquals(1, archive.forPaper(paper.paperId()).size());
    }

    @Test
    void aStepThatWasRunningWhenItsReplicaDiedRunsAgainOnce() {
        String examId = Fixture.exam(EXAM, 1);
        Submitted paper = Fixture.paper(examId, Map.of("q1", "4"));
        crashed(paper, "{}", new String[] {"RUNNING", "PENDING", "PENDING"});

        assertEquals(2.0, awaitStatus(paper.paperId(), "GRADED").getDouble("score"), 1e-9);
        assertEquals(List.of(2, 1, 1), awaitSaga(paper.paperId(), "COMPLETED").getList("steps.attempts"));
        assertEquals(1, archive.forPaper(paper.paperId()).size());
    }

    @Test
    void aReplicaThatDiedMidPassRecordedNothingAndTheSagaRunsFromTheStartOnce() {
        // steps record their start with their end: a replica that died after grading and validating, before the
        // archive's transaction, left the log as it found it (every step PENDING) and its lease running out
        String examId = Fixture.exam(EXAM, 1);
        Submitted paper = Fixture.paper(examId, Map.of("q1", "4", "q2", true));
        crashed(paper, "{}", new String[] {"PENDING", "PENDING", "PENDING"});

        assertEquals(3.0, awaitStatus(paper.paperId(), "GRADED").getDouble("score"), 1e-9);
        JsonPath saga = awaitSaga(paper.paperId(), "COMPLETED");
        assertEquals(List.of("DONE", "DONE", "DONE"), saga.getList("steps.status"));
        assertEquals(List.of(1, 1, 1), saga.getList("steps.attempts"));
        assertEquals(List.of("CREATED", "STEP_STARTED:grade", "STEP_DONE:grade", "STEP_STARTED:validate", "STEP_DONE:validate",
                "STEP_STARTED:archive", "STEP_DONE:archive", "COMPLETED"),
                saga.getList("history.collect { it.event + (it.step ? ':' + it.step : '') }"));
        assertEquals(1, archive.forPaper(paper.paperId()).size());
    }

    @Test
    void theArchivesGroupCommitWritesNothingForAWorkerWhoseLeaseIsGone() throws Exception {
        Submitted paper = Fixture.paper(Fixture.exam(EXAM, 1), Map.of("q1", "4"));
        UUID sagaId = crashed(paper, "{}", new String[] {"PENDING", "PENDING", "PENDING"}, "replica-a/w0");
        ObjectNode grade = (ObjectNode) Fixture.MAPPER.readTree("""
                {"paperDigest": "d", "candidateId": "c-1", "keyRevision": 1, "score": 2, "maxScore": 3,
                 "marks": [{"questionId": "q1", "type": "SINGLE", "points": 2, "score": 2},
                           {"questionId": "q2", "type": "TRUE_FALSE", "points": 1, "score": 0}], "awaiting": []}""");
        SagaDefinition definition = engine.definition(GradingSaga.NAME);

        // replica b does not hold the saga: its archive step writes neither the record, nor the result, nor the log
        SagaContext stale = context(paper, sagaId, grade);
        assertThrows(SagaStore.LeaseLost.class, () -> engine.groupCommit(pass(sagaId, "replica-b/w0", stale, definition)));
        assertEquals(0, archive.forPaper(paper.paperId()).size());
        assertEquals("RUNNING", sagas.find(sagaId).orElseThrow().status());
        assertEquals(List.of("PENDING", "PENDING", "PENDING"), stepLog.steps(sagaId).stream().map(StepLog.StepRow::status).toList());

        // the holder's: record, GRADED result, the whole pass's log and the saga's end, in one transaction
        SagaContext held = context(paper, sagaId, grade);
        GroupOutcome<?> committed = engine.groupCommit(pass(sagaId, "replica-a/w0", held, definition));
        assertEquals(1, ((ArchiveStore.ArchiveRecord) committed.value()).run());
        assertEquals(StepOutcome.DONE, committed.outcome());
        assertEquals(1, archive.forPaper(paper.paperId()).size());
        assertEquals("COMPLETED", sagas.find(sagaId).orElseThrow().status());
        assertEquals(List.of("DONE", "DONE", "DONE"), stepLog.steps(sagaId).stream().map(StepLog.StepRow::status).toList());
        assertEquals(List.of(1, 1, 1), stepLog.steps(sagaId).stream().map(StepLog.StepRow::attempts).toList());
        assertEquals("GRADED", results.runs(paper.paperId()).get(0).status());
    }

    private static SagaContext context(Submitted paper, UUID sagaId, ObjectNode grade) {
        ObjectNode data = Fixture.MAPPER.createObjectNode();
        data.set("grade", grade);
        PaperRun run = new PaperRun(paper.paperId(), 1, paper.examId(), paper.sessionId());
        return new SagaContext(sagaId, run.paperId(), run.run(), (ObjectNode) Fixture.MAPPER.valueToTree(
                Map.of("examId", run.examId(), "sessionId", run.sessionId())), data);
    }

    /** What the engine hands the archive's group commit after grade and validate ran in the same pass, unrecorded. */
    private static StepRecord pass(UUID sagaId, String owner, SagaContext context, SagaDefinition definition) {
        CompletedStep grade = new CompletedStep(0, "grade", null, false, List.of(), false, null);
        CompletedStep validate = new CompletedStep(1, "validate", null, false, List.of(), false, grade);
        CompletedStep archiveStep = new CompletedStep(2, "archive", null, false, List.of(), false, validate);
        return new StepRecord(sagaId, owner, archiveStep, true, () -> context.data().toString(), context, definition);
    }

    @Test
    void aWorkerWhoseLeaseIsGoneCanWriteNothing() {
        Submitted paper = Fixture.paper(Fixture.exam(EXAM, 1), Map.of("q1", "4"));
        // held by a live replica, and not due: no worker of this test's replica touches it
        UUID sagaId = crashed(paper, "{}", new String[] {"PENDING", "PENDING", "PENDING"}, "replica-a/w0");
        assertThrows(SagaStore.LeaseLost.class, () -> sagas.beginStep(sagaId, "replica-b/w0", java.time.Duration.ofSeconds(5),
                0, "grade", false, null));
        assertThrows(SagaStore.LeaseLost.class, () -> sagas.finish(sagaId, "replica-b/w0", "COMPLETED", null, null, null,
                null, c -> { }));
        sagas.beginStep(sagaId, "replica-a/w0", java.time.Duration.ofSeconds(5), 0, "grade", false, null);
        assertEquals(List.of(1, 0, 0), stepLog.steps(sagaId).stream().map(StepLog.StepRow::attempts).toList());
        assertEquals("RUNNING", sagas.find(sagaId).orElseThrow().status());
        // the owner's lease has run out: it can no longer write either
        db.inTransaction(c -> {
            try (PreparedStatement update = c.prepareStatement("UPDATE saga SET lease_until = now() - interval '1 second', "
                    + "next_attempt_at = now() + interval '1 hour' WHERE saga_id = ?")) {
                update.setObject(1, sagaId);
                update.executeUpdate();
            }
            return null;
        });
        assertThrows(SagaStore.LeaseLost.class, () -> sagas.beginStep(sagaId, "replica-a/w0", java.time.Duration.ofSeconds(5),
                1, "validate", false, new CompletedStep(0, "grade", "{}", false)));
        assertEquals("RUNNING", stepLog.steps(sagaId).get(0).status(), "nothing of the refused write was kept");
        db.inTransaction(c -> {
            try (PreparedStatement update = c.prepareStatement("UPDATE saga SET status = 'FAILED' WHERE saga_id = ?")) {
                update.setObject(1, sagaId); // a test artefact: no later run should pick it up
                update.executeUpdate();
            }
            return null;
        });
    }

    /** The state a replica leaves when it dies: its lease (already run out here) and a step it had started. */
    private UUID crashed(Submitted paper, String data, String[] stepStatus) {
        return crashed(paper, data, stepStatus, null);
    }

    private UUID crashed(Submitted paper, String data, String[] stepStatus, String liveOwner) {
        UUID sagaId = UUID.randomUUID();
        db.inTransaction(c -> {
            PaperRun run = new PaperRun(paper.paperId(), 1, paper.examId(), paper.sessionId());
            sagas.create(c, new SagaStore.NewSaga(sagaId, GradingSaga.NAME, run.paperId(), run.run(), run.refs(), data, null, null,
                    List.of("grade", "validate", "archive")));
            results.createPending(c, paper.paperId(), 1, sagaId, paper.examId(), paper.sessionId());
            try (PreparedStatement update = c.prepareStatement(liveOwner == null
                    ? "UPDATE saga SET lease_owner = 'replica-that-died/w0', lease_until = now() - interval '1 second' "
                            + "WHERE saga_id = ?"
                    : "UPDATE saga SET lease_owner = ?, lease_until = now() + interval '1 hour', "
                            + "next_attempt_at = now() + interval '1 hour' WHERE saga_id = ?")) {
                if (liveOwner == null) {
                    update.setObject(1, sagaId);
                } else {
                    update.setString(1, liveOwner);
                    update.setObject(2, sagaId);
                }
                update.executeUpdate();
            }
            for (int i = 0; i < stepStatus.length; i++) {
                if (!"PENDING".equals(stepStatus[i])) {
                    try (PreparedStatement update = c.prepareStatement("UPDATE saga_step SET status = ?, attempts = 1, "
                            + "started_at = now() WHERE saga_id = ? AND position = ?")) {
                        update.setString(1, stepStatus[i]);
                        update.setObject(2, sagaId);
                        update.setInt(3, i);
                        update.executeUpdate();
                    }
                }
            }
            return null;
        });
        return sagaId;
    }
}
