package org.examsuite.session.proctoring;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.examsuite.common.problem.ApiException;
import org.examsuite.contracts.problem.ProblemCode;
import org.examsuite.session.audit.AuditLog;
import org.examsuite.session.device.CommandStore;
import org.examsuite.session.device.WatchFeed;
import org.examsuite.session.exam.ExamService;
import org.examsuite.session.exam.ExamStore;
import org.examsuite.session.proctoring.ProctoringRequests.ExamPause;
import org.examsuite.session.session.ExamPauses;
import org.examsuite.session.session.SessionFanOut;
import org.examsuite.session.session.SessionPublisher;
import org.examsuite.session.session.SessionRow;
import org.examsuite.session.session.SessionStore;
import org.examsuite.session.session.SessionView;

/**
 * Pause and resume, of one session or of a whole exam (a fire alarm). Paused, the candidate's
 * clock stands still and auto-submit does not take the session (it claims IN_PROGRESS only);
 * answers are still taken. Resume moves deadline and auto-submit by the time paused. Every
 * call is idempotent (pausing a paused session changes nothing), audited when it changes
 * something, and announced to the candidate as a command (PAUSED, RESUMED): one session's with
 * its own command, a whole exam's with one broadcast to all its sockets (ten thousand commands
 * one after the other took seconds to reach the last socket: bench/live).
 */
@ApplicationScoped
public class PauseService implements ExamPauses {
    private final Pool pool;
    private final SessionStore sessions;
    private final ExamStore examStore;
    private final ExamService exams;
    private final SessionPublisher published;
    private final CommandStore commands;
    private final AuditLog audit;
    private final WatchFeed watchers;
    private final Clock clock;

    PauseService(Pool pool, SessionStore sessions, ExamStore examStore, ExamService exams, SessionPublisher published,
            CommandStore commands, AuditLog audit, WatchFeed watchers, Clock clock) {
        this.watchers = watchers;
        this.pool = pool;
        this.sessions = sessions;
        this.examStore = examStore;
        this.exams = exams;
        this.published = published;
        this.commands = commands;
        this.audit = audit;
        this.clock = clock;
    }

    public Uni<SessionView> pauseSession(String sessionId, String actor) {
        Instant now = clock.instant();
        return pool.withTransaction(tx -> sessions.findForUpdate(tx, sessionId).chain(row -> {
            requireOpen(row, true);
            if (row.paused()) {
                return Uni.createFrom().item(new Change(row, false));
            }
            return sessions.pause(tx, sessionId, now)
                    .call(paused -> audit.record(tx, actor, "session.paused", row.examId(), sessionId,
                            Map.of("remainingMs", paused.remainingMs(now))))
                    .map(paused -> new Change(paused, true));
        })).call(change -> announce(change, now)).map(change -> SessionView.of(change.row(), clock.instant()));
    }

    public Uni<SessionView> resumeSession(String sessionId, String actor) {
        Instant now = clock.instant();
        return pool.withTransaction(tx -> sessions.findForUpdate(tx, sessionId).chain(row -> {
            requireOpen(row, false);
            if (!row.paused()) {
                return Uni.createFrom().item(new Change(row, false));
            }
            return sessions.resume(tx, sessionId, now)
                    .call(resumed -> audit.record(tx, actor, "session.resumed", row.examId(), sessionId,
                            Map.of("pausedMs", resumed.pausedMs() - row.pausedMs(), "deadline", resumed.deadline().toString())))
                    .map(resumed -> new Change(resumed, true));
        })).call(change -> announce(change, now)).map(change -> SessionView.of(change.row(), clock.instant()));
    }

    /** Every running session of the exam, and every one started until the exam is resumed. */
    public Uni<ExamPause> pauseExam(String examId, String actor) {
        Instant now = clock.instant();
        return exams.require(examId).chain(exam -> pool.withTransaction(tx -> examStore.pause(tx, examId, now)
                .chain(pausedAt -> sessions.pauseExam(tx, examId, now)
                        .call(rows -> audit.record(tx, actor, "exam.paused", examId, null, Map.of("sessions", rows.size(),
                                "pausedAt", pausedAt.toString())))
                        .map(rows -> new ExamChange(pausedAt, rows)))))
                .call(change -> commands.broadcast(examId, "PAUSED", Map.of("pausedAt", change.pausedAt().toString(),
                        "byExam", true)))
                .call(change -> publishAll(examId, change.rows()))
                .call(change -> watchers.publish(examId, Map.of("type", "EXAM", "paused", true,
                        "pausedAt", change.pausedAt().toString())))
                .map(change -> new ExamPause(examId, true, change.pausedAt(), change.rows().size()));
    }

