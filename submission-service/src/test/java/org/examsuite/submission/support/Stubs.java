package org.examsuite.submission.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * answer-service's seal and session-service's publish/submitted endpoints as written in
 * docs/ARCHITECTURE.md, served by a JDK HttpServer and programmed per session by the tests.
 */
public class Stubs implements QuarkusTestResourceLifecycleManager {
    private static final Pattern SEAL = Pattern.compile("/internal/v1/answers/([^/]+)/seal");
    private static final Pattern PUBLISH = Pattern.compile("/internal/v1/sessions/([^/]+)/publish");
    private static final Pattern SUBMITTED = Pattern.compile("/internal/v1/sessions/([^/]+)/submitted");

    /** sessionId → the seal snapshot's {@code answers} JSON object (default {}). */
    public static final Map<String, String> DRAFTS = new ConcurrentHashMap<>();
    public static final Map<String, Integer> LATE_CHANGES = new ConcurrentHashMap<>();
    /** Sessions whose seal answers 500 (answer-service down). */
    public static final Set<String> FAILING_SEALS = ConcurrentHashMap.newKeySet();
    /** Sessions whose seal waits for this latch (a request held in flight). */
    public static final Map<String, CountDownLatch> HELD_SEALS = new ConcurrentHashMap<>();
    public static final Map<String, AtomicInteger> SEAL_CALLS = new ConcurrentHashMap<>();
    /** The traceparent header each seal call carried. */
    public static final Map<String, List<String>> SEAL_TRACEPARENTS = new ConcurrentHashMap<>();
    /** The sessions of each group seal call, in call order. */
    public static final List<List<String>> GROUP_SEALS = new CopyOnWriteArrayList<>();
    /** Calls of session-service's group notification. */
    public static final AtomicInteger SUBMITTED_BATCHES = new AtomicInteger();
    /** Sessions for which session-service's /submitted answers 503. */
    public static final Set<String> FAILING_SUBMITTED = ConcurrentHashMap.newKeySet();
    /** The traceparent header each /submitted call carried. */
    public static final Map<String, List<String>> SUBMITTED_TRACEPARENTS = new ConcurrentHashMap<>();
    /** sessionId → bodies of /submitted calls. */
    public static final Map<String, List<String>> SUBMITTED_CALLS = new ConcurrentHashMap<>();
    /** Called for a publish request: true when it (re)published the state (204), false for 404. */
    public static volatile Predicate<String> publisher = sessionId -> false;

    private HttpServer server;

