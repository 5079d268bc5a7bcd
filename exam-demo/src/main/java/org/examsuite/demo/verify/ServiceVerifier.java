package org.examsuite.demo.verify;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.examsuite.demo.candidate.CandidateOutcome;
import org.examsuite.demo.candidate.Question;
import org.examsuite.demo.client.ApiClient;
import org.examsuite.demo.client.ApiResult;

/**
 * Checks the run against the services directly (not through the fault proxy) and against the database:
 * every candidate has exactly one paper, each paper holds what the candidate last knew, every paper is
 * graded (essays marked here, as an operator), and the archive chain verifies.
 */
public final class ServiceVerifier {
    /** Where the services and the database are. */
    public record Targets(URI sessionBase, URI submissionBase, URI gradingBase, String jdbcUrl, String dbUser,
            String dbPassword, String papersTable) {
    }

    static final String AWAITING_MARKS = "awaiting operator marks for ";

    private final ApiClient api;
    private final Targets targets;
    private final String operatorToken;
    private final Listener progress;

    /** The verification's steps as they go: papers named by sessions, papers graded, the archive check. */
    public interface Listener {
        /** {@code fraction}: of the whole verification (papers named 30 %, read 20 %, graded 45 %, the archive check 5 %). */
        void step(String step, double fraction, String status);
    }
    private final Random random = new Random(7);

    public ServiceVerifier(ApiClient api, Targets targets, String operatorToken, Listener progress) {
        this.api = api;
        this.targets = targets;
        this.operatorToken = operatorToken;
        this.progress = progress;
    }

    /** {@code graceMs}: the exam's grace, to time each paper against its session's close (deadline + grace). */
    public Verification verify(String examId, List<CandidateOutcome> outcomes, List<Question> questions, long graceMs,
            long waitUntilEpochMs) throws InterruptedException {
        Verification verification = new Verification();
        verification.candidates = outcomes.size();
        Map<String, String> paperBySession = waitForPapers(outcomes, waitUntilEpochMs, verification);
        Map<String, Integer> sqlCounts = sqlPaperCounts(examId, verification);
        Map<String, PaperCheck.Paper> papers = new HashMap<>();
        int read = 0;
        for (String paperId : paperBySession.values()) {
            if (read++ % 25 == 0) {
                progress.step("reading papers", 0.3 + 0.2 * read / Math.max(1, paperBySession.size()),
                        "papers read from submission-service " + (read - 1) + "/" + paperBySession.size());
            }
            if (paperId != null) {
                PaperCheck.Paper paper = readPaper(paperId, verification);
                if (paper != null) {
                    papers.put(paperId, paper);
                }
            }
        }
        Map<String, String> resultStatus = waitForGrading(papers.keySet(), questions, waitUntilEpochMs + 120_000, verification);
        for (CandidateOutcome outcome : outcomes) {
            String paperId = outcome.sessionId == null ? null : paperBySession.get(outcome.sessionId);
            PaperCheck.Paper paper = paperId == null ? null : papers.get(paperId);
            Integer sqlCount = sqlCounts == null || outcome.sessionId == null ? null
                    : sqlCounts.getOrDefault(outcome.sessionId, 0);
            PaperCheck.Verdict verdict = PaperCheck.check(expectation(outcome),
                    new PaperCheck.Observation(paperId, paper, sqlCount, paperId == null ? null : resultStatus.get(paperId)));
            verification.mismatches.addAll(verdict.mismatches());
            verification.lostAnswers += verdict.lostAnswers();
            verification.duplicates += verdict.duplicate() ? 1 : 0;
            if (verdict.hasPaper()) {
                verification.papers++;
                if (outcome.deadlineMs > 0 && paper.submittedAtMs() > 0) {
                    verification.paperStored(paper.submittedAtMs() - (outcome.deadlineMs + graceMs));
                }
                if (!"CANDIDATE".equals(paper.submittedBy())) {
                    verification.autoSubmitted++;
                }
            }
        }
        verification.graded = (int) resultStatus.values().stream().filter("GRADED"::equals).count();
        if (verification.archived < verification.graded) {
            // grading-saga makes a result GRADED in the transaction that archives it and shows operators its archiveSeq
            verification.problems.add((verification.graded - verification.archived)
                    + " GRADED result(s) name no archive record (archiveSeq)");
        }
        if (sqlCounts != null && verification.sqlPapers > outcomes.size()) {
            verification.problems.add("exam_submission holds " + verification.sqlPapers + " papers for " + outcomes.size()
                    + " sessions");
        }
        progress.step("archive verify", 0.95, "checking the archive's hash chain");
        verifyArchive(verification);
        return verification;
    }