    /** The sessions the exam's pause paused; a session paused on its own stays paused. */
    public Uni<ExamPause> resumeExam(String examId, String actor) {
        Instant now = clock.instant();
        return exams.require(examId).chain(exam -> pool.withTransaction(tx -> examStore.resume(tx, examId)
                .chain(() -> sessions.resumeExam(tx, examId, now))
                .call(rows -> audit.record(tx, actor, "exam.resumed", examId, null, Map.of("sessions", rows.size())))))
                .call(rows -> commands.broadcast(examId, "RESUMED", Map.of("byExam", true)))
                .call(rows -> publishAll(examId, rows))
                .call(rows -> watchers.publish(examId, Map.of("type", "EXAM", "paused", false)))
                .map(rows -> new ExamPause(examId, false, null, rows.size()));
    }

    /**
     * A session just started or resumed by its candidate: paused too if its exam is paused. Run
     * after the session's row is committed, so that an exam pause committed meanwhile is seen
     * here, or (committed later) sees the row itself.
     */
    @Override
    public Uni<SessionRow> followExam(SessionRow row) {
        if (row.submitted() || row.paused()) {
            return Uni.createFrom().item(row);
        }
        return examStore.pausedAt(pool, row.examId()).chain(pausedAt -> {
            if (pausedAt == null) {
                return Uni.createFrom().item(row);
            }
            Instant now = clock.instant();
            return pool.withTransaction(tx -> sessions.pauseExam(tx, row.examId(), now))
                    .call(rows -> announceAll(rows, now))
                    .chain(rows -> rows.stream().filter(r -> r.sessionId().equals(row.sessionId())).findFirst()
                            .map(r -> Uni.createFrom().item(r))
                            .orElseGet(() -> sessions.find(pool, row.sessionId())));
        });
    }

    private record Change(SessionRow row, boolean changed) {
    }

    private record ExamChange(Instant pausedAt, List<SessionRow> rows) {
    }

    private static void requireOpen(SessionRow row, boolean pausing) {
        if (row == null) {
            throw ApiException.notFound(ProblemCode.SESSION_NOT_FOUND, "No session with that id.");
        }
        if (row.submitted()) {
            throw ApiException.conflict(ProblemCode.SESSION_SUBMITTED, "The session is already submitted.");
        }
        if (pausing && !row.paused() && row.autosubmitClaimedAt() != null) {
            throw ApiException.conflict(ProblemCode.AUTO_SUBMIT_CLAIMED,
                    "Auto-submit has already taken this session; it can no longer be paused.");
        }
    }

    /** The state every service reads, always; the command only when something changed. */
    private Uni<Void> announce(Change change, Instant now) {
        Uni<Void> publish = published.publishSession(change.row());
        return change.changed() ? publish.chain(() -> command(change.row(), now)) : publish;
    }

    /**
     * An exam-wide change: one broadcast reached every socket already (each device keeps its own
     * remaining time); here each session's state, which the other services and the heartbeat read.
     * A call that changed no session may be the retry of one that committed and then failed to
     * publish (Redis down, the replica killed): it republishes every open session of the exam
     * from PostgreSQL, so a retried pause or resume repairs the states the other services read.
     */
    private Uni<Void> publishAll(String examId, List<SessionRow> changed) {
        Uni<List<SessionRow>> rows = changed.isEmpty() ? sessions.openOfExam(pool, examId) : Uni.createFrom().item(changed);
        return rows.chain(this::publishEach);
    }

    private Uni<Void> publishEach(List<SessionRow> rows) {
        return SessionFanOut.each(rows, published::publishSession);
    }

    private Uni<Void> announceAll(List<SessionRow> rows, Instant now) {
        return SessionFanOut.each(rows, row -> announce(new Change(row, true), now));
    }

    private Uni<Void> command(SessionRow row, Instant now) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("remainingMs", row.remainingMs(now));
        fields.put("deadline", row.deadline().toString());
        if (row.paused()) {
            fields.put("pausedAt", row.pausedAt().toString());
            fields.put("byExam", row.pausedByExam());
        }
        return commands.push(row.sessionId(), row.paused() ? "PAUSED" : "RESUMED", fields).replaceWithVoid();
    }
}
