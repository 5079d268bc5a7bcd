package org.examsuite.session.enrollment;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.core.buffer.Buffer;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.examsuite.session.exam.TimeTerms;

/** The {@code candidate} table: who may take an exam, and the hash of their access code. */
@ApplicationScoped
public class CandidateStore {

    /** What a start needs of the candidate: the code's salt and hash, and the time terms. */
    public record Credentials(byte[] salt, byte[] hash, TimeTerms terms) {
    }

    /** A candidate to enroll: the salt and hash of the access code issued to them, and the time terms. */
    public record NewCandidate(String candidateId, byte[] salt, byte[] hash, TimeTerms terms) {
    }

    /**
     * Enrolls the candidates, or issues a new code to those already enrolled (their old code
     * stops working), in one statement: a request may name 1,000 candidates, and one statement
     * chained per candidate nested 1,000 operators deep overflowed the event loop's stack.
     * The candidate ids are distinct (EnrollmentService rejects a request naming one twice).
     */
    Uni<Void> upsertAll(SqlClient tx, String examId, List<NewCandidate> enrolled, Instant now, String actor) {
        String[] ids = new String[enrolled.size()];
        Buffer[] salts = new Buffer[enrolled.size()];
        Buffer[] hashes = new Buffer[enrolled.size()];
        Integer[] permille = new Integer[enrolled.size()];
        Integer[] extra = new Integer[enrolled.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = enrolled.get(i).candidateId();
            salts[i] = Buffer.buffer(enrolled.get(i).salt());
            hashes[i] = Buffer.buffer(enrolled.get(i).hash());
            permille[i] = enrolled.get(i).terms().permille();
            extra[i] = enrolled.get(i).terms().extraSeconds();
        }
        // enrolling again replaces the code and the time terms (a session already started keeps its deadline)
        return tx.preparedQuery("INSERT INTO candidate (exam_id, candidate_id, code_salt, code_hash, enrolled_at, enrolled_by, "
                + "duration_permille, extra_seconds) SELECT $1, t.candidate_id, t.code_salt, t.code_hash, $5, $6, t.permille, t.extra "
                + "FROM unnest($2::text[], $3::bytea[], $4::bytea[], $7::int[], $8::int[]) "
                + "AS t(candidate_id, code_salt, code_hash, permille, extra) "
                + "ON CONFLICT (exam_id, candidate_id) DO UPDATE SET "
                + "code_salt = EXCLUDED.code_salt, code_hash = EXCLUDED.code_hash, enrolled_at = EXCLUDED.enrolled_at, "
                + "enrolled_by = EXCLUDED.enrolled_by, duration_permille = EXCLUDED.duration_permille, "
                + "extra_seconds = EXCLUDED.extra_seconds")
                .execute(Tuple.tuple().addString(examId).addArrayOfString(ids).addValue(salts).addValue(hashes)
                        .addOffsetDateTime(OffsetDateTime.ofInstant(now, ZoneOffset.UTC)).addString(actor)
                        .addArrayOfInteger(permille).addArrayOfInteger(extra))
                .replaceWithVoid();
    }

    /** The candidate's code hash, or null when not enrolled. */
    public Uni<Credentials> find(SqlClient client, String examId, String candidateId) {
        return client.preparedQuery("SELECT code_salt, code_hash, duration_permille, extra_seconds FROM candidate "
                + "WHERE exam_id = $1 AND candidate_id = $2")
                .execute(Tuple.of(examId, candidateId))
                .map(rows -> {
                    if (!rows.iterator().hasNext()) {
                        return null;
                    }
                    var row = rows.iterator().next();
                    return new Credentials(row.getBuffer("code_salt").getBytes(), row.getBuffer("code_hash").getBytes(),
                            new TimeTerms(row.getInteger("duration_permille"), row.getInteger("extra_seconds")));
                });
    }
}
