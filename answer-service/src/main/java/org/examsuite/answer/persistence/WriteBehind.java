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
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.examsuite.answer.draft.Draft;
import org.examsuite.answer.draft.DraftStore;
import org.examsuite.answer.draft.LoggedChanges;
import org.examsuite.answer.draft.StampedAnswer;
import org.examsuite.answer.persistence.WriteBehindLog.Batch;
import org.examsuite.common.redis.RedisKeys;
import org.jboss.logging.Logger;

/**
 * Copies acknowledged changes from Redis to PostgreSQL. Each round reads a batch of the
 * write-behind log (every shard's stream, as one consumer of the replicas' group, so replicas
 * share the work), writes it in one transaction (history rows by stamp, the drafts' rows) and
 * then acknowledges and deletes the entries. No per-session bookkeeping: the log holds the values
 * the autosaves applied, so nothing is read back from the drafts. A failed round reads its own
 * pending entries again; a crashed flusher's entries are claimed by another after the lease.
 */
@ApplicationScoped
public class WriteBehind {
    private static final Logger LOG = Logger.getLogger(WriteBehind.class);
    /** A consumer idle this many leases with nothing pending belongs to a flusher that is gone. */
    static final int GONE_AFTER_LEASES = 10;

    private final WriteBehindLog log;
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
    WriteBehind(WriteBehindLog log, DraftStore store, DraftRepository repository, Vertx vertx, Clock clock,
            Tracer tracer, MeterRegistry registry, WriteBehindConfig config) {
        this.log = log;
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
    /** This replica's flushers' names in the group: one per loop (a failed loop re-reads only its own entries). */
    private final String replica = UUID.randomUUID().toString().substring(0, 8);
    private volatile long reclaimedAtMs;
    private Timer lag;

    void start(@Observes StartupEvent event) {
        lag = Timer.builder("exam.answer.persist.lag")
                .description("Time from a change's entry in the write-behind log (its acknowledgement) to its commit in PostgreSQL")
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
                log.oldestPendingMs().subscribe().with(oldestPendingMs::set, failure -> { });
            }
        });
    }

    void stop(@Observes ShutdownEvent event) {
        stopped = true;
        running = false;
    }

    /**
     * Starts the flush loops (idempotent): {@code concurrency} of them, so that one batch's
     * PostgreSQL transaction overlaps the next batch's Redis reads. Each loop is a consumer of
     * its own in the group, so the loops never share an entry.
     */
    public synchronized void resume() {
        if (!running && !stopped) {
            running = true;
            int run = runId.incrementAndGet();
            for (int i = 0; i < concurrency; i++) {
                schedule(run, new Loop(replica + "-" + i, true), i * interval.toMillis() / concurrency,
                        new IdlePolling(idleInterval.toMillis()));
            }
        }
    }

    /** Stops the loops after their current rounds; work read is finished, the rest waits in Redis. */
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

    /**
     * One flush loop's consumer name, and whether its next round re-reads the entries delivered to
     * that name and not yet done: after a failed round, and first of all (what the name left).
     */
    private static final class Loop {
        final String consumer;
        boolean retryOwn;

        Loop(String consumer, boolean retryOwn) {
            this.consumer = consumer;
            this.retryOwn = retryOwn;
        }
    }

    private void schedule(int run, Loop loop, long delayMs, IdlePolling polling) {
        vertx.setTimer(Math.max(1, delayMs), id -> {
            // Counted in a round before the running check: a pause() racing this timer either
            // stops it here or sees the round.
            roundsInFlight.incrementAndGet();
            if (!running || run != runId.get()) {
                roundsInFlight.decrementAndGet();
                return;
            }
            long now = clock.millis();
            long logged = store.logged();
            if (!loop.retryOwn && !polling.due(now, logged)) {
                roundsInFlight.decrementAndGet();
                schedule(run, loop, interval.toMillis(), polling);
                return;
            }
            polling.reading(now, logged);
            round(loop).subscribe().with(read -> {
                roundsInFlight.decrementAndGet();
                loop.retryOwn = false;
                polling.found(read.entries() > 0);
                schedule(run, loop, read.backlog() ? 0 : interval.toMillis(), polling);
            }, failure -> {
                roundsInFlight.decrementAndGet();
                loop.retryOwn = true;
                polling.found(true);
                LOG.warnf("write-behind round failed: %s", failure.toString());
                schedule(run, loop, Math.max(interval.toMillis(), 1000), polling);
            });
        });
    }

    /** What a round read, and whether some shard had more than it took (go again at once). */
    private record Read(int entries, boolean backlog) {
    }

    /**
     * One round as the flusher named {@code consumer}: what was delivered to that name and not
     * done, or when there is none, new entries; the number of log entries flushed.
     */
    public Uni<Integer> flushOnce(String consumer) {
        return round(new Loop(consumer, true)).chain(own -> own.entries() > 0 ? Uni.createFrom().item(own)
                : round(new Loop(consumer, false))).map(Read::entries);
    }

    /** {@link #flushOnce(String)} as this replica's first loop. */
    public Uni<Integer> flushOnce() {
        return flushOnce(replica + "-0");
    }

    /**
     * Reads a batch spread over the shards — the loop's own pending entries after a failure,
     * else new ones, and once per half lease what crashed flushers left (each round while they
     * left more) — then flushes it. With {@code reclaim} the batches alternate: read, reclaimed.
     */
    private Uni<Read> round(Loop loop) {
        int perShard = Math.max(1, (batchSize + RedisKeys.SHARDS - 1) / RedisKeys.SHARDS);
        long now = clock.millis();
        boolean reclaim = now - reclaimedAtMs >= lease.toMillis() / 2;
        if (reclaim) {
            reclaimedAtMs = now;
        }
        List<Uni<Batch>> reads = new ArrayList<>(RedisKeys.SHARDS * 2);
        for (int shard = 0; shard < RedisKeys.SHARDS; shard++) {
            reads.add(log.read(shard, loop.consumer, perShard, loop.retryOwn));
            if (reclaim) {
                reads.add(log.reclaim(shard, loop.consumer, lease.toMillis(), perShard));
                log.forgetGone(shard, GONE_AFTER_LEASES * lease.toMillis()).subscribe().with(gone -> { }, failure -> { });
            }
        }
        return Uni.join().all(reads).andCollectFailures().chain(batches -> {
            for (int i = 1; reclaim && i < batches.size(); i += 2) {
                if (batches.get(i).entries().size() >= perShard) {
                    reclaimedAtMs = 0; // a crashed flusher left more than one batch: claim again next round
                }
            }
            int entries = batches.stream().mapToInt(b -> b.entries().size()).sum();
            boolean backlog = batches.stream().anyMatch(b -> b.entries().size() >= perShard);
            return entries == 0 ? Uni.createFrom().item(new Read(0, false))
                    : flush(batches).replaceWith(new Read(entries, backlog));
        });
    }

    private Uni<Void> flush(List<Batch> batches) {
        List<LoggedChanges> entries = new ArrayList<>();
        batches.forEach(b -> entries.addAll(b.entries()));
        List<Draft> drafts = drafts(entries);
        Span span = tracer.spanBuilder("answer write-behind flush").setParent(Context.root())
                .setAttribute("exam.drafts", drafts.size()).setAttribute("exam.log.entries", entries.size())
                .setAttribute("exam.answers", drafts.stream().mapToLong(d -> d.answers().size()).sum()).startSpan();
        Map<Integer, List<String>> idsByShard = new LinkedHashMap<>();
        batches.forEach(b -> b.entries().forEach(e -> idsByShard.computeIfAbsent(b.shard(), s -> new ArrayList<>()).add(e.id())));
        List<Uni<Void>> acks = new ArrayList<>(idsByShard.size());
        idsByShard.forEach((shard, ids) -> acks.add(log.done(shard, ids)));
        return repository.persist(drafts)
                .chain(() -> Uni.join().all(acks).andCollectFailures())
                .invoke(() -> {
                    long done = clock.millis();
                    entries.forEach(e -> {
                        if (e.sessionId() != null) {
                            lag.record(Duration.ofMillis(Math.max(0, done - e.loggedAtMs())));
                        }
                    });
                    span.end();
                })
                .replaceWithVoid()
                .onFailure().invoke(failure -> {
                    span.recordException(failure);
                    span.setStatus(StatusCode.ERROR);
                    span.end();
                });
    }

    /**
     * One draft row per session with the answers its entries carry: of a question logged more
     * than once in the batch only the highest stamp (the others could never be the answer), the
     * draft's generation, version and late count as the newest entry saw them.
     */
    static List<Draft> drafts(List<LoggedChanges> entries) {
        Map<String, Draft> bySession = new LinkedHashMap<>();
        for (LoggedChanges e : entries) {
            if (e.sessionId() == null) {
                continue;
            }
            Draft held = bySession.get(e.sessionId());
            Map<String, StampedAnswer> answers = held == null ? new LinkedHashMap<>() : held.answers();
            for (StampedAnswer a : e.answers()) {
                StampedAnswer other = answers.get(a.questionId());
                if (other == null || a.isNewerThan(other.epoch(), other.version())) {
                    answers.put(a.questionId(), a);
                }
            }
            bySession.put(e.sessionId(), held == null
                    ? new Draft(e.sessionId(), e.examId(), e.generation(), e.draftVersion(), e.lateChanges(), 0, answers)
                    : new Draft(e.sessionId(), held.examId().isEmpty() ? e.examId() : held.examId(),
                            Math.max(held.generation(), e.generation()), Math.max(held.version(), e.draftVersion()),
                            Math.max(held.lateChanges(), e.lateChanges()), 0, answers));
        }
        return new ArrayList<>(bySession.values());
    }
}
