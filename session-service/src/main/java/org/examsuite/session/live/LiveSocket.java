package org.examsuite.session.live;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.oidc.AccessTokenCredential;
import io.quarkus.oidc.Tenant;
import io.quarkus.oidc.TenantIdentityProvider;
import io.quarkus.websockets.next.CloseReason;
import io.quarkus.websockets.next.HandshakeRequest;
import io.quarkus.websockets.next.OnClose;
import io.quarkus.websockets.next.OnOpen;
import io.quarkus.websockets.next.OnTextMessage;
import io.quarkus.websockets.next.WebSocket;
import io.quarkus.websockets.next.WebSocketConnection;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import jakarta.json.JsonNumber;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.examsuite.session.device.OnlineTracker;
import org.examsuite.session.session.SessionRow;
import org.examsuite.session.session.SessionService;
import org.examsuite.session.json.JsonText;

/**
 * {@code /api/v1/sessions/{sessionId}/live} (docs/api.md §3.7). Browsers cannot set
 * {@code Authorization} on a WebSocket, so the candidate token comes either as a second
 * subprotocol ({@code new WebSocket(url, ["exam-live", token])}; the server answers with
 * {@code exam-live}) or as the first message {@code {"type": "AUTH", "token": "..."}}.
 * The token is checked by the same OIDC tenant as on REST, and must be for this session.
 * Then the server pushes the time ({@code TIME}, also on request) and every proctor command
 * ({@code EXTENDED}, {@code WARNING}, {@code FORCE_SUBMITTED}, {@code SUBMITTED},
 * {@code TAKEN_OVER}) with the same ids the heartbeat returns. Opening and the client's
 * {@code TIME} pings count as being online, as a heartbeat does: the SDK's heartbeat slows
 * down while its socket is open.
 */
@WebSocket(path = "/api/v1/sessions/{sessionId}/live")
public class LiveSocket {
    static final String SUBPROTOCOL = "exam-live";
    static final CloseReason UNAUTHORIZED = new CloseReason(4401, "UNAUTHORIZED");
    static final CloseReason FORBIDDEN = new CloseReason(4403, "FORBIDDEN");
    /** This replica holds its most sockets: the client backs off, and falls back to the HTTP heartbeat. */
    static final CloseReason FULL = new CloseReason(1013, "TRY_AGAIN_LATER");
    private static final long AUTH_TIMEOUT_MS = 10_000;

    private final TenantIdentityProvider candidateTokens;
    private final LiveHub hub;
    private final SessionService sessions;
    private final ObjectMapper json;
    private final Clock clock;
    private final Vertx vertx;
    /**
     * Sockets this replica keeps open at most: past it the replica refuses new ones rather than run
     * out of memory (bench/live: ~12 KiB of heap and ~14 KiB of RSS per socket; with 112 MiB of heap
     * it died at ~6,000; 3,000 took its RSS to 309 MiB (peak 323), past the 300 MiB budget).
     */
    private final int maxSockets;
    private final OnlineTracker online;
    /** The connections admitted (counted until they close), by id. */
    private final Set<String> admitted = ConcurrentHashMap.newKeySet();

    @Inject
    LiveSocket(@Tenant("candidate") TenantIdentityProvider candidateTokens, LiveHub hub, SessionService sessions,
            ObjectMapper json, Clock clock, Vertx vertx, LiveConfig config, OnlineTracker online) {
        this.candidateTokens = candidateTokens;
        this.hub = hub;
        this.sessions = sessions;
        this.json = json;
        this.clock = clock;
        this.vertx = vertx;
        this.maxSockets = config.maxSockets();
        this.online = online;
    }

    @OnOpen
    public Uni<Void> open(WebSocketConnection connection) {
        if (admitted.size() >= maxSockets) {
            return connection.close(FULL);
        }
        admitted.add(connection.id());
        String token = tokenFromSubprotocols(connection.handshakeRequest());
        if (token != null) {
            return authenticate(connection, token);
        }
        vertx.setTimer(AUTH_TIMEOUT_MS, timer -> {
            if (connection.isOpen() && !hub.holds(connection)) {
                connection.close(UNAUTHORIZED).subscribe().with(done -> { }, failure -> { });
            }
        });
        return Uni.createFrom().voidItem();
    }

