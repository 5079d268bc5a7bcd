package org.examsuite.session.session;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.vertx.UniHelper;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collector;
import java.util.stream.Collectors;

/**
 * The {@code session} table. Every change bumps {@code row_version}, which the published
 * state carries so that Redis never goes back to an older row. SUBMITTED is final: every
 * update that sets it requires IN_PROGRESS or PAUSED, and PAUSED ↔ IN_PROGRESS only.
 */
@ApplicationScoped
public class SessionStore {

    /** Creates the candidate's session; null if it already has one. */
    Uni<SessionRow> insert(SqlClient client, String sessionId, String examId, String candidateId, Instant startedAt,
            Instant deadline, int graceSeconds) {
        return client.preparedQuery("INSERT INTO session (session_id, exam_id, candidate_id, device_epoch, started_at, deadline, "
                + "grace_seconds, submit_due_at, status) VALUES ($1, $2, $3, 1, $4, $5, $6, $7, 'IN_PROGRESS') "
                + "ON CONFLICT (exam_id, candidate_id) DO NOTHING RETURNING *")
                .execute(Tuple.from(new Object[] {sessionId, examId, candidateId, at(startedAt), at(deadline), graceSeconds,
                        at(deadline.plusSeconds(graceSeconds))}))
                .map(SessionStore::first);
    }

    /** Another device takes the session over: a higher epoch. */
    Uni<SessionRow> takeOver(SqlClient client, String examId, String candidateId) {
        return client.preparedQuery("UPDATE session SET device_epoch = device_epoch + 1, row_version = row_version + 1 "
                + "WHERE exam_id = $1 AND candidate_id = $2 RETURNING *")
                .execute(Tuple.of(examId, candidateId)).map(SessionStore::first);
    }

    Uni<SessionRow> findByCandidate(SqlClient client, String examId, String candidateId) {
        return client.preparedQuery("SELECT * FROM session WHERE exam_id = $1 AND candidate_id = $2")
                .execute(Tuple.of(examId, candidateId)).map(SessionStore::first);
    }

    public Uni<SessionRow> find(SqlClient client, String sessionId) {
        return client.preparedQuery("SELECT * FROM session WHERE session_id = $1").execute(Tuple.of(sessionId))
                .map(SessionStore::first);
    }

    public Uni<SessionRow> findForUpdate(SqlClient tx, String sessionId) {
        return tx.preparedQuery("SELECT * FROM session WHERE session_id = $1 FOR UPDATE").execute(Tuple.of(sessionId))
                .map(SessionStore::first);
    }

    /** IN_PROGRESS or PAUSED → SUBMITTED; null when the session was neither (or does not exist). */
    public Uni<SessionRow> markSubmitted(SqlClient client, String sessionId, String paperId, String submittedBy,
            Instant submittedAt) {
        return client.preparedQuery("UPDATE session SET status = 'SUBMITTED', paper_id = $2, submitted_by = $3, "
                + "submitted_at = $4, paused_at = NULL, row_version = row_version + 1 "
                + "WHERE session_id = $1 AND status IN ('IN_PROGRESS', 'PAUSED') RETURNING *")
                .execute(Tuple.of(sessionId, paperId, submittedBy, at(submittedAt))).map(SessionStore::first);
    }

    /** Who submitted, learnt after the status changed (the first report did not say). */
    Uni<SessionRow> fillSubmitter(SqlClient client, String sessionId, String paperId, String submittedBy) {
        return client.preparedQuery("UPDATE session SET submitted_by = $3, row_version = row_version + 1 "
                + "WHERE session_id = $1 AND paper_id = $2 AND submitted_by IS NULL RETURNING *")
                .execute(Tuple.of(sessionId, paperId, submittedBy)).map(SessionStore::first);
    }

