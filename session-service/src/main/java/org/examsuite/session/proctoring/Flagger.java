package org.examsuite.session.proctoring;

import org.examsuite.common.redis.SharedReactiveRedisDataSource;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.stream.ReactiveStreamCommands;
import io.quarkus.redis.datasource.stream.StreamMessage;
import io.quarkus.redis.datasource.stream.XGroupCreateArgs;
import io.quarkus.redis.datasource.stream.XReadGroupArgs;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.RedisAPI;
import io.vertx.mutiny.redis.client.Response;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.examsuite.common.redis.LuaScript;
import org.examsuite.common.redis.RedisKeys;
import org.examsuite.session.exam.ExamStore;
import org.jboss.logging.Logger;

/**
 * Evaluates the proctoring rules ({@link FlagRules}) on the exams' event streams: one consumer
 * group per stream, a consumer per replica, so replicas share the events; entries a dead
 * replica held are claimed again after {@code claim-idle}. Raising a flag is one atomic script
 * per session that counts an event once and raises a rule's flag once, so an entry processed
 * twice (a claim after a crash, a retry) changes nothing.
 */
@ApplicationScoped
public class Flagger {
    private static final Logger LOG = Logger.getLogger(Flagger.class);
    static final String GROUP = "proctoring-rules";
    /** Exams read: open ones, and those closed this recently (late events, auto-submitted takeovers). */
    private static final Duration AFTER_CLOSE = Duration.ofHours(1);

    private final LuaScript flagScript = LuaScript.of(Flagger.class, "flag.lua");
    private final String consumer = "session-" + UUID.randomUUID();
    private final Map<String, Counter> raised = new ConcurrentHashMap<>();
    private final ReactiveStreamCommands<String, String, String> streams;
    private final ReactiveRedisDataSource redisData;
    private final RedisAPI redis;
    private final ExamStore exams;
    private final Pool pool;
    private final FlagRules rules;
    private final MeterRegistry registry;
    private final Clock clock;
    private volatile Set<String> examIds = Set.of();
    private volatile Instant examsReadAt = Instant.EPOCH;

    Flagger(SharedReactiveRedisDataSource redisData, RedisAPI redis, ExamStore exams, Pool pool, FlagRules rules,
            MeterRegistry registry, Clock clock) {
        this.redisData = redisData;
        this.streams = redisData.stream(String.class);
        this.redis = redis;
        this.exams = exams;
        this.pool = pool;
        this.rules = rules;
        this.registry = registry;
        this.clock = clock;
        rules.rules().keySet().forEach(this::counter); // every rule's series exists from the start, at 0
    }

    @Scheduled(every = "${exam.proctoring.flags.poll-interval:1s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> poll() {
        return runOnce(consumer).onFailure().invoke(e -> LOG.debugf("proctoring rules round failed: %s", e))
                .onFailure().recoverWithNull().replaceWithVoid();
    }

    /** One round over every exam's stream as {@code consumerName}; returns how many flags it raised. */
    public Uni<Integer> runOnce(String consumerName) {
        return currentExams().onItem().transformToMulti(ids -> Multi.createFrom().iterable(ids))
                .onItem().transformToUni(examId -> exam(examId, consumerName)).merge(8)
                .collect().asList().map(counts -> counts.stream().mapToInt(Integer::intValue).sum());
    }

    /**
     * An exam whose events this replica just took: read from the next round on, not only after
     * the next refresh of the list (a new exam's first flags would wait for it).
     */
    public void watch(String examId) {
        if (!examIds.contains(examId)) {
            Set<String> more = ConcurrentHashMap.newKeySet();
            more.addAll(examIds);
            more.add(examId);
            examIds = more;
        }
    }

    private Uni<Set<String>> currentExams() {
        Instant now = clock.instant();
        if (Duration.between(examsReadAt, now).compareTo(rules.examsRefresh()) < 0) {
            return Uni.createFrom().item(examIds);
        }
        return exams.activeIds(pool, now, AFTER_CLOSE).map(ids -> {
            Set<String> read = ConcurrentHashMap.newKeySet();
            read.addAll(ids);
            examIds = read;
            examsReadAt = now;
            return read;
        });
    }

