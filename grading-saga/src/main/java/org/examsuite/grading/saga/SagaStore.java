package org.examsuite.grading.saga;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.examsuite.grading.db.Db;
import org.examsuite.grading.saga.StepLog.StepRow;

/**
 * The sagas (table {@code saga}) and their leases: create, claim, renew, park, retry, finish,
 * release, and the status changes from outside (wake, operator retry, supersede). Each change
 * is one transaction that also writes the saga's {@link StepLog} and {@link SagaHistory}. Every
 * write of a worker names the lease it holds ({@code lease_owner}), so a worker whose lease ran
 * out (it stalled and another replica took over) can no longer write anything: at most one
 * runs a step at once.
 */
@ApplicationScoped
public class SagaStore {
    static final String COLUMNS = "saga_id, definition, business_key, run, refs::text, status, phase, data::text, "
            + "traceparent, tracestate, created_at, updated_at, next_attempt_at, lease_owner";

    private final Db db;
    private final StepLog steps;
    private final SagaHistory history;

    @Inject
    SagaStore(Db db, StepLog steps, SagaHistory history) {
        this.db = db;
        this.steps = steps;
        this.history = history;
    }

    /**
     * A saga to start: {@code key} and {@code run} name it in its definition's domain (one saga per
     * key and run), {@code refs} (JSON) carries the domain's other ids; the engine reads neither.
     */
    public record NewSaga(UUID sagaId, String definition, String key, int run, String refs, String data, String traceparent,
            String tracestate, List<String> steps) {
    }

    public record SagaRow(UUID sagaId, String definition, String key, int run, String refs, String status, String phase,
            String data, String traceparent, String tracestate, OffsetDateTime createdAt, OffsetDateTime updatedAt, OffsetDateTime nextAttemptAt, String leaseOwner) {
        /** {@code status} (the stored text) as the enum. */
        public SagaStatus state() {
            return SagaStatus.valueOf(status);
        }
    }

    /** The worker lost its lease (another replica took the saga over): it must stop at once. */
    public static class LeaseLost extends RuntimeException {
        public LeaseLost(UUID sagaId) {
            super("lease lost on saga " + sagaId, null, false, false);
        }
    }

