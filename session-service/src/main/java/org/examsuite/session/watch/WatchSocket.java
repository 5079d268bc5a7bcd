package org.examsuite.session.watch;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.oidc.AccessTokenCredential;
import io.quarkus.oidc.Tenant;
import io.quarkus.oidc.TenantIdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.websockets.next.CloseReason;
import io.quarkus.websockets.next.HandshakeRequest;
import io.quarkus.websockets.next.OnClose;
import io.quarkus.websockets.next.OnOpen;
import io.quarkus.websockets.next.OnTextMessage;
import io.quarkus.websockets.next.WebSocket;
import io.quarkus.websockets.next.WebSocketConnection;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.examsuite.common.auth.Roles;
import org.examsuite.common.problem.ApiException;
import org.examsuite.session.exam.ExamService;
import org.examsuite.session.json.JsonText;

/**
 * {@code /api/v1/exams/{examId}/live} (docs/api.md §3.9): an operator's console watching one exam.
 * The operator token comes as the second subprotocol ({@code ["exam-watch", token]}, as the
 * candidate's socket takes its own) or as the first message {@code {"type": "AUTH", "token"}},
 * and is verified by the {@code operator} OIDC tenant. Who may watch an exam is who may read its
 * roster (RosterResource: the operator role, which today reaches every exam). Then the socket
 * gets {@code WELCOME}, and every change of the exam as {@link WatchHub} hears it; it is closed
 * 4401 when its token expires (the console signs in again).
 */
@WebSocket(path = "/api/v1/exams/{examId}/live")
public class WatchSocket {
    static final String SUBPROTOCOL = "exam-watch";
    static final CloseReason UNAUTHORIZED = new CloseReason(4401, "UNAUTHORIZED");
    static final CloseReason NOT_FOUND = new CloseReason(4404, "EXAM_NOT_FOUND");
    static final CloseReason FULL = new CloseReason(1013, "TRY_AGAIN_LATER");
    private static final long AUTH_TIMEOUT_MS = 10_000;

    private final TenantIdentityProvider operatorTokens;
    private final WatchHub hub;
    private final ExamService exams;
    private final ObjectMapper json;
    private final Clock clock;
    private final Vertx vertx;
    /** Watch sockets this replica keeps open at most (consoles are few; a runaway client is not). */
    private final int maxSockets;
    private final Set<String> admitted = ConcurrentHashMap.newKeySet();

    WatchSocket(@Tenant("operator") TenantIdentityProvider operatorTokens, WatchHub hub, ExamService exams, ObjectMapper json,
            Clock clock, Vertx vertx, WatchConfig config) {
        this.operatorTokens = operatorTokens;
        this.hub = hub;
        this.exams = exams;
        this.json = json;
        this.clock = clock;
        this.vertx = vertx;
        this.maxSockets = config.maxSockets();
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
        if ("PING".equals(type)) {
            return connection.sendText(write(Map.of("type", "PONG", "serverTime", clock.instant().toString())));
        }
        return connection.sendText(error("UNKNOWN_MESSAGE"));
    }

    @OnClose
    public void close(WebSocketConnection connection) {
        admitted.remove(connection.id());
        hub.remove(connection);
    }

    private Uni<Void> authenticate(WebSocketConnection connection, String token) {
        String examId = connection.pathParam("examId");
        return operatorTokens.authenticate(new AccessTokenCredential(token))
                .onFailure().recoverWithNull()
                .chain(identity -> {
                    if (!mayWatch(identity)) {
                        return reject(connection, UNAUTHORIZED);
                    }
                    return exams.require(examId).onItemOrFailure().transformToUni((exam, failure) -> {
                        if (failure instanceof ApiException) {
                            return reject(connection, NOT_FOUND);
                        }
                        if (failure != null) {
                            return Uni.createFrom().failure(failure);
                        }
                        hub.add(connection, examId);
                        closeOnExpiry(connection, identity);
                        Map<String, Object> welcome = new LinkedHashMap<>();
                        welcome.put("type", "WELCOME");
                        welcome.put("examId", examId);
                        welcome.put("serverTime", clock.instant().toString());
                        return connection.sendText(write(welcome));
                    });
                });
    }

    /** The roster's rule (RosterResource, {@code @RolesAllowed(OPERATOR)}): an operator may watch any exam. */
    private static boolean mayWatch(SecurityIdentity identity) {
        return identity != null && identity.getPrincipal() instanceof JsonWebToken && identity.hasRole(Roles.OPERATOR);
    }

    private void closeOnExpiry(WebSocketConnection connection, SecurityIdentity identity) {
        long exp = ((JsonWebToken) identity.getPrincipal()).getExpirationTime() * 1000;
        long delay = exp - clock.millis();
        if (exp > 0) {
            vertx.setTimer(Math.max(1, delay), timer -> {
                if (connection.isOpen()) {
                    reject(connection, UNAUTHORIZED).subscribe().with(done -> { }, failure -> { });
                }
            });
        }
    }

    private Uni<Void> reject(WebSocketConnection connection, CloseReason reason) {
        return connection.sendText(error(reason.getMessage())).chain(() -> connection.close(reason));
    }

    private String error(String code) {
        return write(Map.of("type", "ERROR", "code", code));
    }

    private String write(Map<String, ?> message) {
        return JsonText.write(json, message);
    }

    /** {@code Sec-WebSocket-Protocol: exam-watch, <token>}: the entry that is not ours. */
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
}
