package org.examsuite.session.socket;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.handler.timeout.IdleStateHandler;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.vertx.UniHelper;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.net.impl.ConnectionBase;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.examsuite.contracts.problem.ProblemCode;
import org.examsuite.session.json.JsonText;
import org.jboss.logging.Logger;

/**
 * The door of a token-checked socket (the candidates' live channel, the operators' watch socket):
 * a raw Vert.x WebSocket on a route, so a socket keeps only what Netty and Vert.x need and what
 * its endpoint's hub records once it is admitted — no copy of the upgrade's headers, token or
 * routing context (docs/benchmarks.md, issue 20). The door refuses a socket past its cap (1013),
 * takes the token as the second subprotocol or as the first message {@code {"type": "AUTH"}},
 * closes a socket with no valid token within {@code exam.sockets.auth-timeout} (4401), pings
 * every open socket, and hands the admitted sockets' messages to the endpoint.
 */
public final class SocketDoor {
    private static final Logger LOG = Logger.getLogger(SocketDoor.class);
    public static final CloseCode UNAUTHORIZED = new CloseCode(4401, ProblemCode.UNAUTHORIZED.name());
    /** The replica holds its most sockets: the client backs off (the candidate's SDK keeps to the heartbeat). */
    public static final CloseCode FULL = new CloseCode(1013, "TRY_AGAIN_LATER");
    /** A failure of the endpoint's own (its store unreachable): as websockets-next closed on one. */
    static final CloseCode SERVER_ERROR = new CloseCode(1011, "");

    /** What a socket's endpoint decides; {@code id} is the path's id (the session, the exam). */
    public interface Endpoint {
        /** Verifies the token: admits the socket into its hub, or rejects it. */
        Uni<Void> authenticate(ServerWebSocket socket, String id, String token);

        /** Whether the socket was admitted. */
        boolean admitted(ServerWebSocket socket, String id);

        /** A message of an admitted socket (not AUTH). */
        Uni<Void> message(ServerWebSocket socket, String id, String type, JsonNode message);

        /** The socket closed (admitted or not). */
        void closed(ServerWebSocket socket, String id);
    }

    private final String path;
    private final String idParam;
    private final String subprotocol;
    private final int maxSockets;
    private final long authTimeoutMs;
    private final Vertx vertx;
    private final ObjectMapper json;
    private final Endpoint endpoint;
    /** The sockets open through this door, admitted or not: the cap counts them, the pings reach them. */
    private final Set<ServerWebSocket> open = ConcurrentHashMap.newKeySet();

    /** {@code path} with {@code :idParam} in it, as Vert.x Web writes a route. */
    public SocketDoor(String path, String idParam, String subprotocol, int maxSockets, SocketConfig config, Vertx vertx,
            ObjectMapper json, Endpoint endpoint) {
        this.path = path;
        this.idParam = idParam;
        this.subprotocol = subprotocol;
        this.maxSockets = maxSockets;
        this.authTimeoutMs = config.authTimeout().toMillis();
        this.vertx = vertx;
        this.json = json;
        this.endpoint = endpoint;
        // One timer for all the door's sockets, rather than a task scheduled per socket.
        vertx.setPeriodic(config.pingInterval().toMillis(), id -> ping());
    }

    /**
     * After Quarkus' authentication (−200) and HTTP permission (−100) handlers: the HTTP layer's
     * decision for these paths is {@code permit} (application.properties), the socket's is its
     * token, checked here by the endpoint.
     */
    public void install(Router router) {
        router.route(HttpMethod.GET, path).order(-10).handler(this::upgrade);
    }

    void upgrade(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        if (!"websocket".equalsIgnoreCase(request.getHeader(HttpHeaders.UPGRADE))) {
            ctx.next(); // not an upgrade: the rest of the routes answer it (404)
            return;
        }
        String id = ctx.pathParam(idParam);
        String token = tokenFromSubprotocols(request.getHeader("Sec-WebSocket-Protocol"), subprotocol);
        request.toWebSocket().onComplete(upgraded -> {
            if (upgraded.failed()) {
                LOG.debugf("upgrade on %s failed: %s", path, upgraded.cause());
                if (!request.response().ended()) {
                    request.response().setStatusCode(400).end();
                }
                return;
            }
            dropIdleTimer(request);
            opened(upgraded.result(), id, token);
        });
    }

