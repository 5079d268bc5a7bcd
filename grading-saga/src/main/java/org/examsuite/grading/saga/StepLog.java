package org.examsuite.grading.saga;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.examsuite.grading.db.Db;

/**
 * The step log (table {@code saga_step}): one row per step of a saga, in order, with its
 * state, attempts, last error and times. Its writes run in the caller's transaction, which
 * the sagas' store opens and in which it has checked the saga's lease.
 */
@ApplicationScoped
public class StepLog {
    private final Db db;

    @Inject
    StepLog(Db db) {
        this.db = db;
    }

    public record StepRow(int position, String step, String status, int attempts, int compensationAttempts,
            String lastError, OffsetDateTime startedAt, OffsetDateTime finishedAt, OffsetDateTime compensatedAt) {
        /** {@code status} (the stored text) as the enum. */
        public StepStatus state() {
            return StepStatus.valueOf(status);
        }
    }

    /** The step rows of a new saga, PENDING, at positions 0, 1, ... */
    void insert(Connection c, UUID sagaId, List<String> steps) throws SQLException {
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO saga_step (saga_id, position, step) VALUES (?, ?, ?)")) {
            for (int i = 0; i < steps.size(); i++) {
                insert.setObject(1, sagaId);
                insert.setInt(2, i);
                insert.setString(3, steps.get(i));
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    /** {@link #insert} for many sagas in one statement: row i is step {@code names[i]} of saga {@code sagaIds[i]}. */
    void insertAll(Connection c, List<UUID> sagaIds, List<Integer> positions, List<String> names) throws SQLException {
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO saga_step (saga_id, position, step) "
                + "SELECT * FROM unnest(?::uuid[], ?::int[], ?::text[])")) {
            insert.setArray(1, c.createArrayOf("uuid", sagaIds.toArray()));
            insert.setArray(2, c.createArrayOf("int4", positions.toArray()));
            insert.setArray(3, c.createArrayOf("text", names.toArray()));
            insert.executeUpdate();
        }
    }

    public List<StepRow> steps(UUID sagaId) {
        return db.inTransaction(c -> steps(c, sagaId));
    }

