package org.examsuite.grading.results;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.eclipse.microprofile.faulttolerance.exceptions.FaultToleranceException;
import org.examsuite.common.auth.Caller;
import org.examsuite.common.auth.Roles;
import org.examsuite.common.problem.ApiException;
import org.examsuite.contracts.problem.ProblemCode;
import org.examsuite.grading.audit.AuditLog;
import org.examsuite.grading.clients.ExamDirectory;
import org.examsuite.grading.clients.RemoteFailure;
import org.examsuite.grading.db.Db;
import org.examsuite.grading.results.ResultStore.ResultRow;
import org.examsuite.grading.saga.SagaDefinition;
import org.examsuite.grading.saga.SagaEngine;
import org.examsuite.grading.saga.SagaStatus;
import org.examsuite.grading.saga.SagaStore;
import org.examsuite.grading.saga.SagaStore.SagaRow;

/** The rules of results: who sees what and when, essay marks, release, and regrade. */
@ApplicationScoped
public class ResultsService {
    private final ResultStore results;
    private final SagaStore sagas;
    private final SagaEngine engine;
    /** The saga that grades each run of a paper: the service's one definition, injected so results/ need not know flow/. */
    private final SagaDefinition grading;
    private final ExamDirectory exams;
    private final AuditLog audit;
    private final Db db;
    private final ObjectMapper mapper;
    private final Clock clock;

    @Inject
    ResultsService(ResultStore results, SagaStore sagas, SagaEngine engine, SagaDefinition grading, ExamDirectory exams,
            AuditLog audit, Db db, ObjectMapper mapper, Clock clock) {
        this.results = results;
        this.sagas = sagas;
        this.engine = engine;
        this.grading = grading;
        this.exams = exams;
        this.audit = audit;
        this.db = db;
        this.mapper = mapper;
        this.clock = clock;
    }

    @RegisterForReflection
    public record ReleaseView(String examId, String releasedAt, String releasedBy) {
    }

    @RegisterForReflection
    public record RegradeView(String examId, long keyRevision, int regrading) {
    }

    @RegisterForReflection
    public record MarksView(String paperId, UUID sagaId, int run, Map<String, BigDecimal> marks) {
    }

    /**
     * A paper's result. The newest run decides, except while a regrade is still running:
     * then the last GRADED run stays on show. Candidates: only their own session's paper,
     * and only once an operator released the exam's results.
     */
    public ResultView view(String paperId, Caller caller) {
        List<ResultRow> runs = results.runs(paperId);
        if (runs.isEmpty()) {
            throw ApiException.notFound(ProblemCode.RESULT_NOT_FOUND, "No result for that paper.");
        }
        ResultRow latest = runs.get(0);
        ResultRow shown = latest;
        boolean regrading = false;
        if (!latest.isFinal()) {
            for (ResultRow run : runs) {
                if (ResultStore.GRADED.equals(run.status())) {
                    shown = run;
                    regrading = true;
                    break;
                }
            }
        }
        caller.requireAssigned(latest.examId(), ProblemCode.RESULT_NOT_FOUND, Roles.GRADER);
        boolean fullView = caller.isOperator() || caller.isStaff(); // staff here: the exam's grader (checked above)
        boolean released = results.releasedAt(latest.examId()).isPresent();
        if (!fullView) {
            caller.requireSession(latest.sessionId());
            if (!released) {
                throw new ApiException(403, ProblemCode.RESULTS_NOT_RELEASED, "The results of this exam have not been released yet.");
            }
        }
        boolean graded = ResultStore.GRADED.equals(shown.status());
        return new ResultView(shown.paperId(), shown.sessionId(), shown.examId(), shown.status(),
                graded ? plain(shown.score()) : null, plain(shown.maxScore()), graded ? marks(shown.marks()) : null,
                fullView ? shown.run() : null, fullView ? shown.sagaId() : null, fullView ? shown.reason() : null,
                fullView ? shown.keyRevision() : null, fullView ? shown.archiveSeq() : null, fullView ? regrading : null,
                released);
    }

