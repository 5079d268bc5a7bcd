package org.examsuite.grading;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * session-service and submission-service as grading-saga sees them (docs/ARCHITECTURE.md),
 * on one JDK HttpServer: {@code GET /internal/v1/exams/{examId}}, {@code GET
 * /internal/v1/papers/{paperId}} and {@code POST /internal/v1/papers/{paperId}/grading-started}.
 * Tests register exams and papers and can make the next calls fail with 503. Also gives
 * this test run its own paper stream key (deleted at the end).
 */
public class StubServices implements QuarkusTestResourceLifecycleManager {
    public static final Map<String, String> EXAMS = new ConcurrentHashMap<>();
    public static final Map<String, String> PAPERS = new ConcurrentHashMap<>();
    /** Calls to fail with 503 before answering, per exam id. */
    public static final Map<String, AtomicInteger> EXAM_FAILURES = new ConcurrentHashMap<>();
    public static final Map<String, AtomicInteger> EXAM_CALLS = new ConcurrentHashMap<>();
    public static final Map<String, AtomicInteger> CONFIRMATIONS = new ConcurrentHashMap<>();
    /** Confirmations to refuse with 503 before accepting, per paper id; and every confirmation call. */
    public static final Map<String, AtomicInteger> CONFIRMATION_FAILURES = new ConcurrentHashMap<>();
    public static final Map<String, AtomicInteger> CONFIRMATION_CALLS = new ConcurrentHashMap<>();
    /** The Authorization header of the last confirmation: a service token is expected. */
    public static volatile String lastAuthorization;
    /** A paper whose next fetch is held until its latch opens (at most 4 s, within the client's read timeout). */
    public static final Map<String, java.util.concurrent.CountDownLatch> PAPER_HOLDS = new ConcurrentHashMap<>();
    /** Papers whose fetch is being held right now. */
    public static final java.util.Set<String> PAPERS_HELD = ConcurrentHashMap.newKeySet();

    static final String STREAM = "stream:{papers-test-" + UUID.randomUUID() + "}";

    private HttpServer server;

    @Override
    public Map<String, String> start() {
        // Without TCP_NODELAY the JDK server's separate header and body writes meet delayed ACKs: ~40 ms a call.
        System.setProperty("sun.net.httpserver.nodelay", "true");
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/internal/v1/exams/", this::exam);
        server.createContext("/internal/v1/papers/", this::paper);
        server.start();
        String url = "http://127.0.0.1:" + server.getAddress().getPort();
        return Map.of("quarkus.rest-client.session.url", url, "quarkus.rest-client.submission.url", url,
                "exam.papers.stream", STREAM);
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop(0);
        }
        deleteStream();
    }

    private void exam(HttpExchange exchange) throws IOException {
        String examId = exchange.getRequestURI().getPath().substring("/internal/v1/exams/".length());
        EXAM_CALLS.computeIfAbsent(examId, id -> new AtomicInteger()).incrementAndGet();
        AtomicInteger failures = EXAM_FAILURES.get(examId);
        if (failures != null && failures.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            send(exchange, 503, "{\"code\":\"UNAVAILABLE\"}");
            return;
        }
        String exam = EXAMS.get(examId);
        send(exchange, exam == null ? 404 : 200, exam == null ? "{\"code\":\"EXAM_NOT_FOUND\"}" : exam);
    }

    private void paper(HttpExchange exchange) throws IOException {
        String rest = exchange.getRequestURI().getPath().substring("/internal/v1/papers/".length());
        if ("POST".equals(exchange.getRequestMethod()) && rest.endsWith("/grading-started")) {
            String paperId = rest.substring(0, rest.length() - "/grading-started".length());
            lastAuthorization = exchange.getRequestHeaders().getFirst("Authorization");
            CONFIRMATION_CALLS.computeIfAbsent(paperId, id -> new AtomicInteger()).incrementAndGet();
            AtomicInteger failures = CONFIRMATION_FAILURES.get(paperId);
            if (failures != null && failures.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                send(exchange, 503, "{\"code\":\"UNAVAILABLE\"}");
                return;
            }
            CONFIRMATIONS.computeIfAbsent(paperId, id -> new AtomicInteger()).incrementAndGet();
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
            return;
        }
        java.util.concurrent.CountDownLatch hold = PAPER_HOLDS.remove(rest);
        if (hold != null) {
            PAPERS_HELD.add(rest);
            try {
                hold.await(4, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                PAPERS_HELD.remove(rest);
            }
        }
        String paper = PAPERS.get(rest);
        send(exchange, paper == null ? 404 : 200, paper == null ? "{\"code\":\"PAPER_NOT_FOUND\"}" : paper);
    }

    private static void send(HttpExchange exchange, int status, String body) throws IOException {
        try (InputStream ignored = exchange.getRequestBody()) {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    /** DEL of this run's stream in Redis db 1, over plain RESP (the application is already stopped). */
    private static void deleteStream() {
        try (Socket socket = new Socket("127.0.0.1", 6379)) {
            socket.setSoTimeout(2000);
            OutputStream out = socket.getOutputStream();
            out.write(resp("SELECT", "1"));
            out.write(resp("DEL", STREAM));
            out.flush();
            socket.getInputStream().read(new byte[64]);
        } catch (IOException e) {
            // best effort: the key is unique to this run
        }
    }

    private static byte[] resp(String... parts) {
        StringBuilder command = new StringBuilder("*").append(parts.length).append("\r\n");
        for (String part : parts) {
            command.append('$').append(part.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(part).append("\r\n");
        }
        return command.toString().getBytes(StandardCharsets.UTF_8);
    }
}
