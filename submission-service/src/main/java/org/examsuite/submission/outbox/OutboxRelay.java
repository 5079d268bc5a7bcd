package org.examsuite.submission.outbox;

import org.examsuite.common.redis.SharedReactiveRedisDataSource;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.examsuite.common.tracing.StreamTracing;
import org.examsuite.submission.session.SessionClient;
import org.jboss.logging.Logger;

/**
 * The transactional outbox's relay. Each paper's rows were committed with the paper, so a
 * crash between commit and publish loses nothing: the next run (on any replica) finds them.
 * Rows are claimed with {@code FOR UPDATE SKIP LOCKED} and a lease, so replicas never send
 * the same row at once and a relay that dies mid-way is taken over when its lease ends.
 * <ul>
 * <li>PAPER_PUBLISH: XADD to {@code exam.papers.stream} with the submitting request's trace
 * context; published again every {@code republish-after} until grading-saga confirms
 * (grading-started) — at least once, even if Redis loses the stream entry.</li>
 * <li>SESSION_SUBMITTED: tells session-service, retried with backoff until it answers 2xx.</li>
 * </ul>
 * Runs every {@code poll-interval} and {@code kick-delay} after a paper is stored
 * ({@link #kick()}); the papers stored meanwhile go in the same run. Without the delay each
 * paper of a steady rush had a run of its own — three PostgreSQL statements (claim, two marks)
 * per paper at 300 papers/s instead of three per run.
 */
