package org.examsuite.session.audit;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import org.examsuite.session.json.JsonText;

/**
 * Writes one audit entry per operator action (who, what, when, which exam/session), in the
 * same transaction as the action itself, so an action without its entry cannot exist.
 */
@ApplicationScoped
public class AuditLog {
    private final Clock clock;
    private final ObjectMapper json;

    @Inject
    AuditLog(Clock clock, ObjectMapper json) {
        this.clock = clock;
        this.json = json;
    }

    public Uni<Void> record(SqlClient tx, String actor, String action, String examId, String sessionId,
            Map<String, ?> detail) {
        String detailJson = JsonText.write(json, detail);
        return tx.preparedQuery("INSERT INTO audit_entry (at, actor, action, exam_id, session_id, detail) "
                + "VALUES ($1, $2, $3, $4, $5, $6::text::jsonb)")
                .execute(Tuple.of(OffsetDateTime.ofInstant(clock.instant(), ZoneOffset.UTC), actor, action, examId, sessionId,
                        detailJson))
                .replaceWithVoid();
    }
}
