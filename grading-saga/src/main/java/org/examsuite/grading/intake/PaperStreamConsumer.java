package org.examsuite.grading.intake;

import org.examsuite.common.redis.SharedRedisDataSource;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.quarkus.redis.datasource.stream.ClaimedMessages;
import io.quarkus.redis.datasource.stream.StreamCommands;
import io.quarkus.redis.datasource.stream.StreamMessage;
import io.quarkus.redis.datasource.stream.XGroupCreateArgs;
import io.quarkus.redis.datasource.stream.XReadGroupArgs;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.examsuite.common.tracing.StreamTracing;
import org.examsuite.grading.clients.PaperSource;
import org.examsuite.grading.clients.RemoteFailure;
import org.examsuite.grading.saga.ReplicaId;
import org.jboss.logging.Logger;

/**
 * Reads {@code stream:{papers}} in the consumer group {@code grading}. For every batch:
 * the sagas are made durable first, then each paper is confirmed to submission-service,
 * and only then is its message acknowledged. A message whose confirmation failed stays
 * pending and comes back; a consumer that died with messages pending loses them to a live
 * one through XAUTOCLAIM once they have been idle for {@code claim-idle}.
 */
@ApplicationScoped
public class PaperStreamConsumer {
    private static final Logger LOG = Logger.getLogger(PaperStreamConsumer.class);

    private final SharedRedisDataSource redis;
    private final SagaStarter starter;
    private final PaperSource papers;
    private final StreamTracing streamTracing;
    private final Tracer tracer;
    private final ReplicaId replica;
    private final Clock clock;
    private final String streamKey;
    private final String group;
    private final boolean enabled;
    private final int batch;
    private final Duration block;
    private final Duration claimIdle;
    private final int confirmConcurrency;

    @Inject
    PaperStreamConsumer(SharedRedisDataSource redis, SagaStarter starter, PaperSource papers, StreamTracing streamTracing,
            Tracer tracer, ReplicaId replica, Clock clock, IntakeConfig config) {
        this.redis = redis;
        this.starter = starter;
        this.papers = papers;
        this.streamTracing = streamTracing;
        this.tracer = tracer;
        this.replica = replica;
        this.clock = clock;
        this.streamKey = config.papers().stream();
        this.group = config.grading().consumer().group();
        this.enabled = config.grading().consumer().enabled();
        this.batch = config.grading().consumer().batch();
        this.block = config.grading().consumer().block();
        this.claimIdle = config.grading().consumer().claimIdle();
        this.confirmConcurrency = config.grading().consumer().confirmConcurrency();
    }

    private StreamCommands<String, String, String> stream;
    private ExecutorService loop;
    private ExecutorService confirmers;
    private volatile boolean running;
    private Instant nextClaim = Instant.EPOCH;

