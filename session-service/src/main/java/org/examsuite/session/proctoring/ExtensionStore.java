package org.examsuite.session.proctoring;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import org.examsuite.session.session.SessionStore;

/** The {@code extension} table: every extension granted, and its Idempotency-Key if the client sent one. */
@ApplicationScoped
public class ExtensionStore {

    Uni<Boolean> exists(SqlClient tx, String sessionId, String idempotencyKey) {
        return tx.preparedQuery("SELECT 1 FROM extension WHERE session_id = $1 AND idempotency_key = $2")
                .execute(Tuple.of(sessionId, idempotencyKey)).map(rows -> rows.iterator().hasNext());
    }

    /** The seconds an exam-wide extension under this key granted, null if none was granted under it. */
    Uni<Integer> grantedByExam(SqlClient tx, String examId, String idempotencyKey) {
        return tx.preparedQuery("SELECT x.seconds FROM extension x JOIN session s ON s.session_id = x.session_id "
                + "WHERE s.exam_id = $1 AND x.idempotency_key = $2 LIMIT 1")
                .execute(Tuple.of(examId, idempotencyKey))
                .map(rows -> rows.iterator().hasNext() ? rows.iterator().next().getInteger("seconds") : null);
    }

    Uni<Void> insert(SqlClient tx, String sessionId, int seconds, String reason, String actor, Instant at,
            String idempotencyKey) {
        return tx.preparedQuery("INSERT INTO extension (session_id, seconds, reason, extended_by, extended_at, idempotency_key) "
                + "VALUES ($1, $2, $3, $4, $5, $6)")
                .execute(Tuple.of(sessionId, seconds, reason, actor, SessionStore.at(at), idempotencyKey)).replaceWithVoid();
    }
}
