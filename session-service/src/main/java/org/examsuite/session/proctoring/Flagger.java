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
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.examsuite.common.redis.LuaScript;
import org.examsuite.common.redis.RedisKeys;
import org.examsuite.session.device.OnlineTracker;
import org.examsuite.session.device.WatchFeed;
import org.examsuite.session.exam.DefaultRules;
import org.examsuite.session.exam.ExamStore;
import org.examsuite.session.exam.ProctoringRule;
import org.examsuite.session.json.JsonText;
import org.examsuite.session.session.SessionRow;
import org.examsuite.session.session.SessionStore;
import org.jboss.logging.Logger;

/**
 * Evaluates each exam's proctoring rules (its own, fixed at creation; {@link FlagRules} for the
 * defaults). EVENT_COUNT rules read the exams' event streams: one consumer group per stream, a
 * consumer per replica, so replicas share the events; entries a dead replica held are claimed
 * again after {@code claim-idle}. Raising a flag is one atomic script per session that counts an
 * event once and raises a rule's flag once, so an entry processed twice (a claim after a crash, a
 * retry) changes nothing. OFFLINE_NEAR_DEADLINE rules look at the running sessions near their
 * deadline every round, on every replica: the flag is set only if absent (offline.lua), so two
 * replicas seeing it at once raise it once. A new flag is told to the exam's watchers (FLAG).
 */
@ApplicationScoped
public class Flagger {
    private static final Logger LOG = Logger.getLogger(Flagger.class);
    static final String GROUP = "proctoring-rules";
    /** Exams read: open ones, and those closed this recently (late events, auto-submitted takeovers). */
    private static final Duration AFTER_CLOSE = Duration.ofHours(1);

    private final LuaScript flagScript = LuaScript.of(Flagger.class, "flag.lua");
    private final LuaScript offlineScript = LuaScript.of(Flagger.class, "offline.lua");
    private final String consumer = "session-" + UUID.randomUUID();
    private final Map<String, Counter> raised = new ConcurrentHashMap<>();
    private final ReactiveStreamCommands<String, String, String> streams;
    private final ReactiveRedisDataSource redisData;
    private final RedisAPI redis;
    private final ExamStore exams;
    private final Pool pool;
    private final FlagRules rules;
    private final DefaultRules defaults;
    private final SessionStore sessions;
    private final OnlineTracker online;
    private final WatchFeed watchers;
    private final ObjectMapper json;
    private final MeterRegistry registry;
    private final Clock clock;
    /** The exams read, with their rules. */
    private volatile Map<String, List<ProctoringRule>> examRules = Map.of();
    private volatile Instant examsReadAt = Instant.EPOCH;

    Flagger(SharedReactiveRedisDataSource redisData, RedisAPI redis, ExamStore exams, Pool pool, FlagRules rules,
            DefaultRules defaults, SessionStore sessions, OnlineTracker online, WatchFeed watchers, ObjectMapper json,
            MeterRegistry registry, Clock clock) {
        this.defaults = defaults;
        this.sessions = sessions;
        this.online = online;
        this.watchers = watchers;
        this.json = json;
        this.redisData = redisData;
        this.streams = redisData.stream(String.class);
        this.redis = redis;
        this.exams = exams;
        this.pool = pool;
        this.rules = rules;
        this.registry = registry;
        this.clock = clock;
        defaults.defaults().forEach(rule -> counter(rule.name())); // every default rule's series exists from the start, at 0
    }

    @Scheduled(every = "${exam.proctoring.flags.poll-interval:1s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> poll() {
        return runOnce(consumer).onFailure().invoke(e -> LOG.debugf("proctoring rules round failed: %s", e))
                .onFailure().recoverWithNull().replaceWithVoid();
    }

    /** One round over every exam as {@code consumerName}; returns how many flags it raised. */
    public Uni<Integer> runOnce(String consumerName) {
        return currentExams().chain(exams -> Multi.createFrom().iterable(exams.entrySet())
                .onItem().transformToUni(exam -> exam(exam.getKey(), exam.getValue(), consumerName))
                .merge(8).collect().asList().map(counts -> counts.stream().mapToInt(Integer::intValue).sum())
                .chain(flags -> offline(exams).map(more -> flags + more)));
    }

