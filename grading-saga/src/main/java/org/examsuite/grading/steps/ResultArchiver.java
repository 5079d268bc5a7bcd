package org.examsuite.grading.steps;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.examsuite.grading.archive.ArchiveStore;
import org.examsuite.grading.archive.ArchiveStore.ArchiveRecord;
import org.examsuite.grading.db.Db;
import org.examsuite.grading.results.PaperRun;
import org.examsuite.grading.results.ResultStore;
import org.examsuite.grading.saga.SagaContext;
import org.examsuite.grading.saga.SagaStore;
import org.examsuite.grading.saga.StepFailure;
import org.examsuite.grading.saga.StepOutcome;
import org.examsuite.grading.saga.StepRecord;
import org.examsuite.grading.saga.StepRecorder;
import org.jboss.logging.Logger;

/**
 * Group commit for the archive step: the saga workers hand their results to one appender
 * thread per replica, which appends whatever has queued up in one transaction — the head
 * locked once, the records inserted in one multi-row statement, the results made GRADED in
 * one batch — and then answers every worker. The chain is the same as appending one by one
 * (ArchiveStore.appendAll); across replicas the head row lock still serialises the batches.
 * A conflicting record fails only its own saga; a batch that fails as a whole is retried
 * record by record, so one bad record cannot hold the others back.
 */
@ApplicationScoped
public class ResultArchiver {
    private static final Logger LOG = Logger.getLogger(ResultArchiver.class);

    @Inject
    ArchiveStore archive;
    @Inject
    ResultStore results;
    @Inject
    SagaStore sagas;
    @Inject
    StepRecorder recorder;
    @Inject
    Db db;
    @Inject
    ObjectMapper mapper;

    @ConfigProperty(name = "exam.archive.append-batch", defaultValue = "100")
    int maxBatch;
    @ConfigProperty(name = "exam.archive.append-timeout", defaultValue = "30s")
    java.time.Duration timeout;

    private record Request(SagaContext context, JsonNode grade, StepRecord record, CompletableFuture<Archived> done) {
    }

    /**
     * What became of one result: its RESULT record (new, or the same one already there), or
     * {@code supersededBy} — a newer run of the paper exists and this run has no record yet,
     * so it was ended SUPERSEDED instead (its step record says so).
     */
    public record Archived(ArchiveRecord record, Integer supersededBy) {
    }

    /** One request's outcome inside the transaction, before commit. */
    private record Outcome(ArchiveRecord record, Integer supersededBy, RuntimeException failure) {
    }

    private final LinkedBlockingQueue<Request> queue = new LinkedBlockingQueue<>();
    private volatile boolean running;
    private Thread appender;

    void onStart(@Observes StartupEvent event) {
        running = true;
        appender = new Thread(this::loop, "archive-appender");
        appender.setDaemon(true);
        appender.start();
    }

    void onStop(@Observes ShutdownEvent event) {
        running = false;
        if (appender != null) {
            appender.interrupt();
        }
    }

