package org.examsuite.session.exam;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.examsuite.session.json.JsonText;

/** The {@code exam} table. */
@ApplicationScoped
public class ExamStore {
    private static final TypeReference<List<Question>> QUESTIONS = new TypeReference<>() {
    };
    private static final TypeReference<List<ProctoringRule>> RULES = new TypeReference<>() {
    };
    private static final TypeReference<List<QuestionPool>> POOLS = new TypeReference<>() {
    };
    private static final String COLUMNS = "exam_id, title, opens_at, closes_at, duration_seconds, grace_seconds, "
            + "questions::text AS questions_json, key_revision, created_by, created_at, proctoring_rules::text AS rules_json, "
            + "shuffle::text AS shuffle_json, pools::text AS pools_json";

    private final ObjectMapper json;

    @Inject
    ExamStore(ObjectMapper json) {
        this.json = json;
    }

    /** A create request seen before under the same Idempotency-Key. */
    public record PriorCreate(String examId, String requestHash) {
    }

    /** Inserts the exam; null when the creator's Idempotency-Key was already used, or the exam is there (a published draft). */
    Uni<String> insert(SqlClient tx, Exam exam, String idempotencyKey, String requestHash) {
        return tx.preparedQuery("INSERT INTO exam (exam_id, title, opens_at, closes_at, duration_seconds, grace_seconds, "
                + "questions, key_revision, created_by, created_at, idempotency_key, request_hash, proctoring_rules, shuffle, pools) "
                + "VALUES ($1, $2, $3, $4, $5, $6, $7::text::jsonb, 0, $8, $9, $10, $11, $12::text::jsonb, $13::text::jsonb, "
                + "$14::text::jsonb) "
                + "ON CONFLICT DO NOTHING RETURNING exam_id")
                .execute(Tuple.from(new Object[] {exam.examId(), exam.title(), at(exam.opensAt()), at(exam.closesAt()),
                        exam.durationSeconds(), exam.graceSeconds(), write(exam.questions()), exam.createdBy(),
                        at(exam.createdAt()), idempotencyKey, requestHash, JsonText.write(json, exam.proctoringRules()),
                        exam.shuffle().shuffleQuestions() || exam.shuffle().shuffleOptions() ? JsonText.write(json, exam.shuffle()) : null,
                        exam.pools().isEmpty() ? null : JsonText.write(json, exam.pools())}))
                .map(rows -> rows.iterator().hasNext() ? rows.iterator().next().getString("exam_id") : null);
    }

    Uni<PriorCreate> findCreate(SqlClient client, String createdBy, String idempotencyKey) {
        return client.preparedQuery("SELECT exam_id, request_hash FROM exam WHERE created_by = $1 AND idempotency_key = $2")
                .execute(Tuple.of(createdBy, idempotencyKey))
                .map(rows -> rows.iterator().hasNext()
                        ? new PriorCreate(rows.iterator().next().getString("exam_id"), rows.iterator().next().getString("request_hash"))
                        : null);
    }

    /** The exam, or null. */
    public Uni<Exam> find(SqlClient client, String examId) {
        return client.preparedQuery("SELECT " + COLUMNS + " FROM exam WHERE exam_id = $1").execute(Tuple.of(examId))
                .map(rows -> rows.iterator().hasNext() ? read(rows.iterator().next()) : null);
    }

    /** Locks the exam's row for the transaction (exam-wide changes one at a time); false when there is no such exam. */
    public Uni<Boolean> lock(SqlClient tx, String examId) {
        return tx.preparedQuery("SELECT 1 FROM exam WHERE exam_id = $1 FOR UPDATE").execute(Tuple.of(examId))
                .map(rows -> rows.iterator().hasNext());
    }

    Uni<Exam> findForUpdate(SqlClient tx, String examId) {
        return tx.preparedQuery("SELECT " + COLUMNS + " FROM exam WHERE exam_id = $1 FOR UPDATE").execute(Tuple.of(examId))
                .map(rows -> rows.iterator().hasNext() ? read(rows.iterator().next()) : null);
    }