    @Override
    public Map<String, String> start() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/", this::handle);
        server.start();
        String url = "http://127.0.0.1:" + server.getAddress().getPort();
        return Map.of("quarkus.rest-client.answer-service.url", url,
                "quarkus.rest-client.session-service.url", url,
                "quarkus.rest-client.answer-service.read-timeout", "30000");
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String path = exchange.getRequestURI().getPath();
            Matcher m;
            if (path.equals("/internal/v1/answers/seal")) {
                sealAll(exchange, body);
            } else if ((m = SEAL.matcher(path)).matches()) {
                seal(exchange, m.group(1));
            } else if ((m = PUBLISH.matcher(path)).matches()) {
                exchange.sendResponseHeaders(publisher.test(m.group(1)) ? 204 : 404, -1);
            } else if (path.equals("/internal/v1/sessions/submitted")) {
                submittedAll(exchange, body);
            } else if ((m = SUBMITTED.matcher(path)).matches()) {
                SUBMITTED_CALLS.computeIfAbsent(m.group(1), s -> new CopyOnWriteArrayList<>()).add(body);
                String traceparent = exchange.getRequestHeaders().getFirst("traceparent");
                if (traceparent != null) {
                    SUBMITTED_TRACEPARENTS.computeIfAbsent(m.group(1), s -> new CopyOnWriteArrayList<>()).add(traceparent);
                }
                exchange.sendResponseHeaders(FAILING_SUBMITTED.contains(m.group(1)) ? 503 : 204, -1);
            } else {
                exchange.sendResponseHeaders(404, -1);
            }
        }
    }

    /**
     * The group seal: each session as the one-session seal would answer it; failing sessions are
     * named unavailable, and when every session fails the call answers 500 (answer-service down).
     */
    private void sealAll(HttpExchange exchange, String body) throws IOException {
        List<String> ids = new ArrayList<>();
        Matcher id = Pattern.compile("\"([^\"]+)\"").matcher(body.substring(body.indexOf('[') + 1, body.lastIndexOf(']')));
        while (id.find()) {
            ids.add(id.group(1));
        }
        GROUP_SEALS.add(ids);
        StringBuilder sealed = new StringBuilder();
        List<String> unavailable = new ArrayList<>();
        for (String sessionId : ids) {
            countAndHold(exchange, sessionId);
            if (FAILING_SEALS.contains(sessionId)) {
                unavailable.add("\"" + sessionId + "\"");
            } else {
                sealed.append(sealed.length() == 0 ? "" : ",").append('"').append(sessionId).append("\":").append(snapshot(sessionId));
            }
        }
        if (unavailable.size() == ids.size()) {
            exchange.sendResponseHeaders(500, -1);
            return;
        }
        send(exchange, "{\"sealed\":{" + sealed + "},\"unavailable\":[" + String.join(",", unavailable) + "]}");
    }

    /** session-service's group notification: each paper recorded as its own /submitted call would be. */
    private void submittedAll(HttpExchange exchange, String body) throws IOException {
        Matcher paper = Pattern.compile("\\{\"sessionId\":\"([^\"]+)\",\"paperId\":\"([^\"]+)\"\\}").matcher(body);
        List<String> failed = new ArrayList<>();
        String traceparent = exchange.getRequestHeaders().getFirst("traceparent");
        while (paper.find()) {
            String sessionId = paper.group(1);
            SUBMITTED_CALLS.computeIfAbsent(sessionId, s -> new CopyOnWriteArrayList<>()).add("{\"paperId\":\"" + paper.group(2) + "\"}");
            if (traceparent != null) {
                SUBMITTED_TRACEPARENTS.computeIfAbsent(sessionId, s -> new CopyOnWriteArrayList<>()).add(traceparent);
            }
            if (FAILING_SUBMITTED.contains(sessionId)) {
                failed.add("\"" + sessionId + "\":\"SERVICE_UNAVAILABLE\"");
            }
        }
        SUBMITTED_BATCHES.incrementAndGet();
        send(exchange, "{\"failed\":{" + String.join(",", failed) + "}}");
    }

    private static void countAndHold(HttpExchange exchange, String sessionId) {
        SEAL_CALLS.computeIfAbsent(sessionId, s -> new AtomicInteger()).incrementAndGet();
        String traceparent = exchange.getRequestHeaders().getFirst("traceparent");
        if (traceparent != null) {
            SEAL_TRACEPARENTS.computeIfAbsent(sessionId, s -> new CopyOnWriteArrayList<>()).add(traceparent);
        }
        CountDownLatch held = HELD_SEALS.get(sessionId);
        if (held != null) {
            try {
                held.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static String snapshot(String sessionId) {
        return "{\"sessionId\":\"" + sessionId + "\",\"sealedAt\":\"2026-12-01T10:00:00Z\",\"version\":1,"
                + "\"generation\":1,\"lateChanges\":" + LATE_CHANGES.getOrDefault(sessionId, 0) + ",\"answers\":"
                + DRAFTS.getOrDefault(sessionId, "{}") + "}";
    }

    private static void send(HttpExchange exchange, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private void seal(HttpExchange exchange, String sessionId) throws IOException {
        countAndHold(exchange, sessionId);
        if (FAILING_SEALS.contains(sessionId)) {
            exchange.sendResponseHeaders(500, -1);
            return;
        }
        send(exchange, snapshot(sessionId));
    }
}
