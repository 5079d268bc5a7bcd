package org.examsuite.session.session;

import io.smallrye.mutiny.Uni;
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

/**
 * The {@code session} table. Every change bumps {@code row_version}, which the published
 * state carries so that Redis never goes back to an older row. Status only moves forward:
 * every update that sets SUBMITTED requires IN_PROGRESS.
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

    public Uni<SessionRow> find(SqlClient client, String sessionId) {
        return client.preparedQuery("SELECT * FROM session WHERE session_id = $1").execute(Tuple.of(sessionId))
                .map(SessionStore::first);
    }

    public Uni<SessionRow> findForUpdate(SqlClient tx, String sessionId) {
        return tx.preparedQuery("SELECT * FROM session WHERE session_id = $1 FOR UPDATE").execute(Tuple.of(sessionId))
                .map(SessionStore::first);
    }

    /** IN_PROGRESS → SUBMITTED; null when the session was not IN_PROGRESS (or does not exist). */
    public Uni<SessionRow> markSubmitted(SqlClient client, String sessionId, String paperId, String submittedBy,
            Instant submittedAt) {
        return client.preparedQuery("UPDATE session SET status = 'SUBMITTED', paper_id = $2, submitted_by = $3, "
                + "submitted_at = $4, row_version = row_version + 1 WHERE session_id = $1 AND status = 'IN_PROGRESS' RETURNING *")
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
                + "WHERE session_id = $1 AND status = 'IN_PROGRESS' AND autosubmit_claimed_at IS NULL RETURNING *")
                .execute(Tuple.of(sessionId, seconds)).map(SessionStore::first);
    }

    public record ExamCounts(long started, long submitted) {
    }

    public Uni<ExamCounts> counts(SqlClient client, String examId) {
        return client.preparedQuery("SELECT count(*) AS started, count(*) FILTER (WHERE status = 'SUBMITTED') AS submitted "
                + "FROM session WHERE exam_id = $1").execute(Tuple.of(examId))
                .map(rows -> {
                    Row row = rows.iterator().next();
                    return new ExamCounts(row.getLong("started"), row.getLong("submitted"));
                });
    }

    public Uni<Long> countInProgress(SqlClient client) {
        return client.query("SELECT count(*) AS n FROM session WHERE status = 'IN_PROGRESS'").execute()
                .map(rows -> rows.iterator().next().getLong("n"));
    }

    /** Sessions whose published state may still be read: republished on start-up. */
    public Uni<List<SessionRow>> dueAfter(SqlClient client, Instant since) {
        return client.preparedQuery("SELECT * FROM session WHERE submit_due_at > $1 OR status = 'IN_PROGRESS'")
                .execute(Tuple.of(at(since))).map(SessionStore::all);
    }

    public static SessionRow first(RowSet<Row> rows) {
        return rows.iterator().hasNext() ? SessionRow.of(rows.iterator().next()) : null;
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