    static PaperCheck.Expectation expectation(CandidateOutcome outcome) {
        return new PaperCheck.Expectation(outcome.candidateId, outcome.sessionId, outcome.ledger.acknowledgedValues(),
                outcome.ledger.inDoubtValues(), outcome.finalSheet, java.util.Set.copyOf(outcome.paperIds),
                List.copyOf(outcome.errors));
    }

    /** Polls each session until it names its paper (auto-submit takes the last ones at deadline + grace). */
    private Map<String, String> waitForPapers(List<CandidateOutcome> outcomes, long until, Verification verification)
            throws InterruptedException {
        Map<String, String> paperBySession = new LinkedHashMap<>();
        Map<String, CandidateOutcome> pending = new LinkedHashMap<>();
        outcomes.stream().filter(o -> o.sessionId != null).forEach(o -> pending.put(o.sessionId, o));
        while (true) {
            for (var it = pending.entrySet().iterator(); it.hasNext() && System.currentTimeMillis() <= until;) {
                var entry = it.next();
                ApiResult session = poll("verify GET /sessions", targets.sessionBase().resolve("/api/v1/sessions/" + entry.getKey()),
                        entry.getValue().lastToken);
                if (session.ok() && session.body() != null && session.body().hasNonNull("paperId")) {
                    paperBySession.put(entry.getKey(), session.body().get("paperId").asText());
                    it.remove();
                }
            }
            int total = paperBySession.size() + pending.size();
            progress.step("waiting for papers", 0.3 * paperBySession.size() / Math.max(1, total),
                    "sessions naming their paper " + paperBySession.size() + "/" + total
                            + " (auto-submit takes the rest at deadline + grace)");
            if (pending.isEmpty() || System.currentTimeMillis() > until) {
                break;
            }
            Thread.sleep(2_000);
        }
        pending.keySet().forEach(sessionId -> verification.problems.add("session " + sessionId + " still has no paper"));
        return paperBySession;
    }

    private PaperCheck.Paper readPaper(String paperId, Verification verification) throws InterruptedException {
        ApiResult result = get("verify GET /submissions", targets.submissionBase().resolve("/api/v1/submissions/" + paperId), null);
        if (!result.ok() || result.body() == null) {
            verification.problems.add("paper " + paperId + ": " + result.describe());
            return null;
        }
        return new PaperCheck.Paper(result.body().path("paperId").asText(paperId), result.body().path("submittedBy").asText(null),
                JsonValues.answerValues(result.body().get("answers")), epochMs(result.body().path("submittedAt").asText(null)));
    }

    private static long epochMs(String instant) {
        try {
            return instant == null ? 0 : java.time.Instant.parse(instant).toEpochMilli();
        } catch (java.time.format.DateTimeParseException e) {
            return 0;
        }
    }

    /** Papers per session straight from exam_submission (read-only); null when the database cannot be read. */
    private Map<String, Integer> sqlPaperCounts(String examId, Verification verification) {
        try {
            Map<String, Integer> counts = PaperCounts.bySession(targets.jdbcUrl(), targets.dbUser(), targets.dbPassword(),
                    targets.papersTable(), examId);
            verification.sqlPapers = counts.values().stream().mapToLong(Integer::longValue).sum();
            return counts;
        } catch (SQLException e) {
            verification.problems.add("papers per session could not be counted in PostgreSQL: " + e.getMessage());
            return null;
        }
    }

