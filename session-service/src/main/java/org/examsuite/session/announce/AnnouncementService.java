package org.examsuite.session.announce;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.examsuite.common.problem.ApiException;
import org.examsuite.contracts.problem.ProblemCode;
import org.examsuite.session.audit.AuditLog;
import org.examsuite.session.device.CommandStore;
import org.examsuite.session.exam.ExamService;
import org.examsuite.session.exam.ExamStore;
import org.examsuite.session.session.SessionFanOut;
import org.examsuite.session.session.SessionStore;

/**
 * An announcement to every candidate of an exam ("the fire alarm is a drill"): stored once per Idempotency-Key, then
 * an ANNOUNCEMENT command (with the announcement's id) for every open session — the live socket delivers it at once,
 * the heartbeat to devices without one. A retry delivers again (the page shows an announcement id once), so a call
 * that stored the announcement and then failed to deliver (Redis down: 503) is completed by its retry.
 */
@ApplicationScoped
public class AnnouncementService {
    /** Announcements a listing returns at most. */
    static final int LIST_LIMIT = 200;

    private final Pool pool;
    private final ExamStore examStore;
    private final ExamService exams;
    private final AnnouncementStore store;
    private final SessionStore sessions;
    private final CommandStore commands;
    private final AuditLog audit;
    private final Clock clock;

    AnnouncementService(Pool pool, ExamStore examStore, ExamService exams, AnnouncementStore store, SessionStore sessions,
            CommandStore commands, AuditLog audit, Clock clock) {
        this.pool = pool;
        this.examStore = examStore;
        this.exams = exams;
        this.store = store;
        this.sessions = sessions;
        this.commands = commands;
        this.audit = audit;
        this.clock = clock;
    }

    /** What a post did: the announcement, whether the key was seen before, and how many open sessions it went to. */
    public record Posted(Announcement announcement, boolean replayed, int sessionsReached) {
    }

    public Uni<Posted> post(String examId, String text, String idempotencyKey, String actor) {
        if (idempotencyKey == null) {
            throw new ApiException(400, ProblemCode.IDEMPOTENCY_KEY_MISSING,
                    "An announcement needs an Idempotency-Key, so that a retry does not announce twice.");
        }
        Announcement fresh = new Announcement(UUID.randomUUID().toString(), examId, text, actor, clock.instant());
        return pool.withTransaction(tx -> examStore.lock(tx, examId).chain(found -> {
            if (!found) {
                throw ApiException.notFound(ProblemCode.EXAM_NOT_FOUND, "No exam with that id.");
            }
            return store.insert(tx, fresh, idempotencyKey);
        }).chain(inserted -> {
            if (inserted != null) {
                return audit.record(tx, actor, "exam.announced", examId, null,
                        Map.of("announcementId", inserted.announcementId(), "text", text))
                        .replaceWith(new Stored(inserted, false));
            }
            return store.findByKey(tx, examId, idempotencyKey).map(prior -> {
                if (!prior.text().equals(text)) {
                    throw new ApiException(422, ProblemCode.IDEMPOTENCY_KEY_REUSED, "This Idempotency-Key was used for another announcement.");
                }
                return new Stored(prior, true);
            });
        })).chain(stored -> deliver(stored.announcement())
                .map(reached -> new Posted(stored.announcement(), stored.replayed(), reached)));
    }

    private record Stored(Announcement announcement, boolean replayed) {
    }

    public Uni<List<Announcement>> list(String examId) {
        return exams.require(examId).chain(exam -> store.ofExam(pool, examId, LIST_LIMIT));
    }

    private Uni<Integer> deliver(Announcement a) {
        Map<String, Object> fields = Map.of("announcementId", a.announcementId(), "text", a.text(),
                "postedAt", a.postedAt().toString());
        return sessions.openOfExam(pool, a.examId()).chain(rows -> SessionFanOut
                .each(rows, row -> commands.push(row.sessionId(), "ANNOUNCEMENT", fields)).replaceWith(rows.size()));
    }
}