    /**
     * An exam whose events this replica just took: read from the next round on, not only after
     * the next refresh of the list (a new exam's first flags would wait for it).
     */
    public void watch(String examId) {
        if (!examRules.containsKey(examId)) {
            exams.find(pool, examId).subscribe().with(exam -> {
                if (exam != null) {
                    Map<String, List<ProctoringRule>> more = new ConcurrentHashMap<>(examRules);
                    more.putIfAbsent(examId, rulesOf(exam.proctoringRules()));
                    examRules = more;
                }
            }, failure -> LOG.debugf("could not read the rules of exam %s: %s", examId, failure));
        }
    }

    private List<ProctoringRule> rulesOf(List<ProctoringRule> stored) {
        return stored == null ? defaults.defaults() : stored;
    }

    private Uni<Map<String, List<ProctoringRule>>> currentExams() {
        Instant now = clock.instant();
        Duration since = Duration.between(examsReadAt, now);
        if (!since.isNegative() && since.compareTo(rules.examsRefresh()) < 0) { // a clock set back reads again
            return Uni.createFrom().item(examRules);
        }
        return exams.active(pool, now, AFTER_CLOSE).map(active -> {
            Map<String, List<ProctoringRule>> read = new ConcurrentHashMap<>();
            active.forEach(exam -> read.put(exam.examId(), rulesOf(exam.rules())));
            examRules = read;
            examsReadAt = now;
            return read;
        });
    }

