package org.examsuite.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The four services' public contract (docs/api.md §4.2), in memory and much simplified, for driving the demo end to
 * end in a test: sessions with device epochs, stamped drafts, one paper per session (auto-submitted at deadline +
 * grace), essay marks, an archive that verifies. Each paper is also written to a PostgreSQL table of the test's
 * own, which the driver counts. {@code loseFirstAnswer}: papers silently lose their first question (a bug to catch).
 */
final class FakeSuite implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern CANDIDATES = Pattern.compile("/api/v1/exams/([^/]+)/candidates");
    private static final Pattern FIGURES = Pattern.compile("/api/v1/exams/([^/]+)/figures");
    private static final Pattern PUBLISH = Pattern.compile("/api/v1/exams/([^/]+)/publish");
    private static final Pattern SESSION = Pattern.compile("/api/v1/sessions/([^/]+)(/heartbeat)?");
    private static final Pattern ANSWERS = Pattern.compile("/api/v1/answers/([^/]+)");
    private static final Pattern PAPER = Pattern.compile("/api/v1/submissions/([^/]+)");
    private static final Pattern RESULT = Pattern.compile("/api/v1/results/([^/]+)(/marks)?");

    private record Stamped(long epoch, long version, JsonNode value) {
        boolean olderThan(long otherEpoch, long otherVersion) {
            return epoch < otherEpoch || (epoch == otherEpoch && version < otherVersion);
        }
    }

    private static final class Session {
        String id;
        String examId;
        long epoch;
        long deadlineMs;
        long graceMs;
        final Map<String, Stamped> draft = new HashMap<>();
        String paperId;
    }

    private final HttpServer server;
    private final ScheduledExecutorService autoSubmit = Executors.newSingleThreadScheduledExecutor();
    private final boolean loseFirstAnswer;
    private final String jdbcUrl;
    private final Properties db;
    private final String table;
    private final Map<String, JsonNode> exams = new HashMap<>();
    private final Map<String, String> codes = new HashMap<>();
    private final Map<String, Session> sessions = new HashMap<>();
    private final Map<String, Session> sessionsByCandidate = new HashMap<>();
    private final Map<String, ObjectNode> papers = new HashMap<>();
    private final Map<String, Boolean> marked = new HashMap<>();

    FakeSuite(boolean loseFirstAnswer, String jdbcUrl, Properties db, String table) throws IOException {
        this.loseFirstAnswer = loseFirstAnswer;
        this.jdbcUrl = jdbcUrl;
        this.db = db;
        this.table = table;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 200);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/", this::handle);
        server.start();
        autoSubmit.scheduleAtFixedRate(this::autoSubmitDue, 200, 200, TimeUnit.MILLISECONDS);
    }

    URI base() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    @Override
    public void close() {
        autoSubmit.shutdownNow();
        server.stop(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String method = exchange.getRequestMethod();
            String path = exchange.getRequestURI().getPath();
            byte[] raw = exchange.getRequestBody().readAllBytes();
            String type = exchange.getRequestHeaders().getFirst("Content-Type");
            JsonNode body = raw.length == 0 || (type != null && !type.contains("json")) ? null : JSON.readTree(raw); // a figure: bytes
            String auth = exchange.getRequestHeaders().getFirst("Authorization");
            String token = auth == null ? null : auth.substring("Bearer ".length());
            synchronized (this) {
                route(exchange, method, path, body, token);
            }
        } catch (SQLException e) {
            send(exchange, 500, problem("INTERNAL_ERROR"));
        }
    }

    private void route(HttpExchange ex, String method, String path, JsonNode body, String token) throws IOException,
            SQLException {
        Matcher m;
        if (path.equals("/q/health/ready")) {
            send(ex, 200, JSON.createObjectNode().put("status", "UP"));
        } else if (method.equals("POST") && path.equals("/api/v1/exams")) {
            String id = UUID.randomUUID().toString();
            exams.put(id, body);
            send(ex, 201, JSON.createObjectNode().put("examId", id));
        } else if (method.equals("POST") && (m = FIGURES.matcher(path)).matches() && exams.containsKey(m.group(1))) {
            send(ex, 201, JSON.createObjectNode().put("examId", m.group(1)));
        } else if (method.equals("POST") && (m = PUBLISH.matcher(path)).matches() && exams.containsKey(m.group(1))) {
            send(ex, 200, JSON.createObjectNode().put("examId", m.group(1)).put("state", "OPEN"));
        } else if ((m = CANDIDATES.matcher(path)).matches()) {
            ArrayNode out = JSON.createArrayNode();
            for (JsonNode c : body.get("candidates")) {
                String code = UUID.randomUUID().toString();
                codes.put(m.group(1) + "/" + c.get("candidateId").asText(), code);
                out.addObject().put("candidateId", c.get("candidateId").asText()).put("accessCode", code);
            }
            ObjectNode reply = JSON.createObjectNode();
            reply.set("candidates", out);
            send(ex, 201, reply);
        } else if (method.equals("POST") && path.equals("/api/v1/sessions")) {
            startSession(ex, body);
        } else if ((m = SESSION.matcher(path)).matches()) {
            Session s = sessions.get(m.group(1));
            ObjectNode reply = JSON.createObjectNode().put("sessionId", s.id).put("status", s.paperId == null ? "IN_PROGRESS"
                    : "SUBMITTED");
            if (m.group(2) != null) {
                reply.put("token", token);
            } else if (s.paperId != null) {
                reply.put("paperId", s.paperId);
            }
            send(ex, 200, reply);
        } else if ((m = ANSWERS.matcher(path)).matches()) {
            answers(ex, method, sessions.get(m.group(1)), body, token);
        } else if (method.equals("POST") && path.equals("/api/v1/submissions")) {
            Session s = sessions.get(body.get("sessionId").asText());
            if (s.paperId != null) {
                send(ex, 200, papers.get(s.paperId));
                return;
            }
            long epoch = epochOf(token);
            for (Iterator<Map.Entry<String, JsonNode>> it = body.get("answers").fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> a = it.next();
                Stamped held = s.draft.get(a.getKey());
                long version = a.getValue().get("version").asLong();
                if (held == null || held.olderThan(epoch, version)) {
                    s.draft.put(a.getKey(), new Stamped(epoch, version, a.getValue().get("value")));
                }
            }
            send(ex, 201, paper(s, "CANDIDATE"));
        } else if ((m = PAPER.matcher(path)).matches()) {
            send(ex, 200, papers.get(m.group(1)));
        } else if ((m = RESULT.matcher(path)).matches()) {
            if (m.group(2) != null) {
                marked.put(m.group(1), true);
                send(ex, 202, JSON.createObjectNode());
            } else {
                boolean graded = marked.containsKey(m.group(1));
                ObjectNode reply = JSON.createObjectNode().put("paperId", m.group(1)).put("status", graded ? "GRADED" : "PENDING");
                if (graded) {
                    reply.put("archiveSeq", 1);
                } else {
                    reply.put("reason", "awaiting operator marks for q11, q12");
                }
                send(ex, 200, reply);
            }
        } else if (path.equals("/api/v1/archive/verify")) {
            send(ex, 200, JSON.createObjectNode().put("valid", true).put("records", papers.size()));
        } else {
            send(ex, 404, problem("NOT_FOUND"));
        }
    }

    private void startSession(HttpExchange ex, JsonNode body) throws IOException {
        String examId = body.get("examId").asText();
        String candidate = examId + "/" + body.get("candidateId").asText();
        if (!body.get("accessCode").asText().equals(codes.get(candidate))) {
            send(ex, 401, problem("INVALID_CREDENTIALS"));
            return;
        }
        if (ex.getRequestHeaders().getFirst("Idempotency-Key") == null) {
            // The driver keys every sign-in, so a late copy of one never takes the session over (docs/api.md §3.2).
            send(ex, 400, problem("IDEMPOTENCY_KEY_MISSING"));
            return;
        }
        Session s = sessionsByCandidate.get(candidate);
        boolean created = s == null;
        if (created) {
            JsonNode exam = exams.get(examId);
            s = new Session();
            s.id = UUID.randomUUID().toString();
            s.examId = examId;
            s.deadlineMs = System.currentTimeMillis() + exam.get("durationSeconds").asLong() * 1000;
            s.graceMs = exam.get("graceSeconds").asLong() * 1000;
            sessions.put(s.id, s);
            sessionsByCandidate.put(candidate, s);
        }
        s.epoch++;
        ObjectNode reply = JSON.createObjectNode().put("sessionId", s.id).put("token", s.id + ":" + s.epoch)
                .put("deviceEpoch", s.epoch).put("deadline", Instant.ofEpochMilli(s.deadlineMs).toString())
                .put("serverTime", Instant.now().toString()).put("status", "IN_PROGRESS");
        send(ex, created ? 201 : 200, reply);
    }

    private void answers(HttpExchange ex, String method, Session s, JsonNode body, String token) throws IOException {
        if (method.equals("GET")) {
            ObjectNode reply = JSON.createObjectNode().put("version", 0).put("generation", 1);
            ObjectNode answers = reply.putObject("answers");
            ObjectNode epochs = reply.putObject("epochs");
            s.draft.forEach((id, held) -> {
                answers.putObject(id).put("version", held.version()).set("value", held.value());
                epochs.put(id, held.epoch());
            });
            send(ex, 200, reply);
            return;
        }
        long epoch = epochOf(token);
        if (epoch < s.epoch) {
            send(ex, 409, problem("SESSION_TAKEN_OVER"));
            return;
        }
        if (s.paperId != null || System.currentTimeMillis() > s.deadlineMs + s.graceMs) {
            send(ex, 409, problem("SESSION_CLOSED"));
            return;
        }
        long version = body.get("version").asLong();
        ObjectNode reply = JSON.createObjectNode().put("version", version).put("generation", 1);
        ArrayNode applied = reply.putArray("applied");
        ArrayNode stale = reply.putArray("stale");
        for (JsonNode change : body.get("changes")) {
            String id = change.get("questionId").asText();
            Stamped held = s.draft.get(id);
            if (held == null || held.olderThan(epoch, version)) {
                s.draft.put(id, new Stamped(epoch, version, change.get("value")));
                applied.add(id);
            } else {
                stale.addObject().put("questionId", id).put("heldVersion", held.version());
            }
        }
        send(ex, 200, reply);
    }

    private void autoSubmitDue() {
        synchronized (this) {
            for (Session s : sessions.values()) {
                if (s.paperId == null && System.currentTimeMillis() > s.deadlineMs + s.graceMs) {
                    try {
                        paper(s, "AUTO");
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                }
            }
        }
    }

    private ObjectNode paper(Session s, String submittedBy) throws SQLException {
        String paperId = UUID.randomUUID().toString();
        ObjectNode paper = JSON.createObjectNode().put("paperId", paperId).put("sessionId", s.id).put("submittedBy", submittedBy);
        ObjectNode answers = paper.putObject("answers");
        s.draft.entrySet().stream().sorted(Map.Entry.comparingByKey()).skip(loseFirstAnswer ? 1 : 0)
                .forEach(e -> answers.putObject(e.getKey()).put("version", e.getValue().version()).set("value", e.getValue().value()));
        try (Connection c = DriverManager.getConnection(jdbcUrl, db);
                PreparedStatement insert = c.prepareStatement("INSERT INTO " + table + " (paper_id, session_id, exam_id) VALUES (?, ?, ?)")) {
            insert.setString(1, paperId);
            insert.setString(2, s.id);
            insert.setString(3, s.examId);
            insert.executeUpdate();
        }
        s.paperId = paperId;
        papers.put(paperId, paper);
        return paper;
    }

    private static long epochOf(String token) {
        return Long.parseLong(token.substring(token.indexOf(':') + 1));
    }

    private static ObjectNode problem(String code) {
        return JSON.createObjectNode().put("title", code).put("code", code);
    }

    private static void send(HttpExchange ex, int status, JsonNode body) throws IOException {
        byte[] bytes = JSON.writeValueAsBytes(body);
        ex.getResponseHeaders().add("Content-Type", status >= 400 ? "application/problem+json" : "application/json");
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }
}