    @OnTextMessage
    public Uni<Void> message(WebSocketConnection connection, String text) {
        JsonNode message;
        try {
            message = json.readTree(text);
        } catch (JsonProcessingException e) {
            return connection.sendText(error("MALFORMED_JSON"));
        }
        String type = message.path("type").asText();
        if (!hub.holds(connection)) {
            if ("AUTH".equals(type) && message.path("token").isTextual()) {
                return authenticate(connection, message.path("token").asText());
            }
            return reject(connection, UNAUTHORIZED);
        }
        if ("TIME".equals(type)) {
            return sessions.require(connection.pathParam("sessionId"))
                    .chain(row -> seen(row).chain(() -> connection.sendText(time(row))));
        }
        return connection.sendText(error("UNKNOWN_MESSAGE"));
    }

    @OnClose
    public void close(WebSocketConnection connection) {
        admitted.remove(connection.id());
        hub.remove(connection);
    }

    private Uni<Void> authenticate(WebSocketConnection connection, String token) {
        String sessionId = connection.pathParam("sessionId");
        return candidateTokens.authenticate(new AccessTokenCredential(token))
                .onFailure().recoverWithNull()
                .chain(identity -> {
                    if (identity == null || !(identity.getPrincipal() instanceof JsonWebToken jwt)) {
                        return reject(connection, UNAUTHORIZED);
                    }
                    if (!sessionId.equals(claim(jwt, "sessionId"))) {
                        return reject(connection, FORBIDDEN);
                    }
                    long epoch = jwt.getClaim("deviceEpoch") instanceof JsonNumber n ? n.longValue() : -1;
                    return sessions.require(sessionId).chain(row -> {
                        if (epoch < row.deviceEpoch()) {
                            return connection.sendText(error("SESSION_TAKEN_OVER"))
                                    .chain(() -> connection.close(LiveHub.TAKEN_OVER));
                        }
                        hub.add(connection, sessionId, row.examId(), epoch);
                        return seen(row).chain(() -> connection.sendText(time(row)));
                    });
                });
    }

    /** The proctors' online count must not cost the candidate the time: a Redis failure is ignored. */
    private Uni<Void> seen(SessionRow row) {
        return online.seen(row.examId(), row.sessionId(), clock.millis()).onFailure().recoverWithNull();
    }

    private Uni<Void> reject(WebSocketConnection connection, CloseReason reason) {
        return connection.sendText(error(reason.getMessage())).chain(() -> connection.close(reason));
    }

    private String time(SessionRow row) {
        Instant now = clock.instant();
        return write(LiveHub.timeMessage(now, row.deadline(), row.remainingMs(now), row.status(), row.deviceEpoch(),
                row.pausedAt(), row.paperId()));
    }

    private String error(String code) {
        return write(Map.of("type", "ERROR", "code", code));
    }

    private String write(Map<String, ?> message) {
        return JsonText.write(json, message);
    }

    /** {@code Sec-WebSocket-Protocol: exam-live, <token>}: the entry that is not ours. */
    static String tokenFromSubprotocols(HandshakeRequest handshake) {
        String header = handshake.header(HandshakeRequest.SEC_WEBSOCKET_PROTOCOL);
        if (header == null) {
            return null;
        }
        for (String entry : header.split(",")) {
            String value = entry.trim();
            if (!value.isEmpty() && !value.equals(SUBPROTOCOL) && value.chars().filter(c -> c == '.').count() == 2) {
                return value;
            }
        }
        return null;
    }

    private static String claim(JsonWebToken jwt, String name) {
        Object value = jwt.getClaim(name);
        if (value instanceof jakarta.json.JsonString string) {
            return string.getString();
        }
        return value == null ? null : value.toString();
    }
}
