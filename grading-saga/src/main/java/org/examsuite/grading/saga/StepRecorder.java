package org.examsuite.grading.saga;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * The step-log writes of a group commit ({@link GroupCommitter}), for many sagas at once, in the
 * transaction of the group step's own writes: first {@link #lockHeld}, then {@link #recordAll}
 * (or {@link #superseded}) for the sagas whose worker still holds the lease.
 */
@ApplicationScoped
public class StepRecorder {
    private final StepLog steps;
    private final SagaHistory history;

    @Inject
    StepRecorder(StepLog steps, SagaHistory history) {
        this.steps = steps;
        this.history = history;
    }

    /**
     * Locks the rows of the sagas whose completion records are about to be written
     * ({@link #recordAll}, {@link #superseded}) and returns the ids of those whose worker
     * still holds the lease — one statement for all of them. A record of a saga not returned
     * must not be written (another replica took it over).
     */
    Set<UUID> lockHeld(Connection c, List<StepRecord> records) throws SQLException {
        Set<UUID> held = new HashSet<>();
        if (records.isEmpty()) {
            return held;
        }
        try (PreparedStatement select = c.prepareStatement("SELECT s.saga_id FROM saga s JOIN unnest(?::uuid[], ?::text[]) "
                + "AS t(id, owner) ON s.saga_id = t.id WHERE s.lease_owner = t.owner AND s.lease_until > now() "
                + "ORDER BY s.saga_id FOR UPDATE OF s")) {
            select.setArray(1, c.createArrayOf("uuid", records.stream().map(r -> r.sagaId).toArray()));
            select.setArray(2, c.createArrayOf("text", records.stream().map(r -> r.owner).toArray()));
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    held.add(rs.getObject(1, UUID.class));
                }
            }
        }
        return held;
    }

    /**
     * Records group steps DONE for many sagas at once, in the caller's transaction (after {@link #lockHeld}, for held sagas only): the writes the
     * unrecorded steps handed over (not the provisional ones of a saga that ends here), then
     * three statements for all of them — the sagas' data
     * (and end, COMPLETED, for a last step), their steps DONE, their history rows — and the
     * definition's {@code completed} outcome of every saga that ended. What the caller writes
     * in the same transaction commits or rolls back with it.
     */
    void recordAll(Connection c, List<StepRecord> records) throws SQLException {
        if (records.isEmpty()) {
            return;
        }
        List<UUID> ids = new ArrayList<>();
        List<String> data = new ArrayList<>();
        List<Boolean> last = new ArrayList<>();
        List<UUID> stepIds = new ArrayList<>();
        List<Integer> positions = new ArrayList<>();
        List<Boolean> begun = new ArrayList<>();
        List<UUID> historyIds = new ArrayList<>();
        List<String> historyEvents = new ArrayList<>();
        List<String> historySteps = new ArrayList<>();
        for (StepRecord record : records) {
            List<CompletedStep> chain = oldestFirst(record.completed);
            for (CompletedStep done : chain) {
                if (done.compensation()) {
                    throw new IllegalStateException("a group commit records forward steps only");
                }
                for (TxHook write : done.writes()) {
                    if (!(record.last && write instanceof ProvisionalWrite)) {
                        write.run(c);
                    }
                }
                stepIds.add(record.sagaId);
                positions.add(done.position());
                begun.add(done.begun());
            }
            ids.add(record.sagaId);
            data.add(record.data.get());
            last.add(record.last);
            List<String[]> events = new ArrayList<>();
            SagaHistory.priorEvents(record.completed, events);
            if (record.last) {
                events.add(new String[] {"COMPLETED", null, null});
            }
            for (String[] event : events) {
                historyIds.add(record.sagaId);
                historyEvents.add(event[0]);
                historySteps.add(event[1]);
            }
        }
        try (PreparedStatement update = c.prepareStatement("UPDATE saga s SET status = CASE WHEN t.last THEN "
                + SagaStatus.COMPLETED.sql() + " "
                + "ELSE s.status END, lease_owner = CASE WHEN t.last THEN NULL ELSE s.lease_owner END, lease_until = CASE "
                + "WHEN t.last THEN NULL ELSE s.lease_until END, data = t.data::jsonb, updated_at = now() "
                + "FROM unnest(?::uuid[], ?::text[], ?::bool[]) AS t(id, data, last) WHERE s.saga_id = t.id")) {
            update.setArray(1, c.createArrayOf("uuid", ids.toArray()));
            update.setArray(2, c.createArrayOf("text", data.toArray()));
            update.setArray(3, c.createArrayOf("bool", last.toArray()));
            update.executeUpdate();
        }
        steps.doneAll(c, stepIds, positions, begun);
        history.historiesAll(c, historyIds, historyEvents, historySteps);
        for (StepRecord record : records) {
            if (record.last) {
                record.definition.outcomes().completed(c, record.context);
            }
        }
    }

    /**
     * Ends a held saga whose group step found run {@code byRun} of its key, newer than its own
     * (in the caller's transaction, after {@link #lockHeld}): the steps before it are recorded
     * DONE as usual, the step itself CANCELLED (its work is not done: nothing of it is written),
     * the saga SUPERSEDED, and then the definition's {@code superseded} outcome. Rare: a few
     * statements each.
     */
    void superseded(Connection c, StepRecord record, int byRun) throws SQLException {
        String detail = "by run " + byRun + ", which started while this run was running";
        CompletedStep self = record.completed;
        steps.record(c, record.sagaId, self.before());
        try (PreparedStatement update = c.prepareStatement("UPDATE saga SET status = " + SagaStatus.SUPERSEDED.sql()
                + ", lease_owner = NULL, lease_until = NULL, data = ?::jsonb, updated_at = now() WHERE saga_id = ?")) {
            update.setString(1, record.data.get());
            update.setObject(2, record.sagaId);
            update.executeUpdate();
        }
        steps.cancel(c, record.sagaId, self.position(), self.begun());
        List<String[]> events = new ArrayList<>();
        SagaHistory.priorEvents(self.before(), events);
        if (!self.begun()) {
            events.add(new String[] {"STEP_STARTED", self.step(), null});
        }
        events.add(new String[] {"SUPERSEDED", self.step(), StoredText.truncate(detail)});
        history.histories(c, record.sagaId, events.toArray(String[][]::new));
        record.definition.outcomes().superseded(c, record.context, byRun);
    }

    private static List<CompletedStep> oldestFirst(CompletedStep newest) {
        List<CompletedStep> chain = new ArrayList<>();
        for (CompletedStep at = newest; at != null; at = at.before()) {
            chain.add(0, at);
        }
        return chain;
    }
}