    public List<StepRow> steps(Connection c, UUID sagaId) throws SQLException {
        try (PreparedStatement select = c.prepareStatement("SELECT position, step, status, attempts, comp_attempts, "
                + "last_error, started_at, finished_at, compensated_at FROM saga_step WHERE saga_id = ? ORDER BY position")) {
            select.setObject(1, sagaId);
            List<StepRow> rows = new ArrayList<>();
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    rows.add(stepRow(rs, 1));
                }
            }
            return rows;
        }
    }

    /** The step logs of many sagas in one statement, by saga id (a saga with no steps is absent). */
    Map<UUID, List<StepRow>> steps(Connection c, List<UUID> sagaIds) throws SQLException {
        Map<UUID, List<StepRow>> steps = new HashMap<>();
        try (PreparedStatement select = c.prepareStatement("SELECT saga_id, position, step, status, attempts, comp_attempts, "
                + "last_error, started_at, finished_at, compensated_at FROM saga_step WHERE saga_id = ANY (?) "
                + "ORDER BY saga_id, position")) {
            select.setArray(1, c.createArrayOf("uuid", sagaIds.toArray()));
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    steps.computeIfAbsent(rs.getObject(1, UUID.class), id -> new ArrayList<>()).add(stepRow(rs, 2));
                }
            }
        }
        return steps;
    }

    private static StepRow stepRow(ResultSet rs, int first) throws SQLException {
        return new StepRow(rs.getInt(first), rs.getString(first + 1), rs.getString(first + 2), rs.getInt(first + 3),
                rs.getInt(first + 4), rs.getString(first + 5), rs.getObject(first + 6, OffsetDateTime.class),
                rs.getObject(first + 7, OffsetDateTime.class), rs.getObject(first + 8, OffsetDateTime.class));
    }

    /** The step (or its compensation) starts: RUNNING (or COMPENSATING), one attempt more. */
    void begin(Connection c, UUID sagaId, int position, boolean compensating) throws SQLException {
        setStep(c, sagaId, position, compensating
                ? "UPDATE saga_step SET status = " + StepStatus.COMPENSATING.sql()
                    + ", comp_attempts = comp_attempts + 1 WHERE saga_id = ? AND position = ?"
                : "UPDATE saga_step SET status = " + StepStatus.RUNNING.sql()
                    + ", attempts = attempts + 1, started_at = now(), finished_at = NULL "
                        + "WHERE saga_id = ? AND position = ?");
    }

    /**
     * The step log's part of recording a finished step (its data goes with the saga row's
     * update): the unrecorded steps before it first, then the writes it handed over, then its row.
     */
    void record(Connection c, UUID sagaId, CompletedStep prior) throws SQLException {
        if (prior == null) {
            return;
        }
        record(c, sagaId, prior.before());
        for (TxHook write : prior.writes()) {
            write.run(c);
        }
        setStep(c, sagaId, prior.position(), prior.compensation()
                ? "UPDATE saga_step SET status = " + StepStatus.COMPENSATED.sql() + ", compensated_at = now(), last_error = NULL "
                        + "WHERE saga_id = ? AND position = ?"
                : prior.begun()
                        ? "UPDATE saga_step SET status = " + StepStatus.DONE.sql()
                            + ", finished_at = now(), last_error = NULL WHERE saga_id = ? AND position = ?"
                        : "UPDATE saga_step SET status = " + StepStatus.DONE.sql()
                            + ", attempts = attempts + 1, started_at = now(), finished_at = now(), "
                                + "last_error = NULL WHERE saga_id = ? AND position = ?");
    }

    /**
     * Many forward steps DONE in one statement (row i: step {@code positions[i]} of saga
     * {@code sagaIds[i]}; one not {@code begun} is also counted as started now).
     */
    void doneAll(Connection c, List<UUID> sagaIds, List<Integer> positions, List<Boolean> begun) throws SQLException {
        try (PreparedStatement update = c.prepareStatement("UPDATE saga_step s SET status = " + StepStatus.DONE.sql()
                + ", finished_at = now(), "
                + "last_error = NULL, attempts = s.attempts + CASE WHEN t.begun THEN 0 ELSE 1 END, "
                + "started_at = CASE WHEN t.begun THEN s.started_at ELSE now() END "
                + "FROM unnest(?::uuid[], ?::int[], ?::bool[]) AS t(id, position, begun) "
                + "WHERE s.saga_id = t.id AND s.position = t.position")) {
            update.setArray(1, c.createArrayOf("uuid", sagaIds.toArray()));
            update.setArray(2, c.createArrayOf("int4", positions.toArray()));
            update.setArray(3, c.createArrayOf("bool", begun.toArray()));
            update.executeUpdate();
        }
    }

    /** A step that found a newer run of its key: CANCELLED (counted as started now when it was not {@code begun}). */
    void cancel(Connection c, UUID sagaId, int position, boolean begun) throws SQLException {
        setStep(c, sagaId, position, begun
                ? "UPDATE saga_step SET status = " + StepStatus.CANCELLED.sql()
                    + ", finished_at = now() WHERE saga_id = ? AND position = ?"
                : "UPDATE saga_step SET status = " + StepStatus.CANCELLED.sql()
                    + ", attempts = attempts + 1, started_at = now(), finished_at = now() "
                        + "WHERE saga_id = ? AND position = ?");
    }

    /** The step waits (the saga is parked). */
    void park(Connection c, UUID sagaId, int position) throws SQLException {
        setStep(c, sagaId, position, "UPDATE saga_step SET status = " + StepStatus.WAITING.sql()
                + " WHERE saga_id = ? AND position = ?");
    }

    /** A transient failure: the error is kept and a forward step is PENDING again. */
    void retryLater(Connection c, UUID sagaId, int position, boolean compensating, String error) throws SQLException {
        try (PreparedStatement update = c.prepareStatement("UPDATE saga_step SET last_error = ?"
                + (compensating ? "" : ", status = " + StepStatus.PENDING.sql()) + " WHERE saga_id = ? AND position = ?")) {
            update.setString(1, StoredText.truncate(error));
            update.setObject(2, sagaId);
            update.setInt(3, position);
            update.executeUpdate();
        }
    }

    /** A permanent failure of a forward step: FAILED. */
    void fail(Connection c, UUID sagaId, int position, String error) throws SQLException {
        try (PreparedStatement update = c.prepareStatement("UPDATE saga_step SET status = " + StepStatus.FAILED.sql()
                + ", last_error = ?, "
                + "finished_at = now() WHERE saga_id = ? AND position = ?")) {
            update.setString(1, StoredText.truncate(error));
            update.setObject(2, sagaId);
            update.setInt(3, position);
            update.executeUpdate();
        }
    }

    /** The step ran out of retries (the saga ends FAILED): FAILED, unless it is a compensation. */
    void ranOut(Connection c, UUID sagaId, int position, String detail) throws SQLException {
        try (PreparedStatement update = c.prepareStatement("UPDATE saga_step SET last_error = ?, "
                + "status = CASE WHEN status = " + StepStatus.COMPENSATING.sql() + " THEN status ELSE " + StepStatus.FAILED.sql()
                + " END "
                + "WHERE saga_id = ? AND position = ?")) {
            update.setString(1, StoredText.truncate(detail));
            update.setObject(2, sagaId);
            update.setInt(3, position);
            update.executeUpdate();
        }
    }

    /** The saga's waiting step is PENDING again (the saga was woken). */
    void wake(Connection c, UUID sagaId) throws SQLException {
        setStep(c, sagaId, null, "UPDATE saga_step SET status = " + StepStatus.PENDING.sql() + " WHERE saga_id = ? AND status = "
                + StepStatus.WAITING.sql());
    }

    /** An operator's retry: the step that ran out of retries (or its compensation) gets a fresh budget. */
    void resetFailed(Connection c, UUID sagaId, boolean backward) throws SQLException {
        setStep(c, sagaId, null, backward
                ? "UPDATE saga_step SET comp_attempts = 0 WHERE saga_id = ? AND status = " + StepStatus.COMPENSATING.sql()
                : "UPDATE saga_step SET status = " + StepStatus.PENDING.sql() + ", attempts = 0 WHERE saga_id = ? AND status = "
                    + StepStatus.FAILED.sql());
    }

    /** The saga was superseded: its parked, failed or running step is CANCELLED. */
    void cancelOpen(Connection c, UUID sagaId) throws SQLException {
        setStep(c, sagaId, null, "UPDATE saga_step SET status = " + StepStatus.CANCELLED.sql() + " WHERE saga_id = ? "
                + "AND status IN (" + StepStatus.WAITING.sql() + ", " + StepStatus.FAILED.sql() + ", " + StepStatus.RUNNING.sql() + ")");
    }

    private static void setStep(Connection c, UUID sagaId, Integer position, String sql) throws SQLException {
        try (PreparedStatement update = c.prepareStatement(sql)) {
            update.setObject(1, sagaId);
            if (position != null) {
                update.setInt(2, position);
            }
            update.executeUpdate();
        }
    }
}