    /** Inserts the saga and its step log; empty when its key already has a saga for that run. */
    public Optional<UUID> create(Connection c, NewSaga saga) throws SQLException {
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO saga (saga_id, definition, business_key, run, refs, "
                + "status, data, traceparent, tracestate) VALUES (?, ?, ?, ?, ?::jsonb, " + SagaStatus.RUNNING.sql()
                + ", ?::jsonb, ?, ?) "
                + "ON CONFLICT (business_key, run) DO NOTHING")) {
            insert.setObject(1, saga.sagaId());
            insert.setString(2, saga.definition());
            insert.setString(3, saga.key());
            insert.setInt(4, saga.run());
            insert.setString(5, saga.refs());
            insert.setString(6, saga.data());
            insert.setString(7, saga.traceparent());
            insert.setString(8, saga.tracestate());
            if (insert.executeUpdate() == 0) {
                return Optional.empty();
            }
        }
        steps.insert(c, saga.sagaId(), saga.steps());
        history.history(c, saga.sagaId(), "CREATED", null, "run " + saga.run());
        return Optional.of(saga.sagaId());
    }

    /**
     * {@link #create} for many sagas in four statements (not four per saga): the sagas, their
     * step logs and their CREATED history rows. Returns the ids of the sagas that are new; a
     * key that already has a saga for that run (or twice in the list) gets none.
     */
    public List<UUID> createAll(Connection c, List<NewSaga> sagas) throws SQLException {
        if (sagas.isEmpty()) {
            return List.of();
        }
        List<UUID> created = new ArrayList<>();
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO saga (saga_id, definition, business_key, run, refs, "
                + "status, data, traceparent, tracestate) SELECT t.saga_id, t.definition, t.business_key, t.run, "
                + "t.refs::jsonb, " + SagaStatus.RUNNING.sql() + ", t.data::jsonb, t.traceparent, t.tracestate "
                + "FROM unnest(?::uuid[], "
                + "?::text[], ?::text[], ?::int[], ?::text[], ?::text[], ?::text[], ?::text[]) WITH ORDINALITY "
                + "AS t(saga_id, definition, business_key, run, refs, data, traceparent, tracestate, n) "
                + "ORDER BY t.n ON CONFLICT (business_key, run) DO NOTHING RETURNING saga_id")) {
            insert.setArray(1, c.createArrayOf("uuid", sagas.stream().map(NewSaga::sagaId).toArray()));
            insert.setArray(2, c.createArrayOf("text", sagas.stream().map(NewSaga::definition).toArray()));
            insert.setArray(3, c.createArrayOf("text", sagas.stream().map(NewSaga::key).toArray()));
            insert.setArray(4, c.createArrayOf("int4", sagas.stream().map(NewSaga::run).toArray()));
            insert.setArray(5, c.createArrayOf("text", sagas.stream().map(NewSaga::refs).toArray()));
            insert.setArray(6, c.createArrayOf("text", sagas.stream().map(NewSaga::data).toArray()));
            insert.setArray(7, c.createArrayOf("text", sagas.stream().map(NewSaga::traceparent).toArray()));
            insert.setArray(8, c.createArrayOf("text", sagas.stream().map(NewSaga::tracestate).toArray()));
            try (ResultSet rs = insert.executeQuery()) {
                while (rs.next()) {
                    created.add(rs.getObject(1, UUID.class));
                }
            }
        }
        if (created.isEmpty()) {
            return created;
        }
        Map<UUID, NewSaga> byId = new HashMap<>();
        sagas.forEach(saga -> byId.put(saga.sagaId(), saga));
        List<UUID> stepSagas = new ArrayList<>();
        List<Integer> positions = new ArrayList<>();
        List<String> names = new ArrayList<>();
        List<String> details = new ArrayList<>();
        for (UUID id : created) {
            NewSaga saga = byId.get(id);
            for (int i = 0; i < saga.steps().size(); i++) {
                stepSagas.add(id);
                positions.add(i);
                names.add(saga.steps().get(i));
            }
            details.add("run " + saga.run());
        }
        steps.insertAll(c, stepSagas, positions, names);
        history.createdAll(c, created, details);
        return created;
    }

    /**
     * Takes up to {@code limit} due sagas that nobody holds, with their step logs (one
     * transaction for both). {@code SKIP LOCKED} lets replicas claim side by side without
     * waiting on each other; the lease keeps the claim after commit.
     */
    public List<Loaded> claim(String owner, Duration lease, int limit) {
        return db.inAsyncTransaction(c -> {
            List<SagaRow> sagas;
            try (PreparedStatement claim = c.prepareStatement("UPDATE saga SET lease_owner = ?, "
                    + "lease_until = now() + ? * interval '1 millisecond', updated_at = now() WHERE saga_id IN ("
                    + "SELECT saga_id FROM saga WHERE status IN (" + SagaStatus.RUNNING.sql() + ", "
                    + SagaStatus.COMPENSATING.sql() + ") AND next_attempt_at <= now() "
                    + "AND (lease_until IS NULL OR lease_until < now()) ORDER BY next_attempt_at LIMIT ? "
                    + "FOR UPDATE SKIP LOCKED) RETURNING " + COLUMNS)) {
                claim.setString(1, owner);
                claim.setLong(2, lease.toMillis());
                claim.setInt(3, limit);
                sagas = sagas(claim);
            }
            if (sagas.isEmpty()) {
                return List.of();
            }
            Map<UUID, List<StepRow>> steps = this.steps.steps(c, sagas.stream().map(SagaRow::sagaId).toList());
            List<Loaded> loaded = new ArrayList<>(sagas.size());
            for (SagaRow saga : sagas) {
                loaded.add(new Loaded(saga, steps.getOrDefault(saga.sagaId(), List.of())));
            }
            return loaded;
        });
    }

    public Optional<SagaRow> find(UUID sagaId) {
        return db.inTransaction(c -> find(c, sagaId, false));
    }

    public Optional<SagaRow> find(Connection c, UUID sagaId, boolean forUpdate) throws SQLException {
        try (PreparedStatement select = c.prepareStatement("SELECT " + COLUMNS + " FROM saga WHERE saga_id = ?"
                + (forUpdate ? " FOR UPDATE" : ""))) {
            select.setObject(1, sagaId);
            List<SagaRow> rows = sagas(select);
            return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
        }
    }

    /** A claimed saga (as the claim returned it) and its step log. */
    public record Loaded(SagaRow saga, List<StepRow> steps) {
    }

    /**
     * Records a step (or its compensation) as started and renews the lease — together with the
     * step that finished just before it, so one transaction (four statements) per step suffices.
     */
    public void beginStep(UUID sagaId, String owner, Duration lease, int position, String step, boolean compensating,
            CompletedStep prior) {
        db.inAsyncTransaction(c -> {
            try (PreparedStatement update = c.prepareStatement("UPDATE saga SET lease_until = now() + ? * interval "
                    + "'1 millisecond', updated_at = now(), data = COALESCE(?::jsonb, data) "
                    + "WHERE saga_id = ? AND lease_owner = ? AND lease_until > now()")) {
                update.setLong(1, lease.toMillis());
                update.setString(2, prior == null ? null : prior.data());
                update.setObject(3, sagaId);
                update.setString(4, owner);
                if (update.executeUpdate() == 0) {
                    throw new LeaseLost(sagaId);
                }
            }
            steps.record(c, sagaId, prior);
            steps.begin(c, sagaId, position, compensating);
            history.histories(c, sagaId,
                    SagaHistory.events(prior, new String[] {compensating ? "COMPENSATION_STARTED" : "STEP_STARTED", step, null}));
            return null;
        });
    }

    private void record(Connection c, UUID sagaId, CompletedStep prior) throws SQLException {
        if (prior == null) {
            return;
        }
        steps.record(c, sagaId, prior);
        setData(c, sagaId, prior.data());
        history.histories(c, sagaId, SagaHistory.events(prior));
    }

    /** The newest run of each of these keys (a run newer than a saga's own replaces it). */
    public Map<String, Integer> newestRuns(Connection c, java.util.Collection<String> keys) throws SQLException {
        Map<String, Integer> newest = new HashMap<>();
        if (keys.isEmpty()) {
            return newest;
        }
        try (PreparedStatement select = c.prepareStatement(
                "SELECT business_key, max(run) FROM saga WHERE business_key = ANY (?) GROUP BY business_key")) {
            select.setArray(1, c.createArrayOf("text", keys.toArray()));
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    newest.put(rs.getString(1), rs.getInt(2));
                }
            }
        }
        return newest;
    }

    /** Parks the saga: nobody claims it until {@link #wake} (its lease is released). */
    public void park(UUID sagaId, String owner, int position, String step, String data, List<TxHook> writes, TxHook hook) {
        db.inAsyncTransaction(c -> {
            requireLease(c, sagaId, owner);
            for (TxHook write : writes) {
                write.run(c);
            }
            steps.park(c, sagaId, position);
            setData(c, sagaId, data);
            try (PreparedStatement update = c.prepareStatement("UPDATE saga SET status = " + SagaStatus.WAITING.sql()
                    + ", lease_owner = NULL, lease_until = NULL, updated_at = now() WHERE saga_id = ?")) {
                update.setObject(1, sagaId);
                update.executeUpdate();
            }
            history.history(c, sagaId, "WAITING", step, null);
            hook.run(c);
            return null;
        });
    }

    /** A transient failure: the step goes back to the queue, due after {@code delay}. */
    public void retryLater(UUID sagaId, String owner, int position, String step, boolean compensating, String error,
            Duration delay) {
        db.inAsyncTransaction(c -> {
            requireLease(c, sagaId, owner);
            steps.retryLater(c, sagaId, position, compensating, error);
            try (PreparedStatement update = c.prepareStatement("UPDATE saga SET next_attempt_at = now() + ? * interval "
                    + "'1 millisecond', lease_owner = NULL, lease_until = NULL, updated_at = now() WHERE saga_id = ?")) {
                update.setLong(1, delay.toMillis());
                update.setObject(2, sagaId);
                update.executeUpdate();
            }
            history.history(c, sagaId, "RETRY_SCHEDULED", step, "in " + delay.toMillis() + " ms: " + StoredText.truncate(error));
            return null;
        });
    }

    /** A permanent failure: the step is FAILED and the saga turns back to compensate. */
    public void failForward(UUID sagaId, String owner, int position, String step, String error) {
        db.inAsyncTransaction(c -> {
            requireLease(c, sagaId, owner);
            steps.fail(c, sagaId, position, error);
            try (PreparedStatement update = c.prepareStatement("UPDATE saga SET status = " + SagaStatus.COMPENSATING.sql()
                    + ", phase = 'BACKWARD', "
                    + "updated_at = now() WHERE saga_id = ?")) {
                update.setObject(1, sagaId);
                update.executeUpdate();
            }
            history.history(c, sagaId, "STEP_FAILED", step, StoredText.truncate(error));
            return null;
        });
    }

    /** {@link #finish(UUID, String, SagaStatus, String, Integer, String, CompletedStep, TxHook)} by the stored name (tests). */
    public void finish(UUID sagaId, String owner, String status, String step, Integer position, String detail,
            CompletedStep prior, TxHook hook) {
        finish(sagaId, owner, SagaStatus.valueOf(status), step, position, detail, prior, hook);
    }

    /**
     * Ends the saga (COMPLETED, COMPENSATED or FAILED) and runs {@code hook} in the same
     * transaction. For FAILED, {@code position} names the step that ran out of retries.
     */
    public void finish(UUID sagaId, String owner, SagaStatus status, String step, Integer position, String detail,
            CompletedStep prior, TxHook hook) {
        db.inAsyncTransaction(c -> {
            try (PreparedStatement update = c.prepareStatement("UPDATE saga SET status = ?, lease_owner = NULL, lease_until = NULL, "
                    + "updated_at = now(), data = COALESCE(?::jsonb, data) "
                    + "WHERE saga_id = ? AND lease_owner = ? AND lease_until > now()")) {
                update.setString(1, status.name());
                update.setString(2, prior == null ? null : prior.data());
                update.setObject(3, sagaId);
                update.setString(4, owner);
                if (update.executeUpdate() == 0) {
                    throw new LeaseLost(sagaId);
                }
            }
            steps.record(c, sagaId, prior);
            if (position != null) {
                steps.ranOut(c, sagaId, position, detail);
            }
            history.histories(c, sagaId, SagaHistory.events(prior, new String[] {status.name(), step, StoredText.truncate(detail)}));
            hook.run(c);
            return null;
        });
    }

    /** Gives the saga back without changing it (the worker is stopping). */
    public void release(UUID sagaId, String owner, CompletedStep prior) {
        db.inAsyncTransaction(c -> {
            if (prior != null) {
                requireLease(c, sagaId, owner);
                record(c, sagaId, prior);
            }
            try (PreparedStatement update = c.prepareStatement(
                    "UPDATE saga SET lease_owner = NULL, lease_until = NULL WHERE saga_id = ? AND lease_owner = ?")) {
                update.setObject(1, sagaId);
                update.setString(2, owner);
                update.executeUpdate();
            }
            return null;
        });
    }

    /** A WAITING saga becomes runnable again; its waiting step will run once more. */
    public boolean wake(Connection c, UUID sagaId, String reason) throws SQLException {
        try (PreparedStatement update = c.prepareStatement("UPDATE saga SET status = " + SagaStatus.RUNNING.sql()
                + ", next_attempt_at = now(), "
                + "updated_at = now() WHERE saga_id = ? AND status = " + SagaStatus.WAITING.sql())) {
            update.setObject(1, sagaId);
            if (update.executeUpdate() == 0) {
                return false;
            }
        }
        steps.wake(c, sagaId);
        history.history(c, sagaId, "WOKEN", null, reason);
        return true;
    }

    /**
     * An operator's retry of a FAILED saga: the step that ran out of retries gets a fresh
     * budget, and the saga resumes in the direction it was going. Returns false when the
     * saga is not FAILED.
     */
    public boolean retryFailed(Connection c, UUID sagaId, String actor) throws SQLException {
        Optional<SagaRow> saga = find(c, sagaId, true);
        if (saga.isEmpty() || saga.get().state() != SagaStatus.FAILED) {
            return false;
        }
        boolean backward = "BACKWARD".equals(saga.get().phase());
        steps.resetFailed(c, sagaId, backward);
        try (PreparedStatement update = c.prepareStatement("UPDATE saga SET status = ?, next_attempt_at = now(), "
                + "lease_owner = NULL, lease_until = NULL, updated_at = now() WHERE saga_id = ?")) {
            update.setString(1, (backward ? SagaStatus.COMPENSATING : SagaStatus.RUNNING).name());
            update.setObject(2, sagaId);
            update.executeUpdate();
        }
        history.history(c, sagaId, "OPERATOR_RETRY", null, actor);
        return true;
    }

    /**
     * A newer run of the same key replaces this one: a saga parked WAITING (for something
     * outside) or FAILED (for an operator) becomes SUPERSEDED, so it never wakes or retries; its parked or
     * failed step is CANCELLED. A saga a worker is running, or one already finished, is left
     * alone. Returns whether it was superseded.
     */
    public boolean supersede(Connection c, UUID sagaId, String detail) throws SQLException {
        try (PreparedStatement update = c.prepareStatement("UPDATE saga SET status = " + SagaStatus.SUPERSEDED.sql()
                + ", lease_owner = NULL, lease_until = NULL, updated_at = now() WHERE saga_id = ? AND status IN ("
                + SagaStatus.WAITING.sql() + ", " + SagaStatus.FAILED.sql() + ")")) {
            update.setObject(1, sagaId);
            if (update.executeUpdate() == 0) {
                return false;
            }
        }
        steps.cancelOpen(c, sagaId);
        history.history(c, sagaId, "SUPERSEDED", null, StoredText.truncate(detail));
        return true;
    }

    /** Locks the saga row and checks the lease is still ours, so no other replica writes concurrently. */
    private void requireLease(Connection c, UUID sagaId, String owner) throws SQLException {
        try (PreparedStatement select = c.prepareStatement(
                "SELECT 1 FROM saga WHERE saga_id = ? AND lease_owner = ? AND lease_until > now() FOR UPDATE")) {
            select.setObject(1, sagaId);
            select.setString(2, owner);
            try (ResultSet rs = select.executeQuery()) {
                if (!rs.next()) {
                    throw new LeaseLost(sagaId);
                }
            }
        }
    }

    /** Replaces the saga's data (input for a parked saga, before {@link #wake}). */
    public void setData(Connection c, UUID sagaId, String data) throws SQLException {
        try (PreparedStatement update = c.prepareStatement("UPDATE saga SET data = ?::jsonb, updated_at = now() WHERE saga_id = ?")) {
            update.setString(1, data);
            update.setObject(2, sagaId);
            update.executeUpdate();
        }
    }

    private static List<SagaRow> sagas(PreparedStatement statement) throws SQLException {
        List<SagaRow> rows = new ArrayList<>();
        try (ResultSet rs = statement.executeQuery()) {
            while (rs.next()) {
                rows.add(new SagaRow(rs.getObject(1, UUID.class), rs.getString(2), rs.getString(3), rs.getInt(4),
                        rs.getString(5), rs.getString(6), rs.getString(7), rs.getString(8), rs.getString(9), rs.getString(10),
                        rs.getObject(11, OffsetDateTime.class), rs.getObject(12, OffsetDateTime.class),
                        rs.getObject(13, OffsetDateTime.class), rs.getString(14)));
            }
        }
        return rows;
    }
}
