package org.examsuite.session.live;

import org.examsuite.common.redis.SharedReactiveRedisDataSource;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.ServerWebSocket;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.examsuite.common.redis.PublishedSession;
import org.examsuite.common.redis.RedisKeys;
import org.examsuite.contracts.problem.ProblemCode;
import org.examsuite.session.device.LiveChannelConfig;
import org.examsuite.session.json.JsonText;
import org.examsuite.session.socket.CloseCode;
import org.examsuite.session.socket.SocketDoor;
import org.jboss.logging.Logger;

/**
 * The live sockets open on this replica, by session. Proctor commands are published on a
 * Redis channel by whichever replica handled the operator's request (see commands.lua), and
 * every replica forwards them to the sockets it holds — so a socket works whatever replica
 * it reached.
 */
@ApplicationScoped
public class LiveHub {
    private static final Logger LOG = Logger.getLogger(LiveHub.class);
    /** A newer device took the session over: this socket's device may no longer write. */
    static final CloseCode TAKEN_OVER = new CloseCode(4409, ProblemCode.SESSION_TAKEN_OVER.name());

    /** All a socket keeps once admitted (its session is its key in {@code bySession}). */
    record Listener(ServerWebSocket socket, String examId, long deviceEpoch) {
    }

    private final Map<String, Map<ServerWebSocket, Listener>> bySession = new ConcurrentHashMap<>();
    /** The same listeners by exam, for the exam-wide commands (one message for all its sockets). */
    private final Map<String, Map<ServerWebSocket, Listener>> byExam = new ConcurrentHashMap<>();

    private final SharedReactiveRedisDataSource redis;
    private final ObjectMapper json;
    private final Clock clock;
    private final String channel;
    private final io.vertx.core.Vertx vertx;

    @Inject
    LiveHub(SharedReactiveRedisDataSource redis, ObjectMapper json, Clock clock, LiveChannelConfig channelConfig,
            io.vertx.core.Vertx vertx) {
        this.redis = redis;
        this.json = json;
        this.clock = clock;
        this.channel = channelConfig.channel();
        this.vertx = vertx;
    }
    private volatile boolean stopped;

    void subscribe(@Observes StartupEvent event) {
        listen();
    }

    void stop(@Observes ShutdownEvent event) {
        stopped = true;
    }

    /**
     * Listens on the channel. A subscription lives on one connection: when it ends or fails
     * (Redis restarted, a failover closed it, Redis still starting with us) it is made again a
     * second later, rather than leave this replica's sockets without commands. (What was sent
     * meanwhile still reaches the candidate: commands are also kept in Redis for the heartbeat.)
     */
    private void listen() {
        redis.pubsub(String.class).subscribe(channel).subscribe().with(this::deliver,
                failure -> listenAgain("failed: " + failure), () -> listenAgain("ended"));
    }

    private void listenAgain(String why) {
        if (!stopped) {
            LOG.warnf("the proctor command subscription on %s %s; subscribing again in 1 s", channel, why);
            vertx.setTimer(1000, id -> listen());
        }
    }

    /**
     * Every {@code exam.live.time-interval}, each socket gets the time from the session's
     * published state (the same one every service reads), so clocks stay honest and an
     * extension shows even if its command was missed.
     */
    @Scheduled(every = "${exam.live.time-interval:30s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    public Uni<Void> pushTime() {
        long now = clock.millis();
        return Multi.createFrom().iterable(List.copyOf(bySession.entrySet()))
                .onItem().transformToUni(entry -> redis.hash(String.class).hgetall(RedisKeys.sessionState(entry.getKey()))
                        .invoke(hash -> {
                            PublishedSession state = PublishedSession.fromHash(entry.getKey(), hash);
                            if (state == null) {
                                return;
                            }
                            String text = write(timeMessage(Instant.ofEpochMilli(now), Instant.ofEpochMilli(state.deadlineMs()),
                                    state.remainingMs(now), state.status(), state.epoch(),
                                    state.paused() ? Instant.ofEpochMilli(state.pausedAtMs()) : null, null));
                            entry.getValue().values().forEach(listener -> listener.socket().writeTextMessage(text)
                                    .onFailure(failure -> { }));
                        })
                        .onFailure().recoverWithNull())
                .merge(16).collect().last().replaceWithVoid();
    }

    /** The TIME message, alike whether read from the session's row (on request) or its published state (pushed). */
    static Map<String, Object> timeMessage(Instant now, Instant deadline, long remainingMs, String status, long deviceEpoch,
            Instant pausedAt, String paperId) {
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("type", "TIME");
        message.put("serverTime", now.toString());
        message.put("deadline", deadline.toString());
        message.put("remainingMs", remainingMs);
        message.put("status", status);
        message.put("deviceEpoch", deviceEpoch);
        if (pausedAt != null) {
            message.put("pausedAt", pausedAt.toString());
        }
        if (paperId != null) {
            message.put("paperId", paperId);
        }
        return message;
    }

    private String write(Map<String, Object> message) {
        return JsonText.write(json, message);
    }

    void add(ServerWebSocket socket, String sessionId, String examId, long deviceEpoch) {
        // Interned: one String per exam, not one per socket (the path's and the row's copies).
        Listener listener = new Listener(socket, examId.intern(), deviceEpoch);
        bySession.computeIfAbsent(sessionId, id -> new ConcurrentHashMap<>(2)).put(socket, listener);
        byExam.computeIfAbsent(listener.examId(), id -> new ConcurrentHashMap<>()).put(socket, listener);
    }

    boolean holds(ServerWebSocket socket, String sessionId) {
        Map<ServerWebSocket, Listener> listeners = bySession.get(sessionId);
        return listeners != null && listeners.containsKey(socket);
    }

    void remove(ServerWebSocket socket, String sessionId) {
        Map<ServerWebSocket, Listener> listeners = bySession.get(sessionId);
        Listener listener = listeners == null ? null : listeners.get(socket);
        if (listener == null) {
            return;
        }
        forget(bySession, sessionId, socket);
        forget(byExam, listener.examId(), socket);
    }

    private static void forget(Map<String, Map<ServerWebSocket, Listener>> index, String key, ServerWebSocket socket) {
        index.computeIfPresent(key, (id, listeners) -> {
            listeners.remove(socket);
            return listeners.isEmpty() ? null : listeners;
        });
    }

    /**
     * {@code {"sessionId": ..., "command": {...}}} from the channel → the session's sockets here;
     * {@code {"examId": ..., "command": {...}}} → every socket of the exam here.
     */
    void deliver(String message) {
        try {
            JsonNode envelope = json.readTree(message);
            Map<ServerWebSocket, Listener> listeners = envelope.hasNonNull("sessionId") ? bySession.get(envelope.path("sessionId").asText())
                    : byExam.get(envelope.path("examId").asText());
            if (listeners == null) {
                return;
            }
            JsonNode command = envelope.path("command");
            String text = json.writeValueAsString(command);
            boolean takeover = "TAKEN_OVER".equals(command.path("type").asText());
            for (Listener listener : listeners.values()) {
                listener.socket().writeTextMessage(text).onComplete(sent -> {
                    if (sent.failed()) {
                        LOG.debugf("could not push to a socket of session %s: %s", envelope.path("sessionId").asText(), sent.cause());
                    } else if (takeover && listener.deviceEpoch() < command.path("deviceEpoch").asLong()) {
                        SocketDoor.close(listener.socket(), TAKEN_OVER);
                    }
                });
            }
        } catch (Exception e) {
            LOG.warnf("ignoring an unreadable live message: %s", e.toString());
        }
    }
}