    public Uni<SessionRow> extend(SqlClient tx, String sessionId, int seconds) {
        return tx.preparedQuery("UPDATE session SET deadline = deadline + ($2::int * interval '1 second'), "
                + "submit_due_at = submit_due_at + ($2::int * interval '1 second'), row_version = row_version + 1 "
                + "WHERE session_id = $1 AND status IN ('IN_PROGRESS', 'PAUSED') AND autosubmit_claimed_at IS NULL RETURNING *")
                .execute(Tuple.of(sessionId, seconds)).map(SessionStore::first);
    }

    /**
     * Every open session of the exam not yet extended under {@code idempotencyKey} gets
     * {@code seconds} more, and an extension row under that key, in one statement; the rows changed.
     * The caller holds the exam's row lock, so a retry with the same key sees the first's rows.
     */
    public Uni<List<SessionRow>> extendExam(SqlClient tx, String examId, int seconds, String reason, String actor, Instant now,
            String idempotencyKey) {
        return everyRow(tx, "WITH extended AS (UPDATE session s SET deadline = deadline + ($2::int * interval '1 second'), "
                + "submit_due_at = submit_due_at + ($2::int * interval '1 second'), row_version = row_version + 1 "
                + "WHERE exam_id = $1 AND status IN ('IN_PROGRESS', 'PAUSED') AND autosubmit_claimed_at IS NULL "
                + "AND NOT EXISTS (SELECT 1 FROM extension x WHERE x.session_id = s.session_id AND x.idempotency_key = $6) "
                + "RETURNING s.*), granted AS (INSERT INTO extension (session_id, seconds, reason, extended_by, extended_at, "
                + "idempotency_key) SELECT session_id, $2, $3, $4, $5, $6 FROM extended) SELECT * FROM extended",
                io.vertx.sqlclient.Tuple.of(examId, seconds, reason, actor, at(now), idempotencyKey));
    }

    private static final String PAUSE = "UPDATE session SET status = 'PAUSED', paused_at = $2, paused_by_exam = $3, "
            + "row_version = row_version + 1 WHERE status = 'IN_PROGRESS' AND autosubmit_claimed_at IS NULL AND ";
    private static final String RESUME = "UPDATE session SET status = 'IN_PROGRESS', "
            + "deadline = deadline + GREATEST(interval '0', $2 - paused_at), "
            + "submit_due_at = submit_due_at + GREATEST(interval '0', $2 - paused_at), "
            + "paused_ms = paused_ms + GREATEST(0, (extract(epoch FROM $2 - paused_at) * 1000)::bigint), "
            + "paused_at = NULL, paused_by_exam = false, row_version = row_version + 1 WHERE status = 'PAUSED' AND ";

    /** IN_PROGRESS → PAUSED at {@code now}; null when it was not IN_PROGRESS or auto-submit has claimed it. */
    public Uni<SessionRow> pause(SqlClient tx, String sessionId, Instant now) {
        return tx.preparedQuery(PAUSE + "session_id = $1 RETURNING *").execute(Tuple.of(sessionId, at(now), false))
                .map(SessionStore::first);
    }

    /** PAUSED → IN_PROGRESS, deadline and auto-submit moved by the time paused; null when it was not PAUSED. */
    public Uni<SessionRow> resume(SqlClient tx, String sessionId, Instant now) {
        return tx.preparedQuery(RESUME + "session_id = $1 RETURNING *").execute(Tuple.of(sessionId, at(now)))
                .map(SessionStore::first);
    }

    /**
     * Every IN_PROGRESS session of the exam → PAUSED by the exam, while the exam is paused when this
     * statement runs (the exam's own pause sets that first, in the same transaction; a session that
     * read the pause just before a resume committed does not stay paused alone); the rows changed.
     */
    public Uni<List<SessionRow>> pauseExam(SqlClient tx, String examId, Instant now) {
        return everyRow(tx, PAUSE + "exam_id = $1 AND EXISTS (SELECT 1 FROM exam e WHERE e.exam_id = $1 "
                + "AND e.paused_at IS NOT NULL) RETURNING *", io.vertx.sqlclient.Tuple.of(examId, at(now), true));
    }

