package org.examsuite.grading.audit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.util.UUID;

/** Every operator action (docs/api.md §4): who, what, when, on which exam/paper/saga — in the same transaction as the action. */
@ApplicationScoped
public class AuditLog {
    private final Clock clock;

    @Inject
    AuditLog(Clock clock) {
        this.clock = clock;
    }

    public void record(Connection c, String actor, String action, String examId, String paperId, UUID sagaId, String detail)
            throws SQLException {
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO audit_log (at, actor, action, exam_id, paper_id, "
                + "saga_id, detail) VALUES (?, ?, ?, ?, ?, ?, ?)")) {
            insert.setTimestamp(1, Timestamp.from(clock.instant()));
            insert.setString(2, actor == null ? "unknown" : actor);
            insert.setString(3, action);
            insert.setString(4, examId);
            insert.setString(5, paperId);
            insert.setObject(6, sagaId);
            insert.setString(7, detail);
            insert.executeUpdate();
        }
    }
}
