package org.examsuite.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;

/**
 * The running suite as ./exam test live started it (services on 8081–8084, docs/api.md §2): its
 * addresses, an operator token, and a small exam driven through the public API (create, enrol,
 * start, autosave, submit, graded and archived) — the happy path of docs/api.md §3.
 */
final class LiveSuite {

    static final Map<String, Integer> PORTS = Map.of("session-service", 8081, "answer-service", 8082,
            "submission-service", 8083, "grading-saga", 8084);
    static final List<String> SERVICES = List.of("session-service", "answer-service", "submission-service", "grading-saga");

    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private LiveSuite() {
    }

    static String base(String service) {
        return "http://127.0.0.1:" + PORTS.get(service);
    }

    /** The operator token ./exam test live passed (./exam token operator), else one made now. */
    static String operatorToken() {
        String token = System.getenv("EXAM_LIVE_OPERATOR_TOKEN");
        if (token != null && !token.isBlank()) {
            return token.strip();
        }
        Path exam = Path.of(System.getProperty("k8s.dir", ".")).toAbsolutePath().normalize().resolveSibling("exam");
        try {
            Process p = new ProcessBuilder(exam.toString(), "token", "operator", "live-check")
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            List<String> lines = new String(p.getInputStream().readAllBytes()).strip().lines().toList();
            p.waitFor();
            if (lines.isEmpty()) {
                throw new AssertionError("./exam token operator printed nothing");
            }
            return lines.get(lines.size() - 1).strip();
        } catch (IOException e) {
            throw new AssertionError("could not run ./exam token operator: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** Every service answers /q/health/ready with 200, or the check fails naming those that do not. */
    static void requireReady() {
        Set<String> down = new TreeSet<>();
        for (String service : SERVICES) {
            try {
                HttpResponse<String> ready = get(base(service) + "/q/health/ready", null, Map.of());
                if (ready.statusCode() != 200) {
                    // which check is down, for the next person reading a red CI log
                    down.add(service + " " + ready.statusCode() + " " + ready.body().replaceAll("\\s+", " "));
                }
            } catch (AssertionError e) {
                down.add(service + " (" + e.getMessage() + ")");
            }
        }
        if (!down.isEmpty()) {
            throw new AssertionError("not ready on 127.0.0.1:8081–8084: " + down
                    + " (these checks need the running suite: ./exam test live starts it)");
        }
    }

    record Reply(int status, JsonNode body) {
    }

    static HttpResponse<String> get(String url, String token, Map<String, String> headers) {
        return send("GET", url, null, token, headers);
    }

    static HttpResponse<String> send(String method, String url, Object body, String token, Map<String, String> headers) {
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30));
            if (body != null) {
                request.header("Content-Type", "application/json")
                        .method(method, HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
            } else {
                request.method(method, HttpRequest.BodyPublishers.noBody());
            }
            if (token != null) {
                request.header("Authorization", "Bearer " + token);
            }
            headers.forEach(request::header);
            return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new AssertionError(method + " " + url + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    static Reply call(String method, String url, Object body, String token, Map<String, String> headers) {
        HttpResponse<String> response = send(method, url, body, token, headers);
        try {
            String text = response.body();
            return new Reply(response.statusCode(), text == null || text.isBlank() ? JSON.nullNode() : JSON.readTree(text));
        } catch (IOException e) {
            return new Reply(response.statusCode(), JSON.getNodeFactory().textNode(response.body()));
        }
    }

    static Reply expect(int status, String what, Reply reply) {
        if (reply.status() != status) {
            throw new AssertionError(what + ": expected " + status + ", got " + reply.status() + " " + reply.body());
        }
        return reply;
    }

    /** A started session of a fresh exam: its id and the candidate's token. */
    record Session(String examId, String sessionId, String token) {
    }

    static Session startSession(String operator) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        ObjectNode exam = JSON.createObjectNode()
                .put("title", "live check")
                .put("opensAt", now.minus(1, ChronoUnit.MINUTES).toString())
                .put("closesAt", now.plus(1, ChronoUnit.HOURS).toString())
                .put("durationSeconds", 1800)
                .put("graceSeconds", 30);
        exam.putArray("questions").add(JSON.createObjectNode().put("id", "q1").put("type", "SINGLE")
                .put("prompt", "2+2?").put("points", 2).put("key", "4").set("options", JSON.createArrayNode().add("3").add("4")));
        exam.withArray("questions").add(JSON.createObjectNode().put("id", "q2").put("type", "FILL")
                .put("prompt", "Capital of France").put("points", 1).set("key", JSON.createArrayNode().add("Paris")));
        String examId = expect(201, "POST /api/v1/exams",
                call("POST", base("session-service") + "/api/v1/exams", exam, operator, Map.of())).body().path("examId").asText();
        String candidate = "live-" + UUID.randomUUID().toString().substring(0, 8);
        ObjectNode enrol = JSON.createObjectNode();
        enrol.putArray("candidates").add(JSON.createObjectNode().put("candidateId", candidate));
        String code = expect(201, "POST /api/v1/exams/{id}/candidates", call("POST",
                base("session-service") + "/api/v1/exams/" + examId + "/candidates", enrol, operator, Map.of()))
                .body().at("/candidates/0/accessCode").asText();
        JsonNode session = expect(201, "POST /api/v1/sessions", call("POST", base("session-service") + "/api/v1/sessions",
                Map.of("examId", examId, "candidateId", candidate, "accessCode", code), null, Map.of())).body();
        return new Session(examId, session.path("sessionId").asText(), session.path("token").asText());
    }

    static void autosave(Session session) {
        Map<String, Object> body = Map.of("version", 2, "changes", List.of(Map.of("questionId", "q2", "value", "Paris")));
        expect(200, "PATCH /api/v1/answers/{sessionId}", call("PATCH",
                base("answer-service") + "/api/v1/answers/" + session.sessionId(), body, session.token(), Map.of()));
    }

    /** Submits the paper (optionally with a W3C traceparent) and returns its id. */
    static String submit(Session session, String traceparent) {
        Map<String, Object> answers = new LinkedHashMap<>();
        answers.put("q1", Map.of("value", "4", "version", 3));
        answers.put("q2", Map.of("value", "Paris", "version", 2));
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Idempotency-Key", UUID.randomUUID().toString());
        if (traceparent != null) {
            headers.put("traceparent", traceparent);
        }
        return expect(201, "POST /api/v1/submissions", call("POST", base("submission-service") + "/api/v1/submissions",
                Map.of("sessionId", session.sessionId(), "answers", answers), session.token(), headers))
                .body().path("paperId").asText();
    }

    /** Waits until grading-saga shows the paper's result as no longer PENDING; returns it. */
    static JsonNode awaitResult(String paperId, String operator) {
        AtomicReference<JsonNode> result = new AtomicReference<>();
        Awaitility.await("the result of paper " + paperId).atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500))
                .until(() -> {
                    Reply reply = call("GET", base("grading-saga") + "/api/v1/results/" + paperId, null, operator, Map.of());
                    result.set(reply.body());
                    return reply.status() == 200 && !"PENDING".equals(reply.body().path("status").asText());
                });
        return result.get();
    }

    /** One exam through the whole flow: session, autosave, submission, graded result. */
    static JsonNode smallExam(String operator, String traceparent) {
        Session session = startSession(operator);
        expect(200, "GET /api/v1/sessions/{id}", call("GET", base("session-service") + "/api/v1/sessions/" + session.sessionId(),
                null, session.token(), Map.of()));
        autosave(session);
        expect(200, "GET /api/v1/answers/{id}", call("GET", base("answer-service") + "/api/v1/answers/" + session.sessionId(),
                null, session.token(), Map.of()));
        String paperId = submit(session, traceparent);
        JsonNode result = awaitResult(paperId, operator);
        ((ObjectNode) result).put("paperId", paperId);
        return result;
    }

    /** The metric names (no labels) a service's /q/metrics exports now. */
    static Set<String> exportedNames(String service) {
        return exportedLabels(service).keySet();
    }

    /** The metric names a service's /q/metrics exports now, each with the label names its series carry. */
    static Map<String, Set<String>> exportedLabels(String service) {
        HttpResponse<String> response = get(base(service) + "/q/metrics", null, Map.of("Accept", "text/plain"));
        if (response.statusCode() != 200) {
            throw new AssertionError(service + " /q/metrics answered " + response.statusCode());
        }
        Map<String, Set<String>> names = new java.util.TreeMap<>();
        java.util.regex.Pattern label = java.util.regex.Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"(?:\\\\.|[^\"\\\\])*\"");
        for (String line : response.body().split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int end = 0;
            while (end < line.length() && line.charAt(end) != '{' && line.charAt(end) != ' ') {
                end++;
            }
            Set<String> labels = names.computeIfAbsent(line.substring(0, end), n -> new TreeSet<>());
            if (end < line.length() && line.charAt(end) == '{') {
                java.util.regex.Matcher m = label.matcher(line.substring(end, line.lastIndexOf('}') + 1));
                while (m.find()) {
                    labels.add(m.group(1));
                }
            }
        }
        return names;
    }
}
