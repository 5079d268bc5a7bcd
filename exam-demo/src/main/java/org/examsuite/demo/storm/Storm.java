package org.examsuite.demo.storm;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.examsuite.demo.candidate.AnswerValues;
import org.examsuite.demo.candidate.Question;
import org.examsuite.demo.client.ApiClient;
import org.examsuite.demo.client.ApiResult;
import org.examsuite.demo.client.RetryPolicy;
import org.examsuite.demo.setup.ExamSetup;
import org.examsuite.demo.stats.Counters;
import org.examsuite.demo.stats.Latencies;
import org.examsuite.demo.verify.JsonValues;
import org.examsuite.demo.verify.PaperCheck;
import org.examsuite.demo.verify.PaperCounts;

/**
 * The deadline storm of issue 4: N sessions, each with an autosaved draft, submit within a window (or all at
 * once) with the client's retry rules, straight to the services. Reports throughput and the latency of each
 * submission from the moment it was due (so a client queue or a slow service is not hidden: no coordinated
 * omission), then counts papers per session in exam_submission: duplicates and missing papers must be 0, and
 * each paper must hold the submitted sheet.
 */
public final class Storm {
    private record Prepared(String candidateId, String sessionId, String token, Map<String, Map<String, Object>> sheet,
            Map<String, JsonNode> values) {
    }

    private record Outcome(long dueMs, long doneMs, int status, Set<String> paperIds, int attempts) {
    }

    private Storm() {
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("jdk.httpclient.keepalive.timeout", "20");
        StormOptions options;
        try {
            options = StormOptions.parse(args, System.getenv());
        } catch (IllegalArgumentException e) {
            System.err.println("storm: " + e.getMessage());
            System.exit(2);
            return;
        }
        System.exit(run(options));
    }

    static int run(StormOptions o) throws Exception {
        Counters counters = new Counters();
        Latencies latencies = new Latencies();
        HttpClient http = ApiClient.newHttpClient();
        ApiClient api = new ApiClient(http, RetryPolicy.DEFAULT, Duration.ofSeconds(30), latencies, counters);
        Random seeds = new Random(o.seed());
        ExamSetup setup = new ExamSetup(api, o.sessionUrl(), o.operatorToken(), seeds.nextLong());
        ExamSetup.Exam exam;
        try {
            exam = setup.createExam("Deadline storm " + Instant.now(), 3_600, 30);
        } catch (ExamSetup.SetupException e) {
            System.err.println("storm: " + e.getMessage());
            return 3;
        }
        List<String> ids = new ArrayList<>();
        for (int i = 1; i <= o.sessions(); i++) {
            ids.add(String.format(Locale.ROOT, "storm-c%06d", i));
        }
        Map<String, String> codes = setup.enroll(exam.examId(), ids);
        System.out.printf(Locale.ROOT, "storm: exam %s, %d sessions, window %d s, %d client threads, seed %d%n", exam.examId(),
                o.sessions(), o.windowSeconds(), o.concurrency(), o.seed());

        ExecutorService pool = Executors.newFixedThreadPool(o.concurrency());
        List<Prepared> prepared = prepare(o, api, exam, ids, codes, seeds, pool);
        System.out.printf(Locale.ROOT, "storm: %d sessions started with drafts; submitting%n", prepared.size());

        Map<String, Outcome> outcomes = new ConcurrentHashMap<>();
        CountDownLatch done = new CountDownLatch(prepared.size());
        ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor();
        long start = System.currentTimeMillis() + 1_000;
        for (Prepared p : prepared) {
            long seed = seeds.nextLong();
            Random random = new Random(seed);
            long due = start + (long) (random.nextDouble() * o.windowSeconds() * 1000L);
            boolean doubleClick = random.nextDouble() < o.doubleClickRate();
            clock.schedule(() -> pool.execute(() -> {
                try {
                    outcomes.put(p.sessionId(), submit(o, api, p, due, doubleClick, random));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    done.countDown();
                }
            }), Math.max(0, due - System.currentTimeMillis()), TimeUnit.MILLISECONDS);
        }
        done.await();
        clock.shutdown();
        long drained = outcomes.values().stream().mapToLong(Outcome::doneMs).max().orElse(start) - start;

        Histogram latency = new Histogram(3_600_000L, 3);
        outcomes.values().forEach(out -> latency.recordValue(Math.max(1, out.doneMs() - out.dueMs())));
        long ok = outcomes.values().stream().filter(out -> out.status() >= 200 && out.status() < 300).count();
        long attempts = outcomes.values().stream().mapToLong(Outcome::attempts).sum();

        Map<String, Integer> counts;
        boolean counted = true;
        try {
            counts = PaperCounts.bySession(o.jdbcUrl(), o.dbUser(), o.dbPassword(), exam.examId());
        } catch (java.sql.SQLException e) {
            System.err.println("storm: papers per session could not be counted in PostgreSQL: " + e.getMessage());
            counts = Map.of();
            counted = false;
        }
        int duplicates = 0;
        int missing = 0;
        for (Prepared p : prepared) {
            int rows = counts.getOrDefault(p.sessionId(), 0);
            Outcome out = outcomes.get(p.sessionId());
            if (rows > 1 || (out != null && out.paperIds().size() > 1)) {
                duplicates++;
            }
            if (rows == 0 && counted) {
                missing++;
            }
        }
        List<PaperCheck.Mismatch> mismatches = checkPapers(o, api, prepared, outcomes, pool);
        pool.shutdown();

        double seconds = Math.max(0.001, drained / 1000.0);
        System.out.printf(Locale.ROOT, "%nstorm: %d submissions, %d answered 2xx, drained in %.2f s -> %.0f papers/s%n",
                prepared.size(), ok, seconds, ok / seconds);
        System.out.printf(Locale.ROOT, "storm: latency from due to paper p50 %d ms, p99 %d ms, max %d ms; attempts %d "
                + "(retries %d: %s)%n", latency.getValueAtPercentile(50), latency.getValueAtPercentile(99), latency.getMaxValue(),
                attempts, counters.sumPrefix("retry.POST"), reasons(counters));
        System.out.printf(Locale.ROOT, "storm: papers in exam_submission %s; duplicates %d; missing %s; content mismatches %d%n",
                counted ? String.valueOf(counts.values().stream().mapToInt(Integer::intValue).sum()) : "not counted", duplicates,
                counted ? String.valueOf(missing) : "not counted", mismatches.size());
        mismatches.stream().limit(20).forEach(m -> System.out.println("  x " + m));
        System.out.printf(Locale.ROOT, "BENCH-ROW | deadline storm | %d sessions | window %d s | %d client threads | drained "
                + "%.2f s | %.0f papers/s | p50 %d ms | p99 %d ms | retries %d | duplicates %d | missing %s |%n", prepared.size(),
                o.windowSeconds(), o.concurrency(), seconds, ok / seconds, latency.getValueAtPercentile(50),
                latency.getValueAtPercentile(99), counters.sumPrefix("retry.POST"), duplicates,
                counted ? String.valueOf(missing) : "not counted");
        return counted && duplicates == 0 && missing == 0 && mismatches.isEmpty() && prepared.size() == o.sessions() ? 0 : 1;
    }

