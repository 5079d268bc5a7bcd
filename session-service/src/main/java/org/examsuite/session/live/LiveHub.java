package org.examsuite.session.live;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.websockets.next.CloseReason;
import io.quarkus.websockets.next.WebSocketConnection;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.config.inject.ConfigProperty;
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
    static final CloseReason TAKEN_OVER = new CloseReason(4409, "SESSION_TAKEN_OVER");

    record Listener(WebSocketConnection connection, String sessionId, long deviceEpoch) {
    }

    private final Map<String, Map<String, Listener>> bySession = new ConcurrentHashMap<>();

    @Inject
    ReactiveRedisDataSource redis;
    @Inject
    ObjectMapper json;
    @ConfigProperty(name = "exam.live.channel")
    String channel;

    void subscribe(@Observes StartupEvent event) {
        redis.pubsub(String.class).subscribe(channel, this::deliver).subscribe().with(
                subscriber -> LOG.debugf("listening for proctor commands on %s", channel),
                failure -> LOG.error("cannot listen for proctor commands; live sockets get none", failure));
    }

    void add(WebSocketConnection connection, String sessionId, long deviceEpoch) {
        bySession.computeIfAbsent(sessionId, id -> new ConcurrentHashMap<>())
                .put(connection.id(), new Listener(connection, sessionId, deviceEpoch));
    }

    boolean holds(WebSocketConnection connection) {
        String sessionId = connection.pathParam("sessionId");
        Map<String, Listener> listeners = sessionId == null ? null : bySession.get(sessionId);
        return listeners != null && listeners.containsKey(connection.id());
    }

    void remove(WebSocketConnection connection) {
        String sessionId = connection.pathParam("sessionId");
        if (sessionId != null) {
            bySession.computeIfPresent(sessionId, (id, listeners) -> {
                listeners.remove(connection.id());
                return listeners.isEmpty() ? null : listeners;
            });
        }
    }

    /** {@code {"sessionId": ..., "command": {...}}} from the channel → the session's sockets here. */
    void deliver(String message) {
        try {
            JsonNode envelope = json.readTree(message);
            Map<String, Listener> listeners = bySession.get(envelope.path("sessionId").asText());
            if (listeners == null) {
                return;
            }
            JsonNode command = envelope.path("command");
            String text = json.writeValueAsString(command);
            boolean takeover = "TAKEN_OVER".equals(command.path("type").asText());
            for (Listener listener : listeners.values()) {
                listener.connection().sendText(text).subscribe().with(sent -> {
                    if (takeover && listener.deviceEpoch() < command.path("deviceEpoch").asLong()) {
                        listener.connection().close(TAKEN_OVER).subscribe().with(closed -> { }, failure -> { });
                    }
                }, failure -> LOG.debugf("could not push to socket %s: %s", listener.connection().id(), failure));
            }
        } catch (Exception e) {
            LOG.warnf("ignoring an unreadable live message: %s", e.toString());
        }
    }
}