    /**
     * Essay marks for a saga parked in the grade step. Each must name an essay question of
     * the paper and lie within its points. The saga wakes and grades again with them.
     * Sending the same marks again (a retry) changes nothing.
     */
    public MarksView marks(String paperId, Map<String, BigDecimal> marks, Caller caller) {
        String actor = caller.actor();
        return db.inTransaction(c -> {
            List<ResultRow> runs = results.runs(c, paperId, false);
            if (runs.isEmpty()) {
                throw ApiException.notFound(ProblemCode.RESULT_NOT_FOUND, "No result for that paper.");
            }
            ResultRow latest = runs.get(0);
            caller.requireAssigned(latest.examId(), ProblemCode.RESULT_NOT_FOUND, Roles.GRADER);
            SagaRow saga = sagas.find(c, latest.sagaId(), true).orElseThrow();
            ObjectNode data = (ObjectNode) read(saga.data());
            Map<String, BigDecimal> current = essayMarks(data);
            if (saga.state() != SagaStatus.WAITING) {
                if (current.entrySet().containsAll(normalised(marks).entrySet())) {
                    return new MarksView(paperId, saga.sagaId(), saga.run(), current);
                }
                throw ApiException.conflict(ProblemCode.NOT_AWAITING_MARKS, "This paper's grading is not waiting for essay marks.");
            }
            Map<String, JsonNode> essays = new LinkedHashMap<>();
            data.path("grade").path("marks").forEach(mark -> {
                if ("ESSAY".equals(mark.path("type").asText())) {
                    essays.put(mark.path("questionId").asText(), mark.path("points"));
                }
            });
            ObjectNode stored = data.has("essayMarks") ? (ObjectNode) data.get("essayMarks") : data.putObject("essayMarks");
            for (Map.Entry<String, BigDecimal> mark : marks.entrySet()) {
                JsonNode points = essays.get(mark.getKey());
                if (points == null) {
                    throw ApiException.badRequest(ProblemCode.UNKNOWN_QUESTION, "Question " + mark.getKey() + " is not an essay of this paper.");
                }
                if (mark.getValue().signum() < 0 || mark.getValue().compareTo(points.decimalValue()) > 0) {
                    throw ApiException.badRequest(ProblemCode.INVALID_MARK, "The mark for " + mark.getKey() + " must lie between 0 and "
                            + points.decimalValue().toPlainString() + ".");
                }
                stored.put(mark.getKey(), mark.getValue());
            }
            sagas.setData(c, saga.sagaId(), data.toString());
            sagas.wake(c, saga.sagaId(), "essay marks by " + actor);
            audit.record(c, actor, "ESSAY_MARKS", latest.examId(), paperId, saga.sagaId(), stored.toString());
            return new MarksView(paperId, saga.sagaId(), saga.run(), essayMarks(data));
        });
    }

    /** Idempotent: the first release stays; every call is audited. */
    public ReleaseView release(String examId, String actor) {
        return db.inTransaction(c -> {
            boolean first = results.release(c, examId, Timestamp.from(clock.instant()), actor);
            audit.record(c, actor, "RELEASE_RESULTS", examId, null, null, first ? "released" : "already released");
            try (PreparedStatement select = c.prepareStatement(
                    "SELECT released_at, released_by FROM exam_release WHERE exam_id = ?")) {
                select.setString(1, examId);
                try (var rs = select.executeQuery()) {
                    rs.next();
                    return new ReleaseView(examId, rs.getTimestamp(1).toInstant().toString(), rs.getString(2));
                }
            }
        });
    }

    /**
     * After a key correction: a new saga run for every paper of the exam whose newest run
     * was not already graded with these keys. Safe to repeat: a second call for the same key
     * revision finds every paper up to date and starts nothing.
     */
    public RegradeView regrade(String examId, String actor) {
        long keyRevision = currentKeyRevision(examId);
        int started = db.inTransaction(c -> {
            int count = 0;
            for (ResultRow latest : results.latestOfExam(c, examId)) {
                SagaRow saga = sagas.find(c, latest.sagaId(), false).orElseThrow();
                JsonNode data = read(saga.data());
                long known = latest.keyRevision() != null ? latest.keyRevision() : data.path("minKeyRevision").asLong(-1);
                if (known >= keyRevision) {
                    continue;
                }
                ObjectNode fresh = mapper.createObjectNode();
                fresh.put("minKeyRevision", keyRevision);
                fresh.put("regradeOf", latest.run());
                if (nextRun(c, latest, saga, fresh, "regrade by " + actor).isPresent()) {
                    count++;
                }
            }
            audit.record(c, actor, "REGRADE", examId, null, null, "keyRevision " + keyRevision + ", " + count + " paper(s)");
            return count;
        });
        if (started > 0) {
            engine.nudge();
        }
        return new RegradeView(examId, keyRevision, started);
    }