    /** Starts every session and autosaves a draft of 1–5 answers (200 B–2 KiB essays among them). */
    private static List<Prepared> prepare(StormOptions o, ApiClient api, ExamSetup.Exam exam, List<String> ids,
            Map<String, String> codes, Random seeds, ExecutorService pool) throws InterruptedException {
        List<Prepared> prepared = java.util.Collections.synchronizedList(new ArrayList<>());
        CountDownLatch latch = new CountDownLatch(ids.size());
        for (String id : ids) {
            long seed = seeds.nextLong();
            pool.execute(() -> {
                try {
                    Prepared p = prepareOne(o, api, exam, id, codes.get(id), new Random(seed));
                    if (p != null) {
                        prepared.add(p);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    latch.countDown();
                }
            });
        }
        latch.await();
        return prepared;
    }

    private static Prepared prepareOne(StormOptions o, ApiClient api, ExamSetup.Exam exam, String candidateId, String code,
            Random random) throws InterruptedException {
        long giveUp = System.currentTimeMillis() + 120_000;
        ApiResult started = api.send(new ApiClient.Call("POST /sessions", "POST", o.sessionUrl().resolve("/api/v1/sessions"),
                null, Map.of(), Map.of("examId", exam.examId(), "candidateId", candidateId, "accessCode", code), giveUp),
                random::nextDouble);
        if (!started.ok()) {
            System.err.println("storm: " + candidateId + " session start " + started.describe());
            return null;
        }
        String sessionId = started.body().path("sessionId").asText();
        String token = started.body().path("token").asText();
        List<Question> questions = new ArrayList<>(exam.questions());
        java.util.Collections.shuffle(questions, random);
        Map<String, JsonNode> values = new TreeMap<>();
        List<Map<String, Object>> changes = new ArrayList<>();
        for (Question q : questions.subList(0, 1 + random.nextInt(5))) {
            JsonNode value = AnswerValues.next(q, random);
            values.put(q.id(), value);
            Map<String, Object> change = new LinkedHashMap<>();
            change.put("questionId", q.id());
            change.put("value", value);
            changes.add(change);
        }
        ApiResult saved = api.send(new ApiClient.Call("PATCH /answers", "PATCH", o.answerUrl().resolve("/api/v1/answers/"
                + sessionId), token, Map.of(), Map.of("version", 1, "changes", changes), giveUp), random::nextDouble);
        if (!saved.ok()) {
            System.err.println("storm: " + candidateId + " autosave " + saved.describe());
            return null;
        }
        // The final sheet: the draft plus an answer given since the last autosave (the merge must keep both).
        Question last = questions.get(questions.size() - 1);
        values.put(last.id(), AnswerValues.next(last, random));
        Map<String, Map<String, Object>> sheet = new TreeMap<>();
        values.forEach((id, value) -> {
            Map<String, Object> answer = new LinkedHashMap<>();
            answer.put("value", value);
            answer.put("version", id.equals(last.id()) ? 2 : 1);
            sheet.put(id, answer);
        });
        return new Prepared(candidateId, sessionId, token, sheet, values);
    }

    private static Outcome submit(StormOptions o, ApiClient api, Prepared p, long due, boolean doubleClick, Random random)
            throws InterruptedException {
        ApiClient.Call call = new ApiClient.Call("POST /submissions", "POST", o.submissionUrl().resolve("/api/v1/submissions"),
                p.token(), Map.of("Idempotency-Key", UUID.randomUUID().toString()),
                Map.of("sessionId", p.sessionId(), "answers", p.sheet()), due + 180_000);
        Set<String> paperIds = ConcurrentHashMap.newKeySet();
        java.util.concurrent.CompletableFuture<ApiResult> second = null;
        if (doubleClick) {
            long seed = random.nextLong();
            second = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                try {
                    return api.send(call, new Random(seed)::nextDouble);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return null;
                }
            }, task -> new Thread(task, "double-click").start());
        }
        ApiResult result = api.send(call, random::nextDouble);
        if (result.ok() && result.body().hasNonNull("paperId")) {
            paperIds.add(result.body().get("paperId").asText());
        }
        if (second != null) {
            ApiResult other = second.join();
            if (other != null && other.ok() && other.body().hasNonNull("paperId")) {
                paperIds.add(other.body().get("paperId").asText());
            }
        }
        return new Outcome(due, System.currentTimeMillis(), result.status(), paperIds, result.attempts());
    }

    /** Every paper must hold its submitted sheet (read as the candidate: its token may read its own paper). */
    private static List<PaperCheck.Mismatch> checkPapers(StormOptions o, ApiClient api, List<Prepared> prepared,
            Map<String, Outcome> outcomes, ExecutorService pool) throws InterruptedException {
        List<PaperCheck.Mismatch> mismatches = java.util.Collections.synchronizedList(new ArrayList<>());
        CountDownLatch latch = new CountDownLatch(prepared.size());
        for (Prepared p : prepared) {
            pool.execute(() -> {
                try {
                    Outcome out = outcomes.get(p.sessionId());
                    String paperId = out == null || out.paperIds().isEmpty() ? null : out.paperIds().iterator().next();
                    PaperCheck.Paper paper = null;
                    if (paperId != null) {
                        ApiResult read = api.send(new ApiClient.Call("verify GET /submissions", "GET",
                                o.submissionUrl().resolve("/api/v1/submissions/" + paperId), o.operatorToken(), Map.of(), null,
                                System.currentTimeMillis() + 30_000), Math::random);
                        if (read.ok()) {
                            paper = new PaperCheck.Paper(paperId, read.body().path("submittedBy").asText(null),
                                    JsonValues.answerValues(read.body().get("answers")));
                        }
                    }
                    PaperCheck.Verdict verdict = PaperCheck.check(new PaperCheck.Expectation(p.candidateId(), p.sessionId(),
                            Map.of(), Map.of(), p.values(), out == null ? Set.of() : out.paperIds(), List.of()),
                            new PaperCheck.Observation(null, paper, null, null));
                    mismatches.addAll(verdict.mismatches().stream().filter(m -> m.kind() != PaperCheck.Kind.DUPLICATE_PAPER)
                            .toList());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    latch.countDown();
                }
            });
        }
        latch.await();
        return mismatches;
    }

    private static String reasons(Counters counters) {
        StringBuilder text = new StringBuilder();
        counters.snapshot().forEach((name, value) -> {
            if (name.startsWith("retry-reason.")) {
                text.append(text.length() > 0 ? ", " : "").append(name.substring("retry-reason.".length())).append(' ')
                        .append(value);
            }
        });
        return text.length() == 0 ? "none" : text.toString();
    }

}
