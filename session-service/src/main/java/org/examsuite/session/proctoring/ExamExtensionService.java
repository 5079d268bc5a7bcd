package org.examsuite.session.proctoring;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.examsuite.common.problem.ApiException;
import org.examsuite.contracts.problem.ProblemCode;
import org.examsuite.session.audit.AuditLog;
import org.examsuite.session.device.CommandStore;
import org.examsuite.session.exam.ExamStore;
import org.examsuite.session.proctoring.ProctoringRequests.ExamExtended;
import org.examsuite.session.session.SessionFanOut;
import org.examsuite.session.session.SessionPublisher;
import org.examsuite.session.session.SessionRow;
import org.examsuite.session.session.SessionStore;

/**
 * More time for every open session of an exam in one call (a late start, a disturbance in the hall). Each
 * session gets an extension row under the call's Idempotency-Key, in one statement under the exam's row lock, so
 * a retry extends only sessions the first call did not (none, unless some started in between); a session
 * submitted or taken by auto-submit is not extended. Each extended session is told its new deadline as a command.
 */
@ApplicationScoped
public class ExamExtensionService {
    static final String DEFAULT_REASON = "exam-wide extension";

    private final Pool pool;
    private final ExamStore exams;
    private final SessionStore sessions;
    private final ExtensionStore extensions;
    private final SessionPublisher published;
    private final CommandStore commands;
    private final AuditLog audit;
    private final Clock clock;

    ExamExtensionService(Pool pool, ExamStore exams, SessionStore sessions, ExtensionStore extensions,
            SessionPublisher published, CommandStore commands, AuditLog audit, Clock clock) {
        this.pool = pool;
        this.exams = exams;
        this.sessions = sessions;
        this.extensions = extensions;
        this.published = published;
        this.commands = commands;
        this.audit = audit;
        this.clock = clock;
    }

    public Uni<ExamExtended> extend(String examId, int minutes, String reason, String idempotencyKey, String actor) {
        if (idempotencyKey == null) {
            throw new ApiException(400, ProblemCode.IDEMPOTENCY_KEY_MISSING,
                    "An exam-wide extension needs an Idempotency-Key, so that a retry does not extend twice.");
        }
        int seconds = minutes * 60;
        String why = reason == null || reason.isBlank() ? DEFAULT_REASON : reason;
        String key = "exam:" + idempotencyKey;
        Instant now = clock.instant();
        return pool.withTransaction(tx -> exams.lock(tx, examId).chain(found -> {
            if (!found) {
                throw ApiException.notFound(ProblemCode.EXAM_NOT_FOUND, "No exam with that id.");
            }
            return extensions.grantedByExam(tx, examId, key);
        }).chain(granted -> {
            if (granted != null && granted != seconds) {
                throw new ApiException(422, ProblemCode.IDEMPOTENCY_KEY_REUSED, "This Idempotency-Key was used for another extension.");
            }
            return sessions.extendExam(tx, examId, seconds, why, actor, now, key)
                    .call(rows -> rows.isEmpty() ? Uni.createFrom().voidItem()
                            : audit.record(tx, actor, "exam.extended", examId, null,
                                    Map.of("minutes", minutes, "reason", why, "sessions", rows.size())))
                    .map(rows -> new Outcome(rows, granted != null));
        })).call(outcome -> announce(examId, outcome.rows(), seconds, why))
                .map(outcome -> new ExamExtended(examId, minutes, outcome.rows().size(), outcome.replayed()));
    }

    private record Outcome(List<SessionRow> rows, boolean replayed) {
    }

    /**
     * Each extended session's state and its EXTENDED command. A call that extended none may be the retry of one that
     * committed and then could not publish (Redis down): it republishes every open session of the exam.
     */
    private Uni<Void> announce(String examId, List<SessionRow> extended, int seconds, String reason) {
        if (extended.isEmpty()) {
            return sessions.openOfExam(pool, examId).chain(rows -> SessionFanOut.each(rows, published::publishSession));
        }
        return SessionFanOut.each(extended, row -> published.publishSession(row).chain(() -> commands.push(row.sessionId(),
                "EXTENDED", Map.of("deadline", row.deadline().toString(), "seconds", seconds, "reason", reason, "byExam", true))));
    }
}