    /** Polls results; papers waiting for essay marks get them (as an operator), until every one is GRADED. */
    private Map<String, String> waitForGrading(java.util.Set<String> paperIds, List<Question> questions, long until,
            Verification verification) throws InterruptedException {
        Map<String, String> status = new HashMap<>();
        java.util.Set<String> marked = new java.util.HashSet<>();
        while (true) {
            for (String paperId : paperIds) {
                if ("GRADED".equals(status.get(paperId)) || System.currentTimeMillis() > until) {
                    continue;
                }
                ApiResult result = poll("verify GET /results", targets.gradingBase().resolve("/api/v1/results/" + paperId), null);
                String current = result.ok() && result.body() != null ? result.body().path("status").asText("UNKNOWN")
                        : "HTTP " + result.status() + (result.code() == null ? "" : " " + result.code());
                status.put(paperId, current);
                String reason = result.ok() && result.body() != null ? result.body().path("reason").asText("") : "";
                if ("PENDING".equals(current) && reason.startsWith(AWAITING_MARKS) && marked.add(paperId)) {
                    postEssayMarks(paperId, essaysNamed(reason, questions), verification);
                }
                if ("GRADED".equals(current) && result.body().hasNonNull("archiveSeq")) {
                    verification.archived++;
                }
            }
            long graded = status.values().stream().filter("GRADED"::equals).count();
            progress.step("waiting for grading", 0.5 + 0.45 * graded / Math.max(1, paperIds.size()),
                    "papers graded and archived " + graded + "/" + paperIds.size());
            long settled = status.values().stream().filter(s -> s.equals("GRADED") || s.equals("NEEDS_REVIEW")
                    || s.equals("FAILED")).count();
            if (settled == paperIds.size() || System.currentTimeMillis() > until) {
                return status;
            }
            Thread.sleep(2_000);
        }
    }

    /**
     * grading-saga parks a paper's saga in its grade step until an operator marks the essays; the result stays
     * PENDING with this reason, naming the essays (docs: GradingSaga). Falls back to every essay of the exam.
     */
    static List<String> essaysNamed(String reason, List<Question> questions) {
        List<String> named = java.util.Arrays.stream(reason.substring(AWAITING_MARKS.length()).split(","))
                .map(String::trim).filter(id -> !id.isEmpty()).toList();
        return named.isEmpty() ? questions.stream().filter(q -> "ESSAY".equals(q.type())).map(Question::id).toList() : named;
    }

    private void postEssayMarks(String paperId, List<String> essays, Verification verification) throws InterruptedException {
        Map<String, Object> marks = new LinkedHashMap<>();
        essays.forEach(id -> marks.put(id, 1 + random.nextInt(5))); // every demo essay is worth at least 5 points
        ApiResult result = api.send(new ApiClient.Call("verify POST /marks", "POST",
                targets.gradingBase().resolve("/api/v1/results/" + paperId + "/marks"), operatorToken, Map.of(),
                Map.of("marks", marks), System.currentTimeMillis() + 30_000), random::nextDouble);
        if (result.ok()) {
            verification.essayMarksPosted++;
        } else {
            verification.problems.add("essay marks for paper " + paperId + ": " + result.describe()
                    + (result.body() == null ? "" : " " + result.body()));
        }
    }

    private void verifyArchive(Verification verification) throws InterruptedException {
        ApiResult result = get("verify GET /archive/verify", targets.gradingBase().resolve("/api/v1/archive/verify"), null);
        verification.archiveVerify = result.describe() + (result.body() == null ? "" : " " + abbreviate(result.body()));
        JsonNode body = result.body();
        verification.archiveOk = result.ok() && body != null && (body.path("ok").asBoolean(false)
                || body.path("valid").asBoolean(false) || body.path("verified").asBoolean(false));
        if (!verification.archiveOk) {
            verification.problems.add("archive verify: " + verification.archiveVerify);
        }
    }

    /** A GET inside a polling loop: the loop comes back, so a service that does not answer costs seconds, not minutes. */
    private ApiResult poll(String endpoint, URI uri, String candidateToken) throws InterruptedException {
        return get(endpoint, uri, candidateToken, 5_000);
    }

    private ApiResult get(String endpoint, URI uri, String candidateToken) throws InterruptedException {
        return get(endpoint, uri, candidateToken, 20_000);
    }

    /** GET as the operator; a 401/403 falls back to the candidate's own token (candidates may read their session). */
    private ApiResult get(String endpoint, URI uri, String candidateToken, long giveUpMs) throws InterruptedException {
        long giveUp = System.currentTimeMillis() + giveUpMs;
        ApiResult result = api.send(new ApiClient.Call(endpoint, "GET", uri, operatorToken, Map.of(), null, giveUp),
                random::nextDouble);
        if ((result.status() == 401 || result.status() == 403) && candidateToken != null) {
            result = api.send(new ApiClient.Call(endpoint, "GET", uri, candidateToken, Map.of(), null, giveUp), random::nextDouble);
        }
        return result;
    }

    private static String abbreviate(JsonNode body) {
        String text = body.toString();
        return text.length() > 300 ? text.substring(0, 297) + "..." : text;
    }
}
