package org.examsuite.session;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * submission-service's auto-submit contract (docs/ARCHITECTURE.md) played by a JDK HTTP
 * server: the first call for a session makes "its paper" (201), later calls return it
 * (200), as the real service does. It also plays answer-service's draft summary for the roster
 * ({@code POST /internal/v1/answers/summary}): the summaries a test set, the others left out. Tests read the calls and switch failures on through the
 * stub's own small HTTP API ({@code /stub/...}), so no state is shared across class loaders.
 */
public class SubmissionStub implements QuarkusTestResourceLifecycleManager {
    private static final Pattern AUTO_SUBMIT = Pattern.compile("/internal/v1/sessions/([^/]+)/auto-submit");
    private static final Pattern SUBMITTED_BY = Pattern.compile("\"submittedBy\"\\s*:\\s*\"([A-Z]+)\"");

    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    private final Map<String, String> lastCall = new ConcurrentHashMap<>();
    private final Map<String, String> firstSubmitter = new ConcurrentHashMap<>();
    private final Set<String> failing = ConcurrentHashMap.newKeySet();
    private final Map<String, String> summaries = new ConcurrentHashMap<>();
    private static final Pattern SESSION_ID = Pattern.compile("\"([^\"]+)\"");
    private HttpServer server;

    @Override
    public Map<String, String> start() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        server.setExecutor(Executors.newFixedThreadPool(8));
        server.createContext("/", this::handle);
        server.start();
        return Map.of("quarkus.rest-client.submission.url", "http://127.0.0.1:" + server.getAddress().getPort(),
                "quarkus.rest-client.answer.url", "http://127.0.0.1:" + server.getAddress().getPort(),
                "exam.test.submission-stub", "http://127.0.0.1:" + server.getAddress().getPort());
    }

    private void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        Matcher autoSubmit = AUTO_SUBMIT.matcher(path);
        if (autoSubmit.matches() && exchange.getRequestMethod().equals("POST")) {
            String sessionId = autoSubmit.group(1);
            if (failing.contains(sessionId)) {
                respond(exchange, 503, "{\"code\":\"SERVICE_UNAVAILABLE\"}");
                return;
            }
            Matcher by = SUBMITTED_BY.matcher(body);
            String submittedBy = by.find() ? by.group(1) : "?";
            boolean first = firstSubmitter.putIfAbsent(sessionId, submittedBy) == null;
            calls.computeIfAbsent(sessionId, id -> new AtomicInteger()).incrementAndGet();
            lastCall.put(sessionId, exchange.getRequestHeaders().getFirst("Authorization") + "\n" + body);
            respond(exchange, first ? 201 : 200, "{\"paperId\":\"paper-" + sessionId + "\",\"sessionId\":\"" + sessionId
                    + "\",\"submittedBy\":\"" + firstSubmitter.get(sessionId) + "\",\"answers\":{}}");
        } else if (path.equals("/internal/v1/answers/summary") && exchange.getRequestMethod().equals("POST")) {
            StringBuilder reply = new StringBuilder("{\"summaries\":{");
            Matcher ids = SESSION_ID.matcher(body.substring(body.indexOf('[') + 1));
            boolean first = true;
            while (ids.find()) {
                String summary = summaries.get(ids.group(1));
                if (summary != null) {
                    reply.append(first ? "" : ",").append('"').append(ids.group(1)).append("\":").append(summary);
                    first = false;
                }
            }
            respond(exchange, 200, reply.append("}}").toString());
        } else if (path.startsWith("/stub/summary/")) {
            summaries.put(path.substring("/stub/summary/".length()), body);
            respond(exchange, 204, null);
        } else if (path.startsWith("/stub/calls/")) {
            String sessionId = path.substring("/stub/calls/".length());
            AtomicInteger count = calls.get(sessionId);
            respond(exchange, 200, (count == null ? 0 : count.get()) + "\n" + lastCall.getOrDefault(sessionId, ""));
        } else if (path.startsWith("/stub/fail/")) {
            String sessionId = path.substring("/stub/fail/".length());
            if (exchange.getRequestMethod().equals("DELETE")) {
                failing.remove(sessionId);
            } else {
                failing.add(sessionId);
            }
            respond(exchange, 204, null);
        } else {
            respond(exchange, 404, "{\"code\":\"NOT_FOUND\"}");
        }
    }

    private static void respond(HttpExchange exchange, int status, String body) throws IOException {
        if (body == null) {
            exchange.sendResponseHeaders(status, -1);
        } else {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
        }
        exchange.close();
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop(0);
        }
    }
}
