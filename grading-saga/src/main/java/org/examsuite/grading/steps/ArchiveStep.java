package org.examsuite.grading.steps;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.examsuite.grading.archive.ArchiveStore;
import org.examsuite.grading.results.PaperRun;
import org.examsuite.grading.saga.SagaContext;
import org.examsuite.grading.saga.SagaStep;
import org.examsuite.grading.saga.StepFailure;
import org.examsuite.grading.saga.StepOutcome;

/**
 * Step 3 — archive: appends the result to the hash chain and makes it GRADED, in one
 * transaction (a result is visible exactly when it is archived) — the appender's, which
 * appends the results of every saga waiting for it together ({@link ResultArchiver}). A regrade's record names
 * the record it supersedes; the old one stays as it is. Idempotent: the archive keeps one
 * record per (paper, kind, run) and returns it again for the same payload.
 * Compensation: a RETRACTION record is appended (records are never edited).
 *
 * <p>Self-recording (GradingSaga): the saga's step log up to here and its end (COMPLETED) are
 * written in the appender's transaction, with the record. A run that is no longer its paper's
 * newest when it comes to be appended (an operator started a newer one while a worker held
 * this one) gets no RESULT record: it ends SUPERSEDED there, its provisional marks voided.
 *
 * <p>The append commits asynchronously: appends are serialised on the head lock, and
 * waiting for a WAL flush inside that lock would cap the archive at one append per flush.
 * PostgreSQL keeps commit order, so a crash can only lose the newest appends together with
 * the step log after them — their sagas archive again. Whatever leaves the service as
 * proof (the signed head) is flushed first: see {@code ArchiveStore.durableHead}.
 */
@ApplicationScoped
public class ArchiveStep implements SagaStep {
    public static final String RESULT = "RESULT";
    public static final String RETRACTION = "RETRACTION";

    @Inject
    ArchiveStore archive;
    @Inject
    ResultArchiver archiver;
    @Inject
    ObjectMapper mapper;

    @Override
    public StepOutcome execute(SagaContext context) {
        ResultArchiver.Archived archived;
        try {
            archived = StepCalls.remote(() -> archiver.append(context, context.data().path("grade"), context.stepRecord()));
        } catch (ArchiveStore.Conflict conflict) {
            throw StepFailure.permanent(conflict.getMessage());
        }
        if (archived.supersededBy() != null) {
            return StepOutcome.SUPERSEDED;
        }
        context.data().put("archiveSeq", archived.record().seq());
        return StepOutcome.DONE;
    }

    @Override
    public void compensate(SagaContext context) {
        long seq = context.data().path("archiveSeq").asLong(0);
        if (seq == 0) {
            return;
        }
        PaperRun run = PaperRun.of(context);
        ObjectNode payload = mapper.createObjectNode();
        payload.put("paperId", run.paperId());
        payload.put("run", run.run());
        payload.put("sagaId", context.sagaId().toString());
        payload.put("retracts", seq);
        try {
            StepCalls.remote(() -> archive.append(run.paperId(), RETRACTION, run.run(), payload));
        } catch (ArchiveStore.Conflict conflict) {
            throw StepFailure.permanent(conflict.getMessage());
        }
        context.data().remove("archiveSeq");
    }
}
