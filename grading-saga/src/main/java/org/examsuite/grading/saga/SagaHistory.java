package org.examsuite.grading.saga;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.examsuite.grading.db.Db;

/**
 * A saga's history (table {@code saga_history}): what happened to it, event by event, oldest
 * first. Only appended to, in the transaction of the change it tells of.
 */
@ApplicationScoped
public class SagaHistory {
    private final Db db;

    @Inject
    SagaHistory(Db db) {
        this.db = db;
    }

    public record HistoryRow(OffsetDateTime at, String event, String step, String detail) {
    }

    /** The saga's first {@code limit} events, oldest first. */
    public List<HistoryRow> history(UUID sagaId, int limit) {
        return db.inTransaction(c -> {
            try (PreparedStatement select = c.prepareStatement(
                    "SELECT at, event, step, detail FROM saga_history WHERE saga_id = ? ORDER BY id LIMIT ?")) {
                select.setObject(1, sagaId);
                select.setInt(2, limit);
                List<HistoryRow> rows = new ArrayList<>();
                try (ResultSet rs = select.executeQuery()) {
                    while (rs.next()) {
                        rows.add(new HistoryRow(rs.getObject(1, OffsetDateTime.class), rs.getString(2), rs.getString(3),
                                rs.getString(4)));
                    }
                }
                return rows;
            }
        });
    }

    public void history(Connection c, UUID sagaId, String event, String step, String detail) throws SQLException {
        try (PreparedStatement insert = c.prepareStatement(
                "INSERT INTO saga_history (saga_id, event, step, detail) VALUES (?, ?, ?, ?)")) {
            insert.setObject(1, sagaId);
            insert.setString(2, event);
            insert.setString(3, step);
            insert.setString(4, detail);
            insert.executeUpdate();
        }
    }

    /**
     * Several history rows ({event, step, detail}) in one statement (the driver rewrites the
     * batch into one multi-row INSERT); nulls skipped.
     */
    void histories(Connection c, UUID sagaId, String[]... events) throws SQLException {
        try (PreparedStatement insert = c.prepareStatement(
                "INSERT INTO saga_history (saga_id, event, step, detail) VALUES (?, ?, ?, ?)")) {
            for (String[] event : events) {
                if (event != null) {
                    insert.setObject(1, sagaId);
                    insert.setString(2, event[0]);
                    insert.setString(3, event[1]);
                    insert.setString(4, event[2]);
                    insert.addBatch();
                }
            }
            insert.executeBatch();
        }
    }

    /** The CREATED rows of many new sagas in one statement ({@code details[i]} for saga {@code sagaIds[i]}). */
    void createdAll(Connection c, List<UUID> sagaIds, List<String> details) throws SQLException {
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO saga_history (saga_id, event, detail) "
                + "SELECT t.saga_id, 'CREATED', t.detail FROM unnest(?::uuid[], ?::text[]) AS t(saga_id, detail)")) {
            insert.setArray(1, c.createArrayOf("uuid", sagaIds.toArray()));
            insert.setArray(2, c.createArrayOf("text", details.toArray()));
            insert.executeUpdate();
        }
    }

    /** Rows of many sagas in one statement, in list order (row i: {@code events[i]} of {@code steps[i]} in saga {@code sagaIds[i]}). */
    void historiesAll(Connection c, List<UUID> sagaIds, List<String> events, List<String> steps) throws SQLException {
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO saga_history (saga_id, event, step) "
                + "SELECT t.id, t.event, t.step FROM unnest(?::uuid[], ?::text[], ?::text[]) WITH ORDINALITY "
                + "AS t(id, event, step, n) ORDER BY t.n")) {
            insert.setArray(1, c.createArrayOf("uuid", sagaIds.toArray()));
            insert.setArray(2, c.createArrayOf("text", events.toArray()));
            insert.setArray(3, c.createArrayOf("text", steps.toArray()));
            insert.executeUpdate();
        }
    }

    /** The history rows of the unrecorded steps, oldest first, then {@code more}. */
    static String[][] events(CompletedStep prior, String[]... more) {
        List<String[]> events = new ArrayList<>();
        priorEvents(prior, events);
        events.addAll(List.of(more));
        return events.toArray(String[][]::new);
    }

    /** Adds the history rows of the unrecorded steps to {@code events}, oldest first. */
    static void priorEvents(CompletedStep prior, List<String[]> events) {
        if (prior == null) {
            return;
        }
        priorEvents(prior.before(), events);
        if (!prior.begun()) {
            events.add(new String[] {"STEP_STARTED", prior.step(), null});
        }
        events.add(new String[] {prior.compensation() ? "STEP_COMPENSATED" : "STEP_DONE", prior.step(), null});
    }
}