    private Uni<Integer> exam(String examId, List<ProctoringRule> examRules, String consumerName) {
        if (examRules.stream().noneMatch(rule -> rule.kind() == ProctoringRule.Kind.EVENT_COUNT)) {
            return Uni.createFrom().item(0);
        }
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
        })).chain(messages -> process(examId, examRules, key, messages));
    }

    private Uni<Integer> process(String examId, List<ProctoringRule> examRules, String key,
            List<StreamMessage<String, String, String>> messages) {
        if (messages.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        return Multi.createFrom().iterable(messages)
                .onItem().transformToUni(message -> evaluate(examId, examRules, message.payload())).concatenate()
                .collect().asList()
                .call(flags -> streams.xack(key, GROUP, messages.stream().map(StreamMessage::id).toArray(String[]::new)))
                .map(flags -> flags.stream().mapToInt(Integer::intValue).sum());
    }

    /** Every EVENT_COUNT rule the event meets; a session's new flag joins the exam's flagged set. */
    private Uni<Integer> evaluate(String examId, List<ProctoringRule> examRules, Map<String, String> event) {
        String sessionId = event.get("sessionId");
        String type = event.get("type");
        String eventId = event.get("eventId");
        if (sessionId == null || type == null || eventId == null) {
            return Uni.createFrom().item(0);
        }
        long at = eventTime(event);
        long length = length(event);
        String raisedAt = clock.instant().toString();
        return Multi.createFrom().iterable(examRules)
                .filter(rule -> rule.kind() == ProctoringRule.Kind.EVENT_COUNT && rule.eventType().equals(type)
                        && (rule.minLength() == null || length >= rule.minLength()))
                .onItem().transformToUni(rule -> flagScript.run(redis,
                        List.of(RedisKeys.ruleWindow(sessionId, rule.name()), RedisKeys.flags(sessionId)),
                        List.of(rule.name(), eventId, Long.toString(at), Long.toString(rule.windowSeconds() * 1000L),
                                Integer.toString(rule.count()), raisedAt, Long.toString(rules.retention().toSeconds())))
                        .map(Response::toString)
                        .chain(flag -> flag.startsWith("{")
                                ? raised(examId, sessionId, event.get("candidateId"), rule.name(), flag).replaceWith(1)
                                : Uni.createFrom().item(0)))
                .concatenate().collect().asList().map(results -> results.stream().mapToInt(Integer::intValue).sum());
    }

    /** A flag this replica raised: the exam's flagged set, the metric and the exam's watchers. */
    private Uni<Void> raised(String examId, String sessionId, String candidateId, String rule, String flag) {
        Map<String, Object> told = new LinkedHashMap<>();
        told.put("type", "FLAG");
        told.put("sessionId", sessionId);
        told.put("candidateId", candidateId);
        try {
            told.put("flag", json.readTree(flag));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("flag.lua wrote an unreadable flag", e);
        }
        return redisData.set(String.class).sadd(RedisKeys.examFlagged(examId), sessionId)
                .invoke(() -> counter(rule).increment())
                .chain(() -> watchers.publish(examId, told));
    }

    /**
     * OFFLINE_NEAR_DEADLINE: a running session within {@code last} of its deadline that nothing
     * was heard from for {@code offline} of that stretch (by the time checked, or by the deadline
     * if that passed) is flagged, with when it was last heard from as the evidence. A session never
     * heard from counts from its start. Noticed while it lasts: the rule looks every round.
     */
    private Uni<Integer> offline(Map<String, List<ProctoringRule>> exams) {
        Map<String, List<ProctoringRule>> offlineRules = new HashMap<>();
        exams.forEach((examId, examRules) -> {
            List<ProctoringRule> offline = examRules.stream()
                    .filter(rule -> rule.kind() == ProctoringRule.Kind.OFFLINE_NEAR_DEADLINE).toList();
            if (!offline.isEmpty()) {
                offlineRules.put(examId, offline);
            }
        });
        if (offlineRules.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        Instant now = clock.instant();
        long reach = offlineRules.values().stream().flatMap(List::stream)
                .mapToLong(rule -> rule.lastSeconds() - rule.offlineSeconds()).max().orElse(0);
        // one statement for every exam with the rule; then each exam's online set once
        return sessions.runningWithDeadline(pool, List.copyOf(offlineRules.keySet()), now.minus(AFTER_CLOSE), now.plusSeconds(reach))
                .chain(rows -> Multi.createFrom().iterable(rows.stream()
                        .collect(Collectors.groupingBy(SessionRow::examId)).entrySet())
                        .onItem().transformToUni(exam -> offline(exam.getKey(), exam.getValue(), offlineRules.get(exam.getKey()), now))
                        .merge(8).collect().asList().map(counts -> counts.stream().mapToInt(Integer::intValue).sum()));
    }

    private Uni<Integer> offline(String examId, List<SessionRow> rows, List<ProctoringRule> offlineRules, Instant now) {
        return online.lastSeen(examId, rows.stream().map(SessionRow::sessionId).toList())
                .chain(seen -> Multi.createFrom().range(0, rows.size())
                        .onItem().transformToUni(i -> offlineFlags(examId, rows.get(i), seen.get(i), offlineRules, now))
                        .merge(16).collect().asList()
                        .map(counts -> counts.stream().mapToInt(Integer::intValue).sum()));
    }

    private Uni<Integer> offlineFlags(String examId, SessionRow row, Double seenMs, List<ProctoringRule> offlineRules, Instant now) {
        long deadline = row.deadline().toEpochMilli();
        long checkedAt = Math.min(now.toEpochMilli(), deadline);
        long lastHeard = seenMs == null ? row.startedAt().toEpochMilli() : seenMs.longValue();
        return Multi.createFrom().iterable(offlineRules).onItem().transformToUni(rule -> {
            long stretchStart = deadline - rule.lastSeconds() * 1000L;
            long silent = checkedAt - Math.max(lastHeard, stretchStart);
            if (silent < rule.offlineSeconds() * 1000L) {
                return Uni.createFrom().item(0);
            }
            Map<String, Object> flag = new LinkedHashMap<>();
            flag.put("rule", rule.name());
            flag.put("raisedAt", now.toString());
            flag.put("events", List.of());
            flag.put("lastSeenAt", Instant.ofEpochMilli(lastHeard).toString());
            flag.put("deadline", row.deadline().toString());
            flag.put("offlineSeconds", silent / 1000);
            String text = JsonText.write(json, flag);
            return offlineScript.run(redis, List.of(RedisKeys.flags(row.sessionId())),
                    List.of(rule.name(), text, Long.toString(rules.retention().toSeconds())))
                    .map(Response::toInteger)
                    .chain(isNew -> isNew == 1 ? raised(examId, row.sessionId(), row.candidateId(), rule.name(), text).replaceWith(1)
                            : Uni.createFrom().item(0));
        }).concatenate().collect().asList().map(counts -> counts.stream().mapToInt(Integer::intValue).sum());
    }

    /** What a PASTE event says it pasted; -1 when it does not say. */
    private static long length(Map<String, String> event) {
        String length = event.get("length");
        try {
            return length == null || length.isEmpty() ? -1 : Long.parseLong(length);
        } catch (NumberFormatException e) {
            return -1;
        }
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