    void onStart(@Observes StartupEvent event) {
        if (!enabled) {
            return;
        }
        stream = redis.stream(String.class);
        running = true;
        loop = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "papers-consumer");
            thread.setDaemon(true);
            return thread;
        });
        confirmers = Executors.newFixedThreadPool(confirmConcurrency, runnable -> {
            Thread thread = new Thread(runnable, "papers-confirm");
            thread.setDaemon(true);
            return thread;
        });
        loop.submit(this::consume);
    }

    void onStop(@Observes ShutdownEvent event) {
        running = false;
        if (loop != null) {
            loop.shutdown();
            confirmers.shutdown();
            try {
                loop.awaitTermination(block.toMillis() + 5000, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    public String consumerName() {
        return replica.get();
    }

    /** The group reads the stream from its first entry: papers published before grading-saga ever ran are graded too. */
    private void ensureGroup() {
        try {
            stream.xgroupCreate(streamKey, group, "0", new XGroupCreateArgs().mkstream());
        } catch (RuntimeException e) {
            if (e.getMessage() == null || !e.getMessage().contains("BUSYGROUP")) {
                throw e;
            }
        }
    }

    private void consume() {
        boolean groupReady = false;
        while (running) {
            try {
                if (!groupReady) {
                    // here, not at start-up: with Redis down the service still starts (not ready) and catches up later
                    ensureGroup();
                    groupReady = true;
                }
                if (!clock.instant().isBefore(nextClaim)) {
                    claimAbandoned();
                    nextClaim = clock.instant().plus(claimIdle.dividedBy(2));
                }
                List<StreamMessage<String, String, String>> messages = stream.xreadgroup(group, consumerName(), streamKey, ">",
                        new XReadGroupArgs().count(batch).block(block));
                if (messages != null && !messages.isEmpty()) {
                    handle(messages);
                }
            } catch (RuntimeException e) {
                if (!running) {
                    return;
                }
                LOG.warnf("papers consumer: %s", e.getMessage());
                if (e.getMessage() != null && e.getMessage().contains("NOGROUP")) {
                    ensureGroup();
                }
                pause();
            }
        }
    }

    /** Messages pending for longer than {@code claim-idle} (their consumer died, or their confirmation failed). */
    private void claimAbandoned() {
        String cursor = "0-0";
        do {
            ClaimedMessages<String, String, String> claimed = stream.xautoclaim(streamKey, group, consumerName(), claimIdle,
                    cursor, batch);
            List<StreamMessage<String, String, String>> messages = claimed.getMessages();
            if (messages != null && !messages.isEmpty()) {
                LOG.infof("claimed %d abandoned paper message(s)", messages.size());
                handle(messages);
            }
            cursor = claimed.getId();
        } while (running && cursor != null && !"0-0".equals(cursor));
    }

    void handle(List<StreamMessage<String, String, String>> messages) {
        List<SagaStarter.Start> starts = new ArrayList<>();
        List<String> poison = new ArrayList<>();
        List<Span> spans = new ArrayList<>();
        try {
            for (StreamMessage<String, String, String> message : messages) {
                if (message.payload() == null) {
                    poison.add(message.id());
                    continue;
                }
                PaperEvent event = PaperEvent.of(message.id(), message.payload());
                if (event == null) {
                    LOG.warnf("paper message %s lacks paperId/sessionId/examId: acknowledged and skipped", message.id());
                    poison.add(message.id());
                    continue;
                }
                Span span = tracer.spanBuilder("papers receive").setSpanKind(SpanKind.CONSUMER)
                        .setParent(streamTracing.extract(message.payload()))
                        .setAttribute("exam.paper.id", event.paperId()).startSpan();
                spans.add(span);
                try (Scope ignored = span.makeCurrent()) {
                    starts.add(new SagaStarter.Start(event, streamTracing.currentContext()));
                }
            }
            if (!poison.isEmpty()) {
                stream.xack(streamKey, group, poison.toArray(String[]::new));
            }
            if (starts.isEmpty()) {
                return;
            }
            starter.start(starts);
            List<CompletableFuture<String>> confirmations = new ArrayList<>();
            for (int i = 0; i < starts.size(); i++) {
                SagaStarter.Start start = starts.get(i);
                Span span = spans.get(i);
                confirmations.add(CompletableFuture.supplyAsync(() -> confirm(start.event(), span), confirmers));
            }
            List<String> confirmed = new ArrayList<>();
            for (CompletableFuture<String> confirmation : confirmations) {
                String messageId = confirmation.join();
                if (messageId != null) {
                    confirmed.add(messageId);
                }
            }
            if (!confirmed.isEmpty()) {
                stream.xack(streamKey, group, confirmed.toArray(String[]::new));
            }
        } finally {
            spans.forEach(Span::end);
        }
    }

    /**
     * Confirms one paper; the message id when its message may be acknowledged. A failed
     * confirmation leaves the message pending: it is claimed again after claim-idle, and
     * submission-service's relay republishes unconfirmed papers anyway.
     */
    private String confirm(PaperEvent event, Span span) {
        try (Scope ignored = span.makeCurrent()) {
            papers.gradingStarted(event.paperId());
            return event.messageId();
        } catch (RemoteFailure.Permanent e) {
            if (e.status() == 404) {
                // submission-service knows no such paper: asking again cannot help, and the saga itself ends in
                // NEEDS_REVIEW when it cannot fetch the paper. Acknowledge, and say so.
                LOG.warnf("submission-service knows no paper %s: message acknowledged", event.paperId());
                return event.messageId();
            }
            LOG.warnf("could not confirm paper %s to submission-service: %s", event.paperId(), e.getMessage());
            return null;
        } catch (RuntimeException e) {
            LOG.warnf("could not confirm paper %s to submission-service: %s", event.paperId(), e.getMessage());
            return null;
        }
    }

    private void pause() {
        try {
            Thread.sleep(Math.min(block.toMillis(), 1000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }
}
