package org.examsuite.session.watch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.core.http.ServerWebSocket;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.examsuite.common.redis.SharedReactiveRedisDataSource;
import org.examsuite.session.device.OnlineTracker;
import org.examsuite.session.device.WatchFeed;
import org.examsuite.session.json.JsonText;
import org.jboss.logging.Logger;

/**
 * The operators' watch sockets open on this replica, by exam. What changes in an exam is told on
 * the watch channel (device/WatchFeed) by whichever replica changed it — events, flags, session
 * states, the exam's pause — and every replica passes it to the sockets of that exam it holds,
 * so a console is told everything whatever replica its socket reached. Presence has no moment
 * to be told at (a candidate goes offline by saying nothing), so each replica works it out for
 * the exams its sockets watch: every {@code exam.watch.presence-interval}, who was heard from
 * since the last look and whose last word just left the online window (two range reads of the
 * exam's online set, whatever its size), against the set it keeps.
 */
@ApplicationScoped
public class WatchHub {
    private static final Logger LOG = Logger.getLogger(WatchHub.class);
    /** Clocks of the replicas writing the online set may differ by this much. */
    private static final long SLACK_MS = 1000;

    /** One exam's online sessions as last seen here; null until first read. */
    private static final class Presence {
        Set<String> online;
        long checkedAt;
    }

    private final Map<String, Set<ServerWebSocket>> byExam = new ConcurrentHashMap<>();
    private final Map<String, Presence> presence = new ConcurrentHashMap<>();
    private final SharedReactiveRedisDataSource redis;
    private final WatchFeed feed;
    private final OnlineTracker online;
    private final ObjectMapper json;
    private final Clock clock;
    private final Vertx vertx;
    private volatile boolean stopped;

    WatchHub(SharedReactiveRedisDataSource redis, WatchFeed feed, OnlineTracker online, ObjectMapper json, Clock clock,
            Vertx vertx) {
        this.redis = redis;
        this.feed = feed;
        this.online = online;
        this.json = json;
        this.clock = clock;
        this.vertx = vertx;
    }

    void subscribe(@Observes StartupEvent event) {
        listen();
    }

    void stop(@Observes ShutdownEvent event) {
        stopped = true;
    }

    /** As LiveHub's: a subscription that ends or fails is made again a second later. */
    private void listen() {
        redis.pubsub(String.class).subscribe(feed.channel()).subscribe().with(this::deliver,
                failure -> listenAgain("failed: " + failure), () -> listenAgain("ended"));
    }

    private void listenAgain(String why) {
        if (!stopped) {
            LOG.warnf("the watch subscription on %s %s; subscribing again in 1 s", feed.channel(), why);
            vertx.setTimer(1000, id -> listen());
        }
    }

    void add(ServerWebSocket socket, String examId) {
        byExam.computeIfAbsent(examId, id -> ConcurrentHashMap.newKeySet()).add(socket);
    }

    boolean holds(ServerWebSocket socket, String examId) {
        Set<ServerWebSocket> watchers = byExam.get(examId);
        return watchers != null && watchers.contains(socket);
    }

    void remove(ServerWebSocket socket, String examId) {
        byExam.computeIfPresent(examId, (id, watchers) -> {
            watchers.remove(socket);
            if (watchers.isEmpty()) {
                presence.remove(examId);
                return null;
            }
            return watchers;
        });
    }

    /** {@code {"examId", "event"}} from the channel → the event, to this replica's sockets of the exam. */
    void deliver(String message) {
        try {
            JsonNode envelope = json.readTree(message);
            Set<ServerWebSocket> watchers = byExam.get(envelope.path("examId").asText());
            if (watchers != null && !watchers.isEmpty()) {
                send(watchers, json.writeValueAsString(envelope.path("event")));
            }
        } catch (Exception e) {
            LOG.warnf("ignoring an unreadable watch message: %s", e.toString());
        }
    }

    private static void send(Set<ServerWebSocket> watchers, String text) {
        for (ServerWebSocket watcher : watchers) {
            watcher.writeTextMessage(text).onFailure(failure -> LOG.debugf("could not push to a watch socket: %s", failure));
        }
    }

    /** Presence changes of every watched exam since the last round (PRESENCE), to its sockets here. */
    @Scheduled(every = "${exam.watch.presence-interval:1s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    public Uni<Void> presenceRound() {
        long now = clock.millis();
        return Multi.createFrom().iterable(List.copyOf(byExam.keySet()))
                .onItem().transformToUni(examId -> presence(examId, now).onFailure().recoverWithNull())
                .merge(8).collect().last().replaceWithVoid();
    }

    private Uni<Void> presence(String examId, long now) {
        Presence known = presence.computeIfAbsent(examId, id -> new Presence());
        long window = online.window().toMillis();
        if (known.online == null) { // the console read the roster itself: this is only the baseline
            return online.onlineIds(examId, now).invoke(ids -> {
                known.online = ConcurrentHashMap.newKeySet();
                known.online.addAll(ids);
                known.checkedAt = now;
            }).replaceWithVoid();
        }
        long since = known.checkedAt - SLACK_MS;
        return Uni.combine().all().unis(online.seenSince(examId, since),
                online.lastSeenBetween(examId, since - window, now - window - 1)).asTuple().invoke(read -> {
                    Map<String, Long> heard = read.getItem1();
                    List<Map<String, Object>> came = new ArrayList<>();
                    heard.forEach((sessionId, at) -> {
                        if (at >= now - window && known.online.add(sessionId)) {
                            came.add(Map.of("sessionId", sessionId, "lastSeenAt", Instant.ofEpochMilli(at).toString()));
                        }
                    });
                    Set<String> left = new HashSet<>();
                    for (String sessionId : read.getItem2()) {
                        if (!heard.containsKey(sessionId) && known.online.remove(sessionId)) {
                            left.add(sessionId);
                        }
                    }
                    known.checkedAt = now;
                    Set<ServerWebSocket> watchers = byExam.get(examId);
                    if ((came.isEmpty() && left.isEmpty()) || watchers == null) {
                        return;
                    }
                    Map<String, Object> event = new LinkedHashMap<>();
                    event.put("type", "PRESENCE");
                    event.put("online", came);
                    event.put("offline", left);
                    event.put("onlineCount", known.online.size());
                    event.put("serverTime", Instant.ofEpochMilli(now).toString());
                    send(watchers, JsonText.write(json, event));
                }).replaceWithVoid();
    }
}
