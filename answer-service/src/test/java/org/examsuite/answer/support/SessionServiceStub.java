package org.examsuite.answer.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

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
    private URI redis;

    @Override
    public Map<String, String> start() {
        redis = URI.create(System.getenv().getOrDefault("EXAM_TEST_REDIS_URL", "redis://127.0.0.1:6379/1"));
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
        String db = redis.getPath() == null || redis.getPath().length() <= 1 ? "0" : redis.getPath().substring(1);
        try (Socket socket = new Socket(redis.getHost(), redis.getPort() < 0 ? 6379 : redis.getPort())) {
            OutputStream out = socket.getOutputStream();
            out.write(command(List.of("SELECT", db)));
            out.write(command(List.of("EVAL", script, "2", from, to)));
            out.flush();
            InputStream in = socket.getInputStream();
            String selected = line(in);
            String reply = line(in);
            if (!selected.startsWith("+OK") || reply.startsWith("-")) {
                throw new IOException("redis: " + selected + " / " + reply);
            }
            return reply.equals(":1");
        }
    }

    private static byte[] command(List<String> args) {
        StringBuilder sb = new StringBuilder("*").append(args.size()).append("\r\n");
        for (String arg : args) {
            sb.append('$').append(arg.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(arg).append("\r\n");
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != -1 && b != '\n') {
            if (b != '\r') {
                buffer.write(b);
            }
        }
        return buffer.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop(0);
        }
    }
}
