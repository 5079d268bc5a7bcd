package org.examsuite.answer.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisClientType;
import io.vertx.redis.client.RedisOptions;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A stand-in for session-service's internal publish API (ARCHITECTURE.md): on
 * {@code POST /internal/v1/sessions/{id}/publish} it copies what a test staged under
 * {@code test:{<id>}:publishable} to {@code ses:{<id>}:state} (204), or answers 404 when
 * nothing is staged; the same for exams. It talks RESP over a plain socket, so it needs no
 * client of its own and shares nothing in memory with the test.
 */
public class SessionServiceStub implements QuarkusTestResourceLifecycleManager {
    private static final String COPY_HASH = "local v = redis.call('HGETALL', KEYS[1]) if #v == 0 then return 0 end "
            + "redis.call('DEL', KEYS[2]) redis.call('HSET', KEYS[2], unpack(v)) return 1";
    private static final String COPY_STRING = "local v = redis.call('GET', KEYS[1]) if not v then return 0 end "
            + "redis.call('SET', KEYS[2], v) return 1";

    private HttpServer server;
    private Vertx vertx;
    private Redis client;

    @Override
    public Map<String, String> start() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        server.createContext("/internal/v1/", this::handle);
        server.start();
        return Map.of("quarkus.rest-client.session-service.url", "http://127.0.0.1:" + server.getAddress().getPort());
    }

    private void handle(HttpExchange exchange) throws IOException {
        String[] parts = exchange.getRequestURI().getPath().split("/");
        // /internal/v1/{sessions|exams}/{id}/publish
        int status = 404;
        String auth = exchange.getRequestHeaders().getFirst("Authorization");
        if (auth == null || !auth.startsWith("Bearer ")) {
            status = 401;
        } else if ("POST".equals(exchange.getRequestMethod()) && parts.length == 6 && "publish".equals(parts[5])) {
            String id = parts[4];
            boolean copied = "sessions".equals(parts[3])
                    ? eval(COPY_HASH, "test:{" + id + "}:publishable", "ses:{" + id + "}:state")
                    : eval(COPY_STRING, "test:{exam:" + id + "}:publishable", "ses:{exam:" + id + "}:questions");
            status = copied ? 204 : 404;
        }
        exchange.getResponseHeaders().add("Content-Type", "application/problem+json");
        if (status == 204) {
            exchange.sendResponseHeaders(204, -1);
        } else {
            byte[] body = ("{\"status\":" + status + ",\"code\":\"" + (status == 404 ? "NOT_FOUND" : "UNAUTHORIZED") + "\"}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
        exchange.close();
    }

    private boolean eval(String script, String from, String to) throws IOException {
        try {
            io.vertx.redis.client.Response reply = redis().send(io.vertx.redis.client.Request.cmd(io.vertx.redis.client.Command.EVAL)
                    .arg(script).arg(2).arg(from).arg(to)).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            return reply.toLong() == 1;
        } catch (Exception e) {
            throw new IOException("redis: " + e, e);
        }
    }

    /** The tests' Redis as the service reaches it: one node, or a Redis Cluster (EXAM_TEST_REDIS_CLIENT_TYPE). */
    private synchronized Redis redis() {
        if (client == null) {
            vertx = Vertx.vertx();
            RedisOptions options = new RedisOptions().setType(
                    "cluster".equalsIgnoreCase(System.getenv("EXAM_TEST_REDIS_CLIENT_TYPE")) ? RedisClientType.CLUSTER : RedisClientType.STANDALONE);
            for (String url : System.getenv().getOrDefault("EXAM_TEST_REDIS_URL", "redis://127.0.0.1:6379/1").split(",")) {
                options.addConnectionString(url.trim());
            }
            client = Redis.createClient(vertx, options);
        }
        return client;
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop(0);
        }
        if (client != null) {
            client.close();
            vertx.close();
        }
    }
}