    private Uni<Integer> exam(String examId, String consumerName) {
        String key = RedisKeys.examEvents(examId);
        XReadGroupArgs batch = new XReadGroupArgs().count(rules.batch());
        // The exam's first round makes its group (from the stream's start) and reads at once.
        Uni<List<StreamMessage<String, String, String>>> read = streams.xreadgroup(GROUP, consumerName, key, ">", batch)
                .onFailure(e -> String.valueOf(e.getMessage()).contains("NOGROUP"))
                .recoverWithUni(() -> streams.xgroupCreate(key, GROUP, "0", new XGroupCreateArgs().mkstream())
                        .onFailure(e -> String.valueOf(e.getMessage()).contains("BUSYGROUP")).recoverWithNull()
                        .chain(() -> streams.xreadgroup(GROUP, consumerName, key, ">", batch)));
        Uni<List<StreamMessage<String, String, String>>> claimed = streams
                .xautoclaim(key, GROUP, consumerName, rules.claimIdle(), "0", rules.batch())
                .map(result -> result == null ? List.<StreamMessage<String, String, String>>of() : result.getMessages())
                .onFailure().recoverWithItem(List.of());
        return read.chain(messages -> claimed.map(old -> {
            List<StreamMessage<String, String, String>> all = new ArrayList<>(messages);
            all.addAll(old);
            return all;
        })).chain(messages -> process(examId, key, messages));
    }

    private Uni<Integer> process(String examId, String key, List<StreamMessage<String, String, String>> messages) {
        if (messages.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        return Multi.createFrom().iterable(messages)
                .onItem().transformToUni(message -> evaluate(examId, message.payload())).concatenate()
                .collect().asList()
                .call(flags -> streams.xack(key, GROUP, messages.stream().map(StreamMessage::id).toArray(String[]::new)))
                .map(flags -> flags.stream().mapToInt(Integer::intValue).sum());
    }

    /** Every rule of the event's type; a session's new flag joins the exam's flagged set. */
    private Uni<Integer> evaluate(String examId, Map<String, String> event) {
        String sessionId = event.get("sessionId");
        String type = event.get("type");
        String eventId = event.get("eventId");
        if (sessionId == null || type == null || eventId == null) {
            return Uni.createFrom().item(0);
        }
        long at = eventTime(event);
        String raisedAt = clock.instant().toString();
        return Multi.createFrom().iterable(rules.rules().entrySet())
                .filter(rule -> rule.getValue().eventType().equals(type))
                .onItem().transformToUni(rule -> flagScript.run(redis,
                        List.of(RedisKeys.ruleWindow(sessionId, rule.getKey()), RedisKeys.flags(sessionId)),
                        List.of(rule.getKey(), eventId, Long.toString(at), Long.toString(rule.getValue().window().toMillis()),
                                Integer.toString(rule.getValue().count()), raisedAt,
                                Long.toString(rules.retention().toSeconds())))
                        .map(Response::toInteger)
                        .call(isNew -> isNew == 1 ? redisData.set(String.class).sadd(RedisKeys.examFlagged(examId), sessionId)
                                .invoke(() -> counter(rule.getKey()).increment()) : Uni.createFrom().voidItem()))
                .concatenate().collect().asList().map(results -> results.stream().mapToInt(Integer::intValue).sum());
    }

    /** The client's time of the event, never later than when the server received it. */
    private static long eventTime(Map<String, String> event) {
        try {
            long received = Instant.parse(event.get("receivedAt")).toEpochMilli();
            String at = event.get("at");
            return at == null || at.isEmpty() ? received : Math.min(received, Instant.parse(at).toEpochMilli());
        } catch (DateTimeParseException | NullPointerException e) {
            return 0;
        }
    }

    private Counter counter(String rule) {
        return raised.computeIfAbsent(rule, r -> Counter.builder("exam_proctoring_flags_total")
                .description("Proctoring flags raised, by rule").tag("rule", r).register(registry));
    }
}
