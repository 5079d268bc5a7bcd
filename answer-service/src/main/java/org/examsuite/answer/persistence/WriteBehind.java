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
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.examsuite.answer.draft.Draft;
import org.examsuite.answer.draft.DraftStore;
import org.examsuite.answer.persistence.WriteBehindQueue.Claim;
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

    @Inject
    WriteBehindQueue queue;
    @Inject
    DraftStore store;
    @Inject
    DraftRepository repository;
    @Inject
    Vertx vertx;
    @Inject
    Clock clock;
    @Inject
    Tracer tracer;
    @Inject
    MeterRegistry registry;
    @ConfigProperty(name = "exam.answer.write-behind.enabled")
    boolean enabled;
    @ConfigProperty(name = "exam.answer.write-behind.interval")
    Duration interval;
    @ConfigProperty(name = "exam.answer.write-behind.batch-size")
    int batchSize;
    @ConfigProperty(name = "exam.answer.write-behind.lease")
    Duration lease;

    private volatile boolean running;
    private volatile boolean inRound;
    private volatile boolean stopped;
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
    }

    void stop(@Observes ShutdownEvent event) {
        stopped = true;
        running = false;
    }

    /** Starts the flush loop (idempotent). */
    public synchronized void resume() {
        if (!running && !stopped) {
            running = true;
            schedule(0);
        }
    }

    /** Stops the loop after the current round; claimed work is finished, unclaimed work waits in Redis. */
    public synchronized void pause() {
        running = false;
    }

    public boolean isRunning() {
        return running;
    }

    /** Whether the loop is in a round now (after {@link #pause()}, wait for false before relying on it). */
    public boolean isInRound() {
        return inRound;
    }

    private void schedule(long delayMs) {
        vertx.setTimer(Math.max(1, delayMs), id -> {
            // inRound before the running check: a pause() racing this timer either stops it
            // here or sees the round (both fields volatile).
            inRound = true;
            if (!running) {
                inRound = false;
                return;
            }
            flushOnce().subscribe().with(flushed -> {
                inRound = false;
                schedule(flushed >= batchSize ? 0 : interval.toMillis());
            }, failure -> {
                inRound = false;
                LOG.warnf("write-behind round failed: %s", failure.toString());
                schedule(Math.max(interval.toMillis(), 1000));
            });
        });
    }

    /** One round: claims, flushes and settles one batch; the number of drafts claimed. */
    public Uni<Integer> flushOnce() {
        long now = clock.millis();
        return queue.oldestPendingMs().invoke(oldestPendingMs::set)
                .chain(() -> queue.claim(now, lease.toMillis(), batchSize))
                .chain(claims -> claims.isEmpty() ? Uni.createFrom().item(0) : flush(claims));
    }

    private Uni<Integer> flush(List<Claim> claims) {
        Span span = tracer.spanBuilder("answer write-behind flush").setParent(Context.root())
                .setAttribute("exam.drafts", claims.size()).startSpan();
        // A session claimed twice (an expired claim and a fresh one) is flushed once.
        Map<String, Claim> bySession = new LinkedHashMap<>();
        claims.forEach(c -> bySession.merge(c.sessionId(), c, (a, b) -> a.sinceMs() <= b.sinceMs() ? a : b));
        List<Uni<Draft>> reads = new ArrayList<>();
        bySession.keySet().forEach(sessionId -> reads.add(store.readUnpersisted(sessionId)));
        return Uni.join().all(reads).andFailFast()
                .chain(drafts -> {
                    List<Draft> present = drafts.stream().filter(Objects::nonNull).toList();
                    span.setAttribute("exam.answers", present.stream().mapToLong(d -> d.answers().size()).sum());
                    return repository.persist(present).replaceWith(present);
                })
                .chain(present -> markPersisted(present).chain(() -> queue.ack(claims)))
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

    private Uni<Void> markPersisted(List<Draft> drafts) {
        if (drafts.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        List<Uni<Void>> marks = new ArrayList<>();
        drafts.forEach(d -> marks.add(store.markPersisted(d)));
        return Uni.join().all(marks).andFailFast().replaceWithVoid();
    }
}
