package org.examsuite.session.enrollment;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.core.buffer.Buffer;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/** The {@code candidate} table: who may take an exam, and the hash of their access code. */
@ApplicationScoped
public class CandidateStore {

    public record Credentials(byte[] salt, byte[] hash) {
    }

    /** Enrolls the candidate, or issues a new code to one already enrolled (the old code stops working). */
    Uni<Void> upsert(SqlClient tx, String examId, String candidateId, byte[] salt, byte[] hash, Instant now, String actor) {
        return tx.preparedQuery("INSERT INTO candidate (exam_id, candidate_id, code_salt, code_hash, enrolled_at, enrolled_by) "
                + "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (exam_id, candidate_id) DO UPDATE SET "
                + "code_salt = EXCLUDED.code_salt, code_hash = EXCLUDED.code_hash, enrolled_at = EXCLUDED.enrolled_at, "
                + "enrolled_by = EXCLUDED.enrolled_by")
                .execute(Tuple.of(examId, candidateId, Buffer.buffer(salt), Buffer.buffer(hash),
                        OffsetDateTime.ofInstant(now, ZoneOffset.UTC), actor))
                .replaceWithVoid();
    }

    /** The candidate's code hash, or null when not enrolled. */
    public Uni<Credentials> find(SqlClient client, String examId, String candidateId) {
        return client.preparedQuery("SELECT code_salt, code_hash FROM candidate WHERE exam_id = $1 AND candidate_id = $2")
                .execute(Tuple.of(examId, candidateId))
                .map(rows -> rows.iterator().hasNext()
                        ? new Credentials(rows.iterator().next().getBuffer("code_salt").getBytes(),
                                rows.iterator().next().getBuffer("code_hash").getBytes())
                        : null);
    }
}