    /**
     * Appends the RESULT record of this run (superseding the newest RESULT of an earlier run)
     * and makes the result GRADED, in the appender's next transaction; waits for its commit.
     * With a {@code stepRecord} (the engine's, for the archive step), the saga's step log and
     * end are written in the same transaction — only while the worker still holds its lease
     * (else {@link SagaStore.LeaseLost}, and nothing of this saga is written). A run that is no
     * longer its paper's newest, and has no RESULT record yet, gets none: it ends SUPERSEDED
     * (checked under the head lock, so no newer run's record can come before it unseen).
     */
    public Archived append(SagaContext context, JsonNode grade, StepRecord stepRecord) {
        if (!running) {
            throw StepFailure.transientFailure("the archive appender is stopping");
        }
        Request request = new Request(context, grade, stepRecord, new CompletableFuture<>());
        queue.add(request);
        try {
            return request.done().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            throw new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            // it may still be appended: the step runs again and finds the record (same payload)
            throw StepFailure.transientFailure("archive append not confirmed within " + timeout.toMillis() + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw StepFailure.transientFailure("interrupted while archiving");
        }
    }

    private void loop() {
        List<Request> batch = new ArrayList<>();
        while (running) {
            try {
                Request first = queue.poll(1, TimeUnit.SECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, maxBatch - 1);
                process(batch);
            } catch (InterruptedException e) {
                break;
            } catch (RuntimeException e) {
                LOG.warnf("archive appender: %s", e.toString());
                batch.forEach(request -> request.done().completeExceptionally(e));
            } finally {
                batch.clear();
            }
        }
        Request left;
        while ((left = queue.poll()) != null) {
            left.done().completeExceptionally(StepFailure.transientFailure("the archive appender stopped"));
        }
    }

    private void process(List<Request> batch) {
        List<Outcome> outcomes;
        try {
            outcomes = db.inAsyncTransaction(c -> appendAll(c, batch));
        } catch (RuntimeException e) {
            if (batch.size() == 1) {
                batch.get(0).done().completeExceptionally(e);
                return;
            }
            LOG.infof("archive batch of %d failed (%s): appending one by one", batch.size(), e.toString());
            for (Request request : batch) {
                process(List.of(request));
            }
            return;
        }
        for (int i = 0; i < batch.size(); i++) {
            Outcome outcome = outcomes.get(i);
            Request request = batch.get(i);
            if (outcome.failure() != null) {
                request.done().completeExceptionally(outcome.failure());
                continue;
            }
            if (request.record() != null) {
                request.record().committed(outcome.supersededBy() != null ? StepOutcome.SUPERSEDED : StepOutcome.DONE);
            }
            request.done().complete(new Archived(outcome.record(), outcome.supersededBy()));
        }
    }

    private List<Outcome> appendAll(Connection c, List<Request> batch) throws SQLException {
        Outcome[] outcomes = new Outcome[batch.size()];
        // 1. the sagas whose step log goes with this batch: still held by their workers? (locks their rows)
        List<StepRecord> records = batch.stream().map(Request::record).filter(Objects::nonNull).toList();
        Set<UUID> held = recorder.lockHeld(c, records);
        // 2. the head lock: from here on no append of any replica comes between
        ArchiveStore.Head head = archive.lockHead(c);
        // 3. a run that a newer run of its paper replaced (a regrade or re-run started while a worker held it)
        Set<String> papers = new HashSet<>();
        batch.forEach(request -> papers.add(request.context().key()));
        Map<String, Integer> newest = sagas.newestRuns(c, papers);
        List<Integer> toAppend = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            Request request = batch.get(i);
            SagaContext context = request.context();
            PaperRun run = PaperRun.of(context);
            if (request.record() != null && !held.contains(context.sagaId())) {
                outcomes[i] = new Outcome(null, null, new SagaStore.LeaseLost(context.sagaId()));
                continue;
            }
            int newestRun = newest.getOrDefault(run.paperId(), run.run());
            if (newestRun > run.run()
                    && archive.find(c, run.paperId(), ArchiveStep.RESULT, run.run()).isEmpty()) {
                if (request.record() == null) {
                    outcomes[i] = new Outcome(null, null, StepFailure.permanent("superseded by run " + newestRun));
                    continue;
                }
                recorder.superseded(c, request.record(), "by run " + newestRun + ", which started while this run was running");
                results.voidMarks(c, run.paperId(), run.run(), "superseded by run " + newestRun);
                outcomes[i] = new Outcome(null, newestRun, null);
                continue;
            }
            toAppend.add(i);
        }
        // 4. the records, in one multi-row insert and one head update
        List<ArchiveStore.Append> appends = new ArrayList<>(toAppend.size());
        for (int i : toAppend) {
            Request request = batch.get(i);
            SagaContext context = request.context();
            PaperRun run = PaperRun.of(context);
            appends.add(new ArchiveStore.Append(run.paperId(), ArchiveStep.RESULT, run.run(),
                    superseded -> payload(context, run, request.grade(), superseded), true));
        }
        List<ArchiveStore.Appended> appended = archive.appendAll(c, head, appends);
        List<StepRecord> done = new ArrayList<>();
        List<ResultStore.Graded> graded = new ArrayList<>();
        for (int k = 0; k < toAppend.size(); k++) {
            int i = toAppend.get(k);
            ArchiveStore.Appended outcome = appended.get(k);
            if (outcome.conflict() != null) {
                outcomes[i] = new Outcome(null, null, outcome.conflict());
                continue;
            }
            ArchiveRecord record = outcome.record();
            outcomes[i] = new Outcome(record, null, null);
            Request request = batch.get(i);
            SagaContext context = request.context();
            JsonNode grade = request.grade();
            if (request.record() != null) {
                context.data().put("archiveSeq", record.seq());
                done.add(request.record());
            }
            graded.add(new ResultStore.Graded(context.key(), context.run(), record.seq(),
                    grade.path("score").decimalValue(), grade.path("maxScore").decimalValue(), grade.path("marks").toString(),
                    grade.path("keyRevision").asLong(), grade.path("candidateId").asText(null)));
        }
        // 5. the step logs (the grade step's provisional marks among their writes), then the results GRADED
        recorder.recordAll(c, done);
        results.gradedAll(c, graded);
        return List.of(outcomes);
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
