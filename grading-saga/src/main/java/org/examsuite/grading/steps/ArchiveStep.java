package org.examsuite.grading.steps;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.examsuite.grading.archive.ArchiveConfig;
import org.examsuite.grading.archive.ArchiveStore;
import org.examsuite.grading.archive.ArchiveStore.ArchiveRecord;
import org.examsuite.grading.results.PaperRun;
import org.examsuite.grading.results.ResultStore;
import org.examsuite.grading.saga.GroupOutcome;
import org.examsuite.grading.saga.GroupStep;
import org.examsuite.grading.saga.SagaContext;
import org.examsuite.grading.saga.SagaStore;
import org.examsuite.grading.saga.StepFailure;

/**
 * Step 3 — archive: appends the result to the hash chain and makes it GRADED, in one
 * transaction (a result is visible exactly when it is archived). A group step: the engine
 * hands it the sagas that reached it meanwhile, up to {@code exam.archive.append-batch}, and
 * it appends all their results under one head lock — one multi-row insert, one head update,
 * the results GRADED in one statement — in the transaction in which the engine records those
 * sagas' step logs and ends. The chain is the same as appending one by one
 * (ArchiveStore.appendAll); across replicas the head row lock still serialises the batches.
 * A regrade's record names the record it supersedes; the old one stays as it is. Idempotent:
 * the archive keeps one record per (paper, kind, run) and returns it again for the same
 * payload; another payload there is a conflict, a permanent failure of that saga only.
 *
 * <p>A run that is no longer its paper's newest when it comes to be appended (an operator
 * started a newer one while a worker held this one) and has no RESULT record yet gets none:
 * the engine ends it SUPERSEDED (checked under the head lock, so no newer run's record can come
 * before it unseen).
 *
 * <p>The append commits asynchronously: appends are serialised on the head lock, and
 * waiting for a WAL flush inside that lock would cap the archive at one append per flush.
 * PostgreSQL keeps commit order, so a crash can only lose the newest appends together with
 * the step log after them — their sagas archive again. Whatever leaves the service as
 * proof (the signed head) is flushed first: see {@code ArchiveStore.durableHead}.
 *
 * <p>Compensation ({@link #retract}): a RETRACTION record is appended (records are never edited).
 */
@ApplicationScoped
public class ArchiveStep implements GroupStep<ArchiveRecord> {
    public static final String RESULT = "RESULT";
    public static final String RETRACTION = "RETRACTION";

    private final ArchiveStore archive;
    private final ResultStore results;
    private final SagaStore sagas;
    private final ObjectMapper mapper;
    private final int maxBatch;
    private final Duration timeout;

    @Inject
    ArchiveStep(ArchiveStore archive, ResultStore results, SagaStore sagas, ObjectMapper mapper, ArchiveConfig config) {
        this.archive = archive;
        this.results = results;
        this.sagas = sagas;
        this.mapper = mapper;
        this.maxBatch = config.appendBatch();
        this.timeout = config.appendTimeout();
    }

    @Override
    public int maxBatch() {
        return maxBatch;
    }

    @Override
    public Duration timeout() {
        return timeout;
    }

    /**
     * The RESULT records of these runs (each superseding the newest RESULT of an earlier run of
     * its paper) and their results GRADED, in the engine's transaction; a run a newer run of its
     * paper replaced, and that has no RESULT record yet, gets none (SUPERSEDED).
     */
    @Override
    @SuppressWarnings("unchecked")
    public List<GroupOutcome<ArchiveRecord>> writeAll(Connection c, List<SagaContext> batch) throws SQLException {
        GroupOutcome<ArchiveRecord>[] outcomes = new GroupOutcome[batch.size()];
        List<PaperRun> runs = batch.stream().map(PaperRun::of).toList();
        // 1. the head lock: from here on no append of any replica comes between
        ArchiveStore.Head head = archive.lockHead(c);
        // 2. a run that a newer run of its paper replaced (a regrade or re-run started while a worker held it)
        Set<String> papers = new HashSet<>();
        runs.forEach(run -> papers.add(run.paperId()));
        Map<String, Integer> newest = sagas.newestRuns(c, papers);
        List<Integer> toAppend = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            PaperRun run = runs.get(i);
            int newestRun = newest.getOrDefault(run.paperId(), run.run());
            if (newestRun > run.run() && archive.find(c, run.paperId(), RESULT, run.run()).isEmpty()) {
                outcomes[i] = GroupOutcome.superseded(newestRun);
                continue;
            }
            toAppend.add(i);
        }
        // 3. the records, in one multi-row insert and one head update
        List<ArchiveStore.Append> appends = new ArrayList<>(toAppend.size());
        for (int i : toAppend) {
            SagaContext context = batch.get(i);
            PaperRun run = runs.get(i);
            appends.add(new ArchiveStore.Append(run.paperId(), RESULT, run.run(),
                    superseded -> payload(context, run, context.data().path("grade"), superseded), true));
        }
        List<ArchiveStore.Appended> appended = archive.appendAll(c, head, appends);
        List<ResultStore.Graded> graded = new ArrayList<>();
        for (int k = 0; k < toAppend.size(); k++) {
            int i = toAppend.get(k);
            ArchiveStore.Appended outcome = appended.get(k);
            if (outcome.conflict() != null) {
                outcomes[i] = GroupOutcome.failed(StepFailure.permanent(outcome.conflict().getMessage()));
                continue;
            }
            ArchiveRecord record = outcome.record();
            SagaContext context = batch.get(i);
            PaperRun run = runs.get(i);
            JsonNode grade = context.data().path("grade");
            context.data().put("archiveSeq", record.seq());
            graded.add(new ResultStore.Graded(run.paperId(), run.run(), record.seq(),
                    grade.path("score").decimalValue(), grade.path("maxScore").decimalValue(), grade.path("marks").toString(),
                    grade.has("choices") ? grade.get("choices").toString() : null, grade.path("keyRevision").asLong(),
                    grade.path("candidateId").asText(null)));
            outcomes[i] = GroupOutcome.done(record);
        }
        // 4. the results GRADED, with the same marks as their records
        results.gradedAll(c, graded);
        return Arrays.asList(outcomes);
    }

    /** The compensation: a RETRACTION record naming the RESULT record this run appended. */
    public void retract(SagaContext context) {
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

    private ObjectNode payload(SagaContext context, PaperRun run, JsonNode grade, Optional<ArchiveRecord> superseded) {
        ObjectNode payload = mapper.createObjectNode();
        payload.put("paperId", run.paperId());
        payload.put("run", run.run());
        payload.put("sagaId", context.sagaId().toString());
        payload.put("sessionId", run.sessionId());
        payload.put("examId", run.examId());
        payload.set("candidateId", grade.path("candidateId"));
        payload.put("status", ResultStore.GRADED);
        payload.set("score", grade.path("score"));
        payload.set("maxScore", grade.path("maxScore"));
        payload.set("marks", grade.path("marks"));
        payload.set("keyRevision", grade.path("keyRevision"));
        payload.set("paperDigest", grade.path("paperDigest"));
        if (superseded.isPresent()) {
            payload.put("supersedes", superseded.get().seq());
        } else {
            payload.putNull("supersedes");
        }
        return payload;
    }
}
