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
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.examsuite.grading.archive.ArchiveStore;
import org.examsuite.grading.archive.ArchiveStore.ArchiveRecord;
import org.examsuite.grading.db.Db;
import org.examsuite.grading.results.ResultStore;
import org.examsuite.grading.saga.SagaContext;
import org.examsuite.grading.saga.StepFailure;
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
    Db db;
    @Inject
    ObjectMapper mapper;

    @ConfigProperty(name = "exam.archive.append-batch", defaultValue = "100")
    int maxBatch;
    @ConfigProperty(name = "exam.archive.append-timeout", defaultValue = "30s")
    java.time.Duration timeout;

    private record Request(SagaContext context, JsonNode grade, CompletableFuture<ArchiveRecord> done) {
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
     */
    public ArchiveRecord append(SagaContext context, JsonNode grade) {
        if (!running) {
            throw StepFailure.transientFailure("the archive appender is stopping");
        }
        Request request = new Request(context, grade, new CompletableFuture<>());
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
        List<ArchiveStore.Appended> appended;
        try {
            appended = db.inAsyncTransaction(c -> appendAll(c, batch));
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
            ArchiveStore.Appended outcome = appended.get(i);
            if (outcome.conflict() != null) {
                batch.get(i).done().completeExceptionally(outcome.conflict());
            } else {
                batch.get(i).done().complete(outcome.record());
            }
        }
    }

    private List<ArchiveStore.Appended> appendAll(Connection c, List<Request> batch) throws SQLException {
        List<ArchiveStore.Append> appends = new ArrayList<>(batch.size());
        for (Request request : batch) {
            SagaContext context = request.context();
            appends.add(new ArchiveStore.Append(context.paperId(), ArchiveStep.RESULT, context.run(),
                    superseded -> payload(context, request.grade(), superseded), true));
        }
        List<ArchiveStore.Appended> appended = archive.appendAll(c, appends);
        List<ResultStore.Graded> graded = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            ArchiveRecord record = appended.get(i).record();
            if (record != null) {
                SagaContext context = batch.get(i).context();
                JsonNode grade = batch.get(i).grade();
                graded.add(new ResultStore.Graded(context.paperId(), context.run(), record.seq(),
                        grade.path("score").decimalValue(), grade.path("maxScore").decimalValue(), grade.path("marks").toString(),
                        grade.path("keyRevision").asLong(), grade.path("candidateId").asText(null)));
            }
        }
        results.gradedAll(c, graded);
        return appended;
    }

    private ObjectNode payload(SagaContext context, JsonNode grade, Optional<ArchiveRecord> superseded) {
        ObjectNode payload = mapper.createObjectNode();
        payload.put("paperId", context.paperId());
        payload.put("run", context.run());
        payload.put("sagaId", context.sagaId().toString());
        payload.put("sessionId", context.sessionId());
        payload.put("examId", context.examId());
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