    /** Every session the exam's pause paused → IN_PROGRESS (one paused on its own stays paused). */
    public Uni<List<SessionRow>> resumeExam(SqlClient tx, String examId, Instant now) {
        return everyRow(tx, RESUME + "exam_id = $1 AND paused_by_exam RETURNING *", io.vertx.sqlclient.Tuple.of(examId, at(now)));
    }

    /** The exam's sessions not yet submitted (index session_exam): what an exam-wide change republishes on a retry. */
    public Uni<List<SessionRow>> openOfExam(SqlClient client, String examId) {
        return everyRow(client, "SELECT * FROM session WHERE exam_id = $1 AND status <> 'SUBMITTED'",
                io.vertx.sqlclient.Tuple.of(examId));
    }

    public record ExamCounts(long started, long submitted, long paused) {
    }

    public Uni<ExamCounts> counts(SqlClient client, String examId) {
        return client.preparedQuery("SELECT count(*) AS started, count(*) FILTER (WHERE status = 'SUBMITTED') AS submitted, "
                + "count(*) FILTER (WHERE status = 'PAUSED') AS paused FROM session WHERE exam_id = $1").execute(Tuple.of(examId))
                .map(rows -> {
                    Row row = rows.iterator().next();
                    return new ExamCounts(row.getLong("started"), row.getLong("submitted"), row.getLong("paused"));
                });
    }

    public Uni<Long> countOpen(SqlClient client) {
        return client.query("SELECT count(*) AS n FROM session WHERE status <> 'SUBMITTED'").execute()
                .map(rows -> rows.iterator().next().getLong("n"));
    }

    /** Sessions whose published state may still be read: republished on start-up. */
    public Uni<List<SessionRow>> dueAfter(SqlClient client, Instant since) {
        return client.preparedQuery("SELECT * FROM session WHERE submit_due_at > $1 OR status <> 'SUBMITTED'")
                .execute(Tuple.of(at(since))).map(SessionStore::all);
    }

    /**
     * The exams' running sessions whose deadline lies in ({@code after}, {@code until}]: those the
     * offline-near-deadline rule looks at, for all its exams in one statement (index
     * session_running_deadline, V4).
     */
    public Uni<List<SessionRow>> runningWithDeadline(SqlClient client, List<String> examIds, Instant after, Instant until) {
        return client.preparedQuery("SELECT * FROM session WHERE exam_id = ANY($1) AND status = 'IN_PROGRESS' "
                + "AND deadline > $2 AND deadline <= $3").execute(Tuple.of(examIds.toArray(String[]::new), at(after), at(until)))
                .map(SessionStore::all);
    }

    public static SessionRow first(RowSet<Row> rows) {
        return rows.iterator().hasNext() ? SessionRow.of(rows.iterator().next()) : null;
    }

    /**
     * Rows mapped as they are decoded: an exam-wide statement returns every session of the exam,
     * and a RowSet of ten thousand rows beside their SessionRows made the replica's full GCs (bench/live).
     */
    private static final Collector<io.vertx.sqlclient.Row, ?, List<SessionRow>> ROWS = Collectors.mapping(
            row -> SessionRow.of(Row.newInstance(row)), Collectors.toList());

    private static Uni<List<SessionRow>> everyRow(SqlClient client, String sql, io.vertx.sqlclient.Tuple arguments) {
        return UniHelper.toUni(client.getDelegate().preparedQuery(sql).collecting(ROWS).execute(arguments))
                .map(io.vertx.sqlclient.SqlResult::value);
    }

    public static List<SessionRow> all(RowSet<Row> rows) {
        List<SessionRow> sessions = new ArrayList<>();
        rows.forEach(row -> sessions.add(SessionRow.of(row)));
        return sessions;
    }

    public static OffsetDateTime at(Instant instant) {
        return instant == null ? null : OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }
}