@ApplicationScoped
public class OutboxRelay {
    private static final Logger LOG = Logger.getLogger(OutboxRelay.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    /** Sessions per call to session-service (its limit is 200). */
    private static final int NOTIFY_BATCH = 200;

    private final Pool pool;
    private final SharedReactiveRedisDataSource reactiveRedis;
    private final SessionClient sessions;
    private final Clock clock;
    private final StreamTracing tracing;
    private final Tracer tracer;
    private final String stream;
    private final boolean enabled;
    private final Duration pollInterval;
    private final Duration republishAfter;
    private final Duration lease;
    private final int batchSize;
    private final Duration kickDelay;

    @Inject
    OutboxRelay(Pool pool, SharedReactiveRedisDataSource reactiveRedis, @RestClient SessionClient sessions, Clock clock,
            StreamTracing tracing, Tracer tracer, PaperStreamConfig papers, OutboxConfig config) {
        this.pool = pool;
        this.reactiveRedis = reactiveRedis;
        this.sessions = sessions;
        this.clock = clock;
        this.tracing = tracing;
        this.tracer = tracer;
        this.stream = papers.stream();
        this.enabled = config.relay().enabled();
        this.pollInterval = config.pollInterval();
        this.republishAfter = config.republishAfter();
        this.lease = config.lease();
        this.batchSize = config.batchSize();
        this.kickDelay = config.kickDelay();
    }

    private final AtomicBoolean running = new AtomicBoolean();
    private final AtomicBoolean wanted = new AtomicBoolean();
    private ScheduledExecutorService executor;
    /** session-service calls of one run go out side by side. */
    private final ExecutorService notifier = Executors.newFixedThreadPool(8, runnable -> {
        Thread thread = new Thread(runnable, "outbox-notifier");
        thread.setDaemon(true);
        return thread;
    });

    void start(@Observes StartupEvent event) {
        if (!enabled) {
            return;
        }
        executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "outbox-relay");
            thread.setDaemon(true);
            return thread;
        });
        executor.scheduleWithFixedDelay(this::kick, pollInterval.toMillis(), pollInterval.toMillis(), TimeUnit.MILLISECONDS);
    }

    void stop(@Observes ShutdownEvent event) {
        if (executor != null) {
            executor.shutdownNow();
        }
        notifier.shutdownNow();
    }

    /** Asks for a run within {@code kick-delay}; the kicks until it starts, and during it, fold into it and one more run. */
    public void kick() {
        if (executor == null) {
            return;
        }
        wanted.set(true);
        if (running.compareAndSet(false, true)) {
            schedule();
        }
    }

    private void schedule() {
        try {
            executor.schedule(this::drain, kickDelay.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            running.set(false); // shutting down
        }
    }

    private void drain() {
        try {
            wanted.set(false);
            while (runOnce() >= batchSize) {
                // a full batch: there is more to send
            }
        } catch (RuntimeException e) {
            LOG.warnf("outbox relay run failed: %s", e.toString());
        } finally {
            running.set(false);
        }
        // Papers stored during the run: one more run, after the delay, with whatever came meanwhile.
        if (wanted.get() && running.compareAndSet(false, true)) {
            schedule();
        }
    }

    /**
     * One pass over the due rows; returns how many it claimed. The claimed rows are sent
     * concurrently (XADDs pipelined on the Redis connections, session-service calls on a small
     * pool) and marked in one UPDATE, so the relay keeps up with a deadline storm.
     * Public for tests and tooling.
     */
    public int runOnce() {
        Instant now = clock.instant();
        List<Row> claimed = new ArrayList<>();
        pool.preparedQuery("UPDATE outbox SET next_attempt_at = $1, attempts = attempts + 1 WHERE id IN ("
                + "SELECT id FROM outbox WHERE done_at IS NULL AND next_attempt_at <= $2 "
                + "ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED) "
                + "RETURNING id, kind, paper_id, session_id, exam_id, traceparent, tracestate, attempts")
                .execute(Tuple.of(at(now.plus(lease)), at(now), batchSize)).await().atMost(TIMEOUT)
                .forEach(claimed::add);
        List<Row> papers = new ArrayList<>();
        List<Row> notes = new ArrayList<>();
        claimed.forEach(row -> (isPaper(row) ? papers : notes).add(row));
        List<CompletableFuture<Void>> sends = new ArrayList<>(papers.size());
        for (Row row : papers) {
            sends.add(send(row));
        }
        // The sessions to tell go in one call per NOTIFY_BATCH rows (the papers of a rush share it).
        List<List<Row>> noteBatches = new ArrayList<>();
        for (int i = 0; i < notes.size(); i += NOTIFY_BATCH) {
            noteBatches.add(notes.subList(i, Math.min(notes.size(), i + NOTIFY_BATCH)));
        }
        List<CompletableFuture<Map<String, String>>> told = new ArrayList<>(noteBatches.size());
        noteBatches.forEach(batch -> told.add(notifyAll(batch)));
        List<Long> published = new ArrayList<>();
        List<Long> notified = new ArrayList<>();
        for (int i = 0; i < papers.size(); i++) {
            Row row = papers.get(i);
            Throwable failure = outcome(sends.get(i));
            if (failure == null) {
                published.add(row.getLong("id"));
            } else {
                retryLater(row, now, failure);
            }
        }
        for (int i = 0; i < noteBatches.size(); i++) {
            Map<String, String> failed = Map.of();
            Throwable failure = outcome(told.get(i));
            if (failure == null) {
                failed = told.get(i).join();
            }
            for (Row row : noteBatches.get(i)) {
                String code = failed.get(row.getString("session_id"));
                if (failure != null) {
                    retryLater(row, now, failure);
                } else if (code != null) {
                    retryLater(row, now, new IllegalStateException("session-service answered " + code));
                } else {
                    notified.add(row.getLong("id"));
                }
            }
        }
        markSent(published, now.plus(republishAfter), false);
        markSent(notified, now, true);
        return claimed.size();
    }

    /** Null when the send completed within the timeout, else why not. */
    private static Throwable outcome(CompletableFuture<?> send) {
        try {
            send.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return e;
        } catch (ExecutionException e) {
            return e.getCause() == null ? e : e.getCause();
        } catch (TimeoutException e) {
            return e;
        }
    }

    /**
     * Tells session-service about many stored papers in one call; the sessions it could not
     * record, with its problem code. The call's span continues the first row's trace and links
     * every row's, so each paper's trace still reaches session-service.
     */
    private CompletableFuture<Map<String, String>> notifyAll(List<Row> rows) {
        var builder = tracer.spanBuilder("outbox SESSION_SUBMITTED")
                .setParent(tracing.extract(storedTrace(rows.get(0))))
                .setSpanKind(SpanKind.CLIENT)
                .setAttribute("exam.papers", rows.size());
        for (Row row : rows.subList(1, rows.size())) {
            builder.addLink(Span.fromContext(tracing.extract(storedTrace(row))).getSpanContext());
        }
        Span span = builder.startSpan();
        CompletableFuture<Map<String, String>> sent;
        try (Scope ignored = span.makeCurrent()) {
            Context context = Context.current();
            sent = CompletableFuture.supplyAsync(() -> {
                try (Scope inner = context.makeCurrent()) {
                    return notifySessions(rows);
                }
            }, notifier);
        } catch (RuntimeException e) {
            sent = CompletableFuture.failedFuture(e);
        }
        return ending(span, sent);
    }

    private Map<String, String> notifySessions(List<Row> rows) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        ArrayNode papers = body.putArray("papers");
        rows.forEach(row -> papers.addObject().put("sessionId", row.getString("session_id"))
                .put("paperId", row.getUUID("paper_id").toString()));
        JsonNode reply;
        try {
            reply = sessions.submittedAll(body);
        } catch (WebApplicationException e) {
            int status = e.getResponse().getStatus();
            if (status != 404 && status != 405) {
                throw e;
            }
            // A session-service of the previous release (a rolling upgrade): one call per session.
            Map<String, String> failed = new HashMap<>();
            for (Row row : rows) {
                try {
                    notifySession(row);
                } catch (RuntimeException one) {
                    failed.put(row.getString("session_id"), one.toString());
                }
            }
            return failed;
        }
        Map<String, String> failed = new HashMap<>();
        if (reply != null) {
            reply.path("failed").fields().forEachRemaining(entry -> failed.put(entry.getKey(), entry.getValue().asText()));
        }
        return failed;
    }

    /** {@code sent}, ending {@code span} when it completes (marked an error when it fails). */
    private static <T> CompletableFuture<T> ending(Span span, CompletableFuture<T> sent) {
        return sent.whenComplete((ok, error) -> {
            if (error != null) {
                span.setStatus(StatusCode.ERROR, error.toString());
            }
            span.end();
        });
    }

    /** Sends one row inside its span, a child of the trace of the request that stored the paper. */
    private CompletableFuture<Void> send(Row row) {
        Span span = tracer.spanBuilder("outbox " + row.getString("kind"))
                .setParent(tracing.extract(storedTrace(row)))
                .setSpanKind(SpanKind.PRODUCER)
                .setAttribute("exam.paper_id", row.getUUID("paper_id").toString())
                .startSpan();
        CompletableFuture<Void> sent;
        try (Scope ignored = span.makeCurrent()) {
            sent = reactiveRedis.execute("XADD", xaddArguments(row)).subscribeAsCompletionStage().thenApply(r -> null);
        } catch (RuntimeException e) {
            sent = CompletableFuture.failedFuture(e);
        }
        return ending(span, sent);
    }

    private void retryLater(Row row, Instant now, Throwable error) {
        Duration backoff = Duration.ofSeconds(Math.min(300, 1L << Math.min(8, row.getInteger("attempts"))));
        LOG.warnf("outbox row %d (%s, paper %s) failed, next try in %s: %s", row.getLong("id"), row.getString("kind"),
                row.getUUID("paper_id"), backoff, error.toString());
        pool.preparedQuery("UPDATE outbox SET next_attempt_at = $2, last_error = $3 WHERE id = $1")
                .execute(Tuple.of(row.getLong("id"), at(now.plus(backoff)), String.valueOf(error.getMessage())))
                .await().atMost(TIMEOUT);
    }

    private static boolean isPaper(Row row) {
        return "PAPER_PUBLISH".equals(row.getString("kind"));
    }

    private static Map<String, String> storedTrace(Row row) {
        Map<String, String> fields = new HashMap<>();
        for (String field : new String[] {"traceparent", "tracestate"}) {
            String value = row.getString(field);
            if (value != null && !value.isEmpty()) {
                fields.put(field, value);
            }
        }
        return fields;
    }

    /** XADD arguments; the trace fields are those of the current (relay) span, continued by grading-saga. */
    private String[] xaddArguments(Row row) {
        List<String> args = new ArrayList<>(List.of(stream, "*",
                "paperId", row.getUUID("paper_id").toString(),
                "sessionId", row.getString("session_id"),
                "examId", row.getString("exam_id")));
        tracing.currentContext().forEach((field, value) -> {
            args.add(field);
            args.add(value);
        });
        return args.toArray(String[]::new);
    }

    private void notifySession(Row row) {
        try (Response response = sessions.submitted(row.getString("session_id"),
                Map.of("paperId", row.getUUID("paper_id").toString()))) {
            if (response.getStatus() >= 300) {
                throw new IllegalStateException("session-service answered " + response.getStatus());
            }
        }
    }

    private void markSent(List<Long> ids, Instant nextAttempt, boolean done) {
        if (ids.isEmpty()) {
            return;
        }
        Instant now = clock.instant();
        pool.preparedQuery("UPDATE outbox SET last_sent_at = $2, next_attempt_at = $3, last_error = NULL, "
                + "done_at = CASE WHEN $4 THEN coalesce(done_at, $2) ELSE done_at END WHERE id = ANY($1)")
                .execute(Tuple.of(ids.toArray(Long[]::new), at(now), at(nextAttempt), done)).await().atMost(TIMEOUT);
    }

    /** grading-saga's confirmation: the paper's saga is durable, stop republishing. Idempotent. */
    public boolean confirmGradingStarted(UUID paperId) {
        int updated = pool.preparedQuery("UPDATE outbox SET done_at = coalesce(done_at, $2) "
                + "WHERE paper_id = $1 AND kind = 'PAPER_PUBLISH'")
                .execute(Tuple.of(paperId, at(clock.instant()))).await().atMost(TIMEOUT).rowCount();
        return updated > 0;
    }

    private static OffsetDateTime at(Instant instant) {
        return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }
}