    /**
     * An operator's re-run of a finished saga whose result NEEDS_REVIEW (COMPENSATED): a new
     * run n+1 of the paper, with the old run's essay marks and key revision. Its RESULT record
     * supersedes the paper's newest earlier RESULT, if any (records are appended, never
     * edited). Only the paper's newest run can be re-run. Returns the new run's saga id.
     */
    public UUID rerun(Connection c, SagaRow saga, String actor) throws SQLException {
        List<ResultRow> runs = results.runs(c, saga.key(), true);
        if (runs.isEmpty() || runs.get(0).run() != saga.run()) {
            throw ApiException.conflict(ProblemCode.SAGA_SUPERSEDED, "A newer run of this paper exists; retry or inspect that one.");
        }
        JsonNode data = read(saga.data());
        ObjectNode fresh = mapper.createObjectNode();
        long revision = data.path("grade").path("keyRevision").asLong(data.path("minKeyRevision").asLong(0));
        fresh.put("minKeyRevision", revision);
        fresh.put("rerunOf", saga.run());
        return nextRun(c, runs.get(0), saga, fresh, "re-run by " + actor)
                .orElseThrow(() -> ApiException.conflict(ProblemCode.SAGA_SUPERSEDED, "A newer run of this paper exists."));
    }

    /**
     * Starts run n+1 of a paper after {@code latest}. The essay marks of the old run are carried
     * over. An old run still parked waiting for essay marks (or FAILED, waiting for an
     * operator) would otherwise wait forever: it is SUPERSEDED — recorded in its history, its
     * provisional marks voided — and marks now go to the new run.
     */
    private Optional<UUID> nextRun(Connection c, ResultRow latest, SagaRow saga, ObjectNode fresh, String why) throws SQLException {
        JsonNode data = read(saga.data());
        if (data.has("essayMarks")) {
            fresh.set("essayMarks", data.get("essayMarks"));
        }
        List<String> steps = grading.steps().stream().map(SagaDefinition.Step::name).toList();
        int run = latest.run() + 1;
        UUID sagaId = UUID.randomUUID();
        PaperRun next = new PaperRun(latest.paperId(), run, latest.examId(), latest.sessionId());
        Optional<UUID> created = sagas.create(c, new SagaStore.NewSaga(sagaId, grading.name(), next.paperId(), next.run(),
                next.refs(), fresh.toString(), saga.traceparent(), saga.tracestate(), steps));
        if (created.isEmpty()) {
            return created;
        }
        results.createPending(c, latest.paperId(), run, sagaId, latest.examId(), latest.sessionId());
        if (sagas.supersede(c, saga.sagaId(), "by run " + run + " (" + why + ")")) {
            results.voidMarks(c, latest.paperId(), latest.run(), "superseded by run " + run);
        }
        return created;
    }

    private long currentKeyRevision(String examId) {
        try {
            return exams.exam(examId).path("keyRevision").asLong(0);
        } catch (RemoteFailure failure) {
            if (!failure.isTransient() && failure.status() == 404) {
                throw ApiException.notFound(ProblemCode.EXAM_NOT_FOUND, "session-service knows no such exam.");
            }
            throw ApiException.retryLater(503, ProblemCode.UPSTREAM_UNAVAILABLE, "session-service could not be asked for the exam's keys.", 5);
        } catch (FaultToleranceException e) {
            throw ApiException.retryLater(503, ProblemCode.UPSTREAM_UNAVAILABLE, "session-service could not be asked for the exam's keys.", 5);
        }
    }

    private JsonNode read(String json) {
        try {
            return mapper.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private List<ResultView.MarkView> marks(String json) {
        if (json == null) {
            return null;
        }
        List<ResultView.MarkView> marks = new ArrayList<>();
        for (JsonNode mark : read(json)) {
            marks.add(new ResultView.MarkView(mark.path("questionId").asText(), mark.path("type").asText(),
                    plain(mark.path("points").decimalValue()), mark.path("score").isNumber() ? plain(mark.path("score").decimalValue()) : null));
        }
        return marks;
    }

    private static Map<String, BigDecimal> essayMarks(ObjectNode data) {
        Map<String, BigDecimal> marks = new LinkedHashMap<>();
        data.path("essayMarks").fields().forEachRemaining(entry -> marks.put(entry.getKey(), plain(entry.getValue().decimalValue())));
        return marks;
    }

    private static Map<String, BigDecimal> normalised(Map<String, BigDecimal> marks) {
        Map<String, BigDecimal> plain = new LinkedHashMap<>();
        marks.forEach((key, value) -> plain.put(key, plain(value)));
        return plain;
    }

    /** 2.0000 → 2, 1.3333 stays: no exponent notation, no trailing zeros. */
    static BigDecimal plain(BigDecimal value) {
        if (value == null) {
            return null;
        }
        BigDecimal stripped = value.stripTrailingZeros();
        return stripped.scale() < 0 ? stripped.setScale(0) : stripped;
    }
}
