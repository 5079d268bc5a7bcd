package org.examsuite.answer.persistence;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.examsuite.answer.draft.Draft;
import org.examsuite.answer.draft.DraftStore;
import org.examsuite.answer.persistence.WriteBehindQueue.Claim;
import org.examsuite.answer.persistence.WriteBehindQueue.Claimed;
import org.examsuite.common.redis.RedisKeys;
import org.jboss.logging.Logger;

/**
 * Copies acknowledged drafts from Redis to PostgreSQL. Each round claims a batch of dirty
 * drafts (atomically, so replicas share the work), reads what changed since the last flush
 * of each, writes all of it in one transaction (version-guarded, with history rows) and then
 * acks the claims. Many saves of a session between two rounds become one write. A failed
 * round gives its claims back; a crashed one leaves them to expire and be claimed again.
 */
@ApplicationScoped
public class WriteBehind {
    private static final Logger LOG = Logger.getLogger(WriteBehind.class);

    private final WriteBehindQueue queue;
    private final DraftStore store;
    private final DraftRepository repository;
    private final Vertx vertx;
    private final Clock clock;
    private final Tracer tracer;
    private final MeterRegistry registry;
    private final boolean enabled;
    private final Duration interval;
    private final Duration idleInterval;
    private final int batchSize;
    private final Duration lease;
    private final int concurrency;

    @Inject
    WriteBehind(WriteBehindQueue queue, DraftStore store, DraftRepository repository, Vertx vertx, Clock clock,
            Tracer tracer, MeterRegistry registry, WriteBehindConfig config) {
        this.queue = queue;
        this.store = store;
        this.repository = repository;
        this.vertx = vertx;
        this.clock = clock;
        this.tracer = tracer;
        this.registry = registry;
        this.enabled = config.enabled();
        this.interval = config.interval();
        this.idleInterval = config.idleInterval();
        this.batchSize = config.batchSize();
        this.lease = config.lease();
        this.concurrency = config.concurrency();
    }

    private volatile boolean running;
    private volatile boolean stopped;
    /** Bumped by each resume: a loop of an earlier run ends instead of running beside the new ones. */
    private final AtomicInteger runId = new AtomicInteger();
    private final AtomicInteger roundsInFlight = new AtomicInteger();
    private final AtomicLong oldestPendingMs = new AtomicLong();
    private Timer lag;

    void start(@Observes StartupEvent event) {
        lag = Timer.builder("exam.answer.persist.lag")
                .description("Time from a draft change's acknowledgement to its commit in PostgreSQL (upper bound)")
                .publishPercentileHistogram().minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofMinutes(5)).register(registry);
        registry.gauge("exam.answer.persist.backlog.age.seconds", oldestPendingMs,
                v -> v.get() == 0 ? 0 : Math.max(0, clock.millis() - v.get()) / 1000.0);
        if (enabled) {
            resume();
        }
        // The backlog's age for the gauge, once a second (a read of every shard: not per round).
        vertx.setPeriodic(1000, id -> {
            if (running) {
                queue.oldestPendingMs().subscribe().with(oldestPendingMs::set, failure -> { });
            }
        });
    }

    void stop(@Observes ShutdownEvent event) {
        stopped = true;
        running = false;
    }

    /**
     * Starts the flush loops (idempotent): {@code concurrency} of them, so that one batch's
     * PostgreSQL transaction overlaps the next batch's claim and Redis reads. Claims are
     * atomic, so the loops never share a claim.
     */
    public synchronized void resume() {
        if (!running && !stopped) {
            running = true;
            int run = runId.incrementAndGet();
            for (int i = 0; i < concurrency; i++) {
                schedule(run, i * interval.toMillis() / concurrency, new IdlePolling(idleInterval.toMillis()));
            }
        }
    }

    /** Stops the loops after their current rounds; claimed work is finished, unclaimed work waits in Redis. */
    public synchronized void pause() {
        running = false;
    }

    public boolean isRunning() {
        return running;
    }

    /** Whether a loop is in a round now (after {@link #pause()}, wait for false before relying on it). */
    public boolean isInRound() {
        return roundsInFlight.get() > 0;
    }

    private void schedule(int run, long delayMs, IdlePolling polling) {
        vertx.setTimer(Math.max(1, delayMs), id -> {
            // Counted in a round before the running check: a pause() racing this timer either
            // stops it here or sees the round.
            roundsInFlight.incrementAndGet();
            if (!running || run != runId.get()) {
                roundsInFlight.decrementAndGet();
                return;
            }
            long now = clock.millis();
            long marks = store.dirtyMarks();
            if (!polling.due(now, marks)) {
                roundsInFlight.decrementAndGet();
                schedule(run, interval.toMillis(), polling);
                return;
            }
            polling.claiming(now, marks);
            round().subscribe().with(claimed -> {
                roundsInFlight.decrementAndGet();
                polling.claimed(!claimed.claims().isEmpty());
                schedule(run, claimed.backlog() ? 0 : interval.toMillis(), polling);
            }, failure -> {
                roundsInFlight.decrementAndGet();
                polling.claimed(true);
                LOG.warnf("write-behind round failed: %s", failure.toString());
                schedule(run, Math.max(interval.toMillis(), 1000), polling);
            });
        });
    }

    /** One round: claims, flushes and settles one batch; the number of drafts claimed. */
    public Uni<Integer> flushOnce() {
        return round().map(claimed -> claimed.claims().size());
    }

    /** Claims a batch spread over the shards, then flushes and settles it. */
    private Uni<Claimed> round() {
        long now = clock.millis();
        int perShard = Math.max(1, (batchSize + RedisKeys.SHARDS - 1) / RedisKeys.SHARDS);
        return queue.claim(now, lease.toMillis(), perShard).chain(claimed -> claimed.claims().isEmpty()
                ? Uni.createFrom().item(claimed)
                : flush(claimed.claims()).replaceWith(claimed));
    }

    private Uni<Integer> flush(List<Claim> claims) {
        Span span = tracer.spanBuilder("answer write-behind flush").setParent(Context.root())
                .setAttribute("exam.drafts", claims.size()).startSpan();
        // A session claimed twice (an expired claim and a fresh one) is flushed once.
        Map<String, Claim> bySession = new LinkedHashMap<>();
        claims.forEach(c -> bySession.merge(c.sessionId(), c, (a, b) -> a.sinceMs() <= b.sinceMs() ? a : b));
        // One pipelined read for the whole batch, one transaction, one pipelined mark, one ack.
        return store.readUnpersisted(new ArrayList<>(bySession.keySet()))
                .chain(drafts -> {
                    List<Draft> present = drafts.stream().filter(Objects::nonNull).toList();
                    span.setAttribute("exam.answers", present.stream().mapToLong(d -> d.answers().size()).sum());
                    return repository.persist(present).replaceWith(present);
                })
                .chain(present -> store.markPersisted(present).chain(() -> queue.ack(claims)))
                .invoke(() -> {
                    long done = clock.millis();
                    bySession.values().forEach(c -> lag.record(Duration.ofMillis(Math.max(0, done - c.sinceMs()))));
                    span.end();
                })
                .replaceWith(claims.size())
                .onFailure().call(failure -> {
                    span.recordException(failure);
                    span.setStatus(StatusCode.ERROR);
                    span.end();
                    return queue.release(claims).onFailure().recoverWithNull();
                });
    }
}