    Uni<Void> updateKeys(SqlClient tx, String examId, List<Question> questions, int keyRevision) {
        return tx.preparedQuery("UPDATE exam SET questions = $2::text::jsonb, key_revision = $3 WHERE exam_id = $1")
                .execute(Tuple.of(examId, write(questions), keyRevision)).replaceWithVoid();
    }

    /** An exam the proctoring rules read; {@code rules} null: the service's defaults. */
    public record Active(String examId, List<ProctoringRule> rules) {
    }

    /** The exams open at {@code now} or closed less than {@code after} ago, with their rules. */
    public Uni<List<Active>> active(SqlClient client, Instant now, java.time.Duration after) {
        return client.preparedQuery("SELECT exam_id, proctoring_rules::text AS rules_json FROM exam WHERE opens_at <= $1 AND closes_at > $2")
                .execute(Tuple.of(at(now), at(now.minus(after)))).map(rows -> {
                    List<Active> exams = new ArrayList<>();
                    rows.forEach(row -> exams.add(new Active(row.getString("exam_id"), rules(row))));
                    return exams;
                });
    }

    private List<ProctoringRule> rules(Row row) {
        String text = row.getString("rules_json");
        try {
            return text == null ? null : json.readValue(text, RULES);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored proctoring rules of exam " + row.getString("exam_id") + " are unreadable", e);
        }
    }

    /** Exams still open or recently closed: their questions are republished on start-up. */
    public Uni<List<Exam>> closingAfter(SqlClient client, Instant since) {
        return client.preparedQuery("SELECT " + COLUMNS + " FROM exam WHERE closes_at > $1").execute(Tuple.of(at(since)))
                .map(this::readAll);
    }

    /** Marks the exam paused at {@code now} unless it already is; its pause instant either way (null: no exam). */
    public Uni<Instant> pause(SqlClient tx, String examId, Instant now) {
        return tx.preparedQuery("UPDATE exam SET paused_at = COALESCE(paused_at, $2) WHERE exam_id = $1 RETURNING paused_at")
                .execute(Tuple.of(examId, at(now))).map(ExamStore::pausedAt);
    }

    /** Marks the exam running; false when there is no such exam. */
    public Uni<Boolean> resume(SqlClient tx, String examId) {
        return tx.preparedQuery("UPDATE exam SET paused_at = NULL WHERE exam_id = $1").execute(Tuple.of(examId))
                .map(rows -> rows.rowCount() > 0);
    }

    /** When the exam was paused, or null while it runs (or does not exist). */
    public Uni<Instant> pausedAt(SqlClient client, String examId) {
        return client.preparedQuery("SELECT paused_at FROM exam WHERE exam_id = $1").execute(Tuple.of(examId))
                .map(ExamStore::pausedAt);
    }

    private static Instant pausedAt(RowSet<Row> rows) {
        if (!rows.iterator().hasNext()) {
            return null;
        }
        OffsetDateTime at = rows.iterator().next().getOffsetDateTime("paused_at");
        return at == null ? null : at.toInstant();
    }

    private List<Exam> readAll(RowSet<Row> rows) {
        List<Exam> exams = new ArrayList<>();
        rows.forEach(row -> exams.add(read(row)));
        return exams;
    }

    private Exam read(Row row) {
        try {
            return new Exam(row.getString("exam_id"), row.getString("title"), row.getOffsetDateTime("opens_at").toInstant(),
                    row.getOffsetDateTime("closes_at").toInstant(), row.getInteger("duration_seconds"),
                    row.getInteger("grace_seconds"), json.readValue(row.getString("questions_json"), QUESTIONS),
                    row.getInteger("key_revision"), row.getString("created_by"),
                    row.getOffsetDateTime("created_at").toInstant(), rules(row),
                    row.getString("shuffle_json") == null ? null : json.readValue(row.getString("shuffle_json"), Shuffle.class),
                    row.getString("pools_json") == null ? null : json.readValue(row.getString("pools_json"), POOLS));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored questions of exam " + row.getString("exam_id") + " are unreadable", e);
        }
    }

    private String write(List<Question> questions) {
        return JsonText.write(json, questions);
    }

    static OffsetDateTime at(Instant instant) {
        return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }
}
