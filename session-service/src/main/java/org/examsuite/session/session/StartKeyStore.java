package org.examsuite.session.session;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.ZoneOffset;

/**
 * The {@code session_start_key} table: the epoch each keyed start got. The claim is inserted first, in the
 * start's transaction, so a concurrent copy of the same start waits on the primary key and then replays.
 */
@ApplicationScoped
public class StartKeyStore {

    /** What an earlier start under the same key got. */
    public record Prior(int deviceEpoch, boolean created) {
    }

    /** True when this start holds the key; false when an earlier start did (then {@link #prior}). */
    Uni<Boolean> claim(SqlClient tx, String examId, String candidateId, String key, Instant at) {
        return tx.preparedQuery("INSERT INTO session_start_key (exam_id, candidate_id, idempotency_key, device_epoch, created, "
                + "started_at) VALUES ($1, $2, $3, 0, false, $4) ON CONFLICT DO NOTHING")
                .execute(Tuple.of(examId, candidateId, key, at.atOffset(ZoneOffset.UTC)))
                .map(rows -> rows.rowCount() == 1);
    }

    Uni<Void> record(SqlClient tx, String examId, String candidateId, String key, int deviceEpoch, boolean created) {
        return tx.preparedQuery("UPDATE session_start_key SET device_epoch = $4, created = $5 "
                + "WHERE exam_id = $1 AND candidate_id = $2 AND idempotency_key = $3")
                .execute(Tuple.of(examId, candidateId, key, deviceEpoch, created)).replaceWithVoid();
    }

    Uni<Prior> prior(SqlClient tx, String examId, String candidateId, String key) {
        return tx.preparedQuery("SELECT device_epoch, created FROM session_start_key "
                + "WHERE exam_id = $1 AND candidate_id = $2 AND idempotency_key = $3")
                .execute(Tuple.of(examId, candidateId, key)).map(StartKeyStore::first);
    }

    private static Prior first(RowSet<Row> rows) {
        if (!rows.iterator().hasNext()) {
            return null;
        }
        Row row = rows.iterator().next();
        return new Prior(row.getInteger("device_epoch"), row.getBoolean("created"));
    }
}