    /**
     * The HTTP idle timeout's handler cannot fire on a socket the door pings (a write is activity),
     * yet it keeps a handler and a scheduled task per socket (~0.3 KiB): dropped once upgraded.
     */
    private static void dropIdleTimer(HttpServerRequest request) {
        if (request.connection() instanceof ConnectionBase connection
                && connection.channel().pipeline().get(IdleStateHandler.class) != null) {
            connection.channel().pipeline().remove(IdleStateHandler.class);
        }
    }

    private void opened(ServerWebSocket socket, String id, String token) {
        // Vert.x keeps the upgrade request's headers for the socket's life (the token among them,
        // ~2 KiB a socket in all); nothing here reads them again.
        socket.headers().clear();
        if (open.size() >= maxSockets) {
            close(socket, FULL);
            return;
        }
        open.add(socket);
        socket.closeHandler(closed -> {
            open.remove(socket);
            endpoint.closed(socket, id);
        });
        socket.exceptionHandler(failure -> LOG.debugf("socket on %s: %s", path, failure));
        socket.textMessageHandler(text -> run(socket, message(socket, id, text)));
        if (token != null) {
            run(socket, endpoint.authenticate(socket, id, token));
            return;
        }
        vertx.setTimer(authTimeoutMs, timer -> {
            if (open.contains(socket) && !endpoint.admitted(socket, id)) {
                close(socket, UNAUTHORIZED);
            }
        });
    }

    private Uni<Void> message(ServerWebSocket socket, String id, String text) {
        JsonNode message;
        try {
            message = json.readTree(text);
        } catch (JsonProcessingException e) {
            return send(socket, error(ProblemCode.MALFORMED_JSON.name()));
        }
        String type = message.path("type").asText();
        if (!endpoint.admitted(socket, id)) {
            if ("AUTH".equals(type) && message.path("token").isTextual()) {
                return endpoint.authenticate(socket, id, message.path("token").asText());
            }
            return reject(socket, UNAUTHORIZED);
        }
        return endpoint.message(socket, id, type, message);
    }

    /** An endpoint's failure (a store unreachable) closes the socket 1011: the client opens another. */
    private void run(ServerWebSocket socket, Uni<Void> work) {
        work.subscribe().with(done -> { }, failure -> {
            LOG.warnf("closing a socket on %s after a failure: %s", path, failure.toString());
            close(socket, SERVER_ERROR);
        });
    }

    private void ping() {
        for (ServerWebSocket socket : open) {
            if (!socket.isClosed()) {
                socket.writePing(io.vertx.core.buffer.Buffer.buffer()).onFailure(failure -> { });
            }
        }
    }

    /** Sockets open through this door (admitted or not). */
    public int size() {
        return open.size();
    }

    /** {@code {"type": "ERROR", "code"}}, then the close code. */
    public Uni<Void> reject(ServerWebSocket socket, CloseCode reason) {
        return send(socket, error(reason.reason())).chain(() -> UniHelper.toUni(socket.close(reason.code(), reason.reason())));
    }

    public Uni<Void> send(ServerWebSocket socket, String text) {
        return UniHelper.toUni(socket.writeTextMessage(text));
    }

    public static void close(ServerWebSocket socket, CloseCode reason) {
        socket.close(reason.code(), reason.reason()).onFailure(failure -> { });
    }

    public String error(String code) {
        return write(Map.of("type", "ERROR", "code", code));
    }

    public String write(Map<String, ?> message) {
        return JsonText.write(json, message);
    }

    /** {@code Sec-WebSocket-Protocol: <ours>, <token>}: the entry that is not ours (a JWT: two dots). */
    public static String tokenFromSubprotocols(String header, String subprotocol) {
        if (header == null) {
            return null;
        }
        for (String entry : header.split(",")) {
            String value = entry.trim();
            if (!value.isEmpty() && !value.equals(subprotocol) && value.chars().filter(c -> c == '.').count() == 2) {
                return value;
            }
        }
        return null;
    }
}
