package org.examsuite.demo.setup;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.examsuite.demo.candidate.Question;
import org.examsuite.demo.client.ApiClient;
import org.examsuite.demo.client.ApiResult;

/** Creates the demo's exam (every question type) and enrolls its candidates, as an operator, straight to session-service. */
public final class ExamSetup {
    public static final int ENROLL_BATCH = 100;

    public record Exam(String examId, List<Question> questions, int durationSeconds, int graceSeconds) {
    }

    private final ApiClient api;
    private final URI sessionBase;
    private final String operatorToken;
    private final Random random;

    public ExamSetup(ApiClient api, URI sessionBase, String operatorToken, long seed) {
        this.api = api;
        this.sessionBase = sessionBase;
        this.operatorToken = operatorToken;
        this.random = new Random(seed);
    }

    /** The exam's questions with their keys: two of each type (docs/api.md §4.2). */
    public static List<Map<String, Object>> questionsWithKeys() {
        List<Map<String, Object>> questions = new ArrayList<>();
        questions.add(question("q01", "SINGLE", "2+2?", List.of("3", "4", "5"), 2, "4"));
        questions.add(question("q02", "SINGLE", "Capital of Italy?", List.of("Rome", "Milan", "Turin"), 1, "Rome"));
        questions.add(question("q03", "MULTIPLE", "Primes?", List.of("2", "4", "5", "9"), 3, List.of("2", "5")));
        Map<String, Object> allOrNothing = question("q04", "MULTIPLE", "Even numbers?", List.of("1", "2", "6", "7"), 2,
                List.of("2", "6"));
        allOrNothing.put("scoring", "ALL_OR_NOTHING");
        questions.add(allOrNothing);
        questions.add(question("q05", "TRUE_FALSE", "0 is even", null, 1, true));
        questions.add(question("q06", "TRUE_FALSE", "1 is prime", null, 1, false));
        questions.add(question("q07", "FILL", "Capital of France", null, 1, List.of("Paris")));
        questions.add(question("q08", "FILL", "Largest planet", null, 1, List.of("Jupiter")));
        Map<String, Object> pi = question("q09", "NUMERIC", "pi to 2 dp", null, 1, 3.14);
        pi.put("tolerance", 0.005);
        questions.add(pi);
        Map<String, Object> e = question("q10", "NUMERIC", "e to 1 dp", null, 1, 2.7);
        e.put("tolerance", 0.05);
        questions.add(e);
        questions.add(question("q11", "ESSAY", "Explain why the limit exists.", null, 10, null));
        questions.add(question("q12", "ESSAY", "Describe a proof by induction.", null, 5, null));
        return questions;
    }

    public static List<Question> candidateView() {
        return questionsWithKeys().stream().map(q -> {
            @SuppressWarnings("unchecked")
            List<String> options = (List<String>) q.get("options");
            return new Question((String) q.get("id"), (String) q.get("type"), options);
        }).toList();
    }

    /**
     * The exam as its author would make it: a draft with every member, the figure its first question shows
     * ({@link Figure}), then published. Each call is safe to retry (an Idempotency-Key, content-addressed figures,
     * publishing again answers the exam).
     */
    public Exam createExam(String title, int durationSeconds, int graceSeconds) throws InterruptedException {
        Instant now = Instant.now();
        byte[] figure = Figure.png();
        List<Map<String, Object>> questions = questionsWithKeys();
        Map<String, Object> first = questions.get(0);
        first.put("format", "markdown");
        first.put("prompt", first.get("prompt") + "\n\n![" + Figure.ALT + "](figure:" + Figure.id(figure) + ")");
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("state", "DRAFT");
        body.put("title", title);
        body.put("opensAt", now.minus(Duration.ofMinutes(1)).toString());
        body.put("closesAt", now.plus(Duration.ofSeconds(durationSeconds)).plus(Duration.ofMinutes(30)).toString());
        body.put("durationSeconds", durationSeconds);
        body.put("graceSeconds", graceSeconds);
        body.put("questions", questions);
        // Each candidate sees its own order; answers name the exam's ids, so the checks are unchanged.
        body.put("shuffle", Map.of("questions", true, "options", true));
        ApiResult draft = api.send(new ApiClient.Call("operator POST /exams", "POST", sessionBase.resolve("/api/v1/exams"),
                operatorToken, Map.of("Idempotency-Key", UUID.randomUUID().toString()), body, giveUp()), random::nextDouble);
        if (!draft.ok() || draft.body() == null || !draft.body().hasNonNull("examId")) {
            throw new SetupException("creating the exam's draft failed: " + draft.describe() + detail(draft));
        }
        String examId = draft.body().get("examId").asText();
        ApiResult uploaded = api.send(new ApiClient.Call("operator POST /figures", "POST",
                sessionBase.resolve("/api/v1/exams/" + examId + "/figures"), operatorToken, Map.of(),
                new ApiClient.RawBody("image/png", figure), giveUp()), random::nextDouble);
        if (!uploaded.ok()) {
            throw new SetupException("uploading the exam's figure failed: " + uploaded.describe() + detail(uploaded));
        }
        ApiResult published = api.send(new ApiClient.Call("operator POST /publish", "POST",
                sessionBase.resolve("/api/v1/exams/" + examId + "/publish"), operatorToken, Map.of(), null, giveUp()),
                random::nextDouble);
        if (!published.ok()) {
            throw new SetupException("publishing the exam failed: " + published.describe() + detail(published));
        }
        return new Exam(examId, candidateView(), durationSeconds, graceSeconds);
    }

    /** Enrolls the candidates in batches; returns candidateId → access code. */
    public Map<String, String> enroll(String examId, List<String> candidateIds) throws InterruptedException {
        Map<String, String> codes = new LinkedHashMap<>();
        for (int from = 0; from < candidateIds.size(); from += ENROLL_BATCH) {
            List<Map<String, String>> batch = candidateIds.subList(from, Math.min(candidateIds.size(), from + ENROLL_BATCH))
                    .stream().map(id -> Map.of("candidateId", id)).toList();
            ApiResult result = api.send(new ApiClient.Call("operator POST /candidates", "POST",
                    sessionBase.resolve("/api/v1/exams/" + examId + "/candidates"), operatorToken, Map.of(),
                    Map.of("candidates", batch), giveUp()), random::nextDouble);
            if (!result.ok() || result.body() == null) {
                throw new SetupException("enrolling candidates failed: " + result.describe() + detail(result));
            }
            for (JsonNode enrolled : result.body().path("candidates")) {
                codes.put(enrolled.path("candidateId").asText(), enrolled.path("accessCode").asText());
            }
        }
        if (codes.size() != candidateIds.size()) {
            throw new SetupException("enrolled " + codes.size() + " of " + candidateIds.size() + " candidates");
        }
        return codes;
    }

    private static long giveUp() {
        return System.currentTimeMillis() + 60_000;
    }

    static String detail(ApiResult result) {
        return result.body() == null ? "" : " " + result.body();
    }

    private static Map<String, Object> question(String id, String type, String prompt, List<String> options, int points,
            Object key) {
        Map<String, Object> question = new LinkedHashMap<>();
        question.put("id", id);
        question.put("type", type);
        question.put("prompt", prompt);
        if (options != null) {
            question.put("options", options);
        }
        question.put("points", points);
        if (key != null) {
            question.put("key", key);
        }
        return question;
    }

    /** Setup could not be done: the services are not there or refused. */
    public static final class SetupException extends RuntimeException {
        public SetupException(String message) {
            super(message);
        }
    }
}
