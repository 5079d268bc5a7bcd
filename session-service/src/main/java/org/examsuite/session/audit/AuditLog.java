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
import org.hibernate.reactive.mutiny.Mutiny;

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
        return tx.preparedQuery("INSERT INTO audit_entry (at, actor, action, exam_id, session_id, detail) "
                + "VALUES ($1, $2, $3, $4, $5, $6::text::jsonb)")
                .execute(Tuple.of(now(), actor, action, examId, sessionId, JsonText.write(json, detail)))
                .replaceWithVoid();
    }

    /** The same entry in a Hibernate Reactive transaction (authoring/'s entities). */
    public Uni<Void> record(Mutiny.Session session, String actor, String action, String examId, Map<String, ?> detail) {
        return session.createNativeQuery("INSERT INTO audit_entry (at, actor, action, exam_id, detail) "
                + "VALUES (?1, ?2, ?3, ?4, CAST(CAST(?5 AS text) AS jsonb))")
                .setParameter(1, now()).setParameter(2, actor).setParameter(3, action).setParameter(4, examId)
                .setParameter(5, JsonText.write(json, detail))
                .executeUpdate().replaceWithVoid();
    }

    private OffsetDateTime now() {
        return OffsetDateTime.ofInstant(clock.instant(), ZoneOffset.UTC);
    }
}
