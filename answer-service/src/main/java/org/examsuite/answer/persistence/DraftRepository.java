package org.examsuite.answer.persistence;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.examsuite.answer.draft.Draft;
import org.examsuite.answer.draft.StampedAnswer;

/** The durable copy of the drafts in PostgreSQL (schema exam_answer). */
@ApplicationScoped
public class DraftRepository {
    private static final String OPEN = """
            INSERT INTO exam_answer.draft AS d (session_id, exam_id, generation) VALUES ($1, $2, 1)
            ON CONFLICT (session_id) DO UPDATE SET generation = d.generation + 1, updated_at = now()
            RETURNING exam_id, generation, version, late_changes, sealed_at""";
    // The newest answer per question is its highest stamp in the history (the session's rows
    // come from the unique stamp index, which leads with session_id).
    static final String ANSWERS = """
            SELECT DISTINCT ON (question_id) question_id, epoch, version, value FROM exam_answer.answer_history
            WHERE session_id = $1 ORDER BY question_id DESC, epoch DESC, version DESC""";
    private static final String UPSERT_DRAFTS = """
            INSERT INTO exam_answer.draft AS d (session_id, exam_id, generation, version, late_changes)
            SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[])
            ON CONFLICT (session_id) DO UPDATE SET generation = GREATEST(d.generation, EXCLUDED.generation),
                version = GREATEST(d.version, EXCLUDED.version),
                late_changes = GREATEST(d.late_changes, EXCLUDED.late_changes), updated_at = now()""";
    // Every value that reaches PostgreSQL is a history row with its stamp; the same stamp again
    // (a replayed flush) is the same value and adds nothing. A question's answer is its highest
    // stamp (ANSWERS), so a late flush of an older value — a flusher that read the draft before
    // another one flushed a newer value — adds a row that never becomes the answer. No lookup of
    // the newest stamp here: a NOT EXISTS guard was planned as a sequential scan of the history
    // per row when the table was empty at planning time (no autovacuum), and the cached plan
    // stayed while the table grew (the 2026-12-01 storm: 80,000 scans, 1.1 billion rows read).
    private static final String INSERT_ANSWERS = """
            INSERT INTO exam_answer.answer_history (session_id, question_id, epoch, version, value, generation)
            SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::text[], $6::bigint[])
            ON CONFLICT (session_id, question_id, epoch, version) DO NOTHING""";
    // The seal in one statement (one round trip, one implicit transaction): the sealed draft's
    // history rows, its draft row and the seal. The first snapshot stored stays and is returned,
    // so a repeated seal returns the same one. PostgreSQL runs a WITH sub-statement that the main
    // query does not read after the main query, so the draft row is locked before the history
    // rows — the write-behind's order (UPSERT_DRAFTS, then INSERT_ANSWERS): no deadlock between them.
    private static final String SEAL = "WITH history AS (" + INSERT_ANSWERS + """
            )
            INSERT INTO exam_answer.draft AS d (session_id, exam_id, generation, version, late_changes, sealed_at, snapshot)
            VALUES ($7, $8, $9, $10, $11, $12, $13)
            ON CONFLICT (session_id) DO UPDATE SET generation = GREATEST(d.generation, EXCLUDED.generation),
                version = GREATEST(d.version, EXCLUDED.version),
                late_changes = GREATEST(d.late_changes, EXCLUDED.late_changes),
                sealed_at = COALESCE(d.sealed_at, EXCLUDED.sealed_at), snapshot = COALESCE(d.snapshot, EXCLUDED.snapshot),
                updated_at = now()
            RETURNING snapshot""";
    // SEAL for many drafts (their rows sorted by session, as the write-behind's): one statement.
    private static final String SEAL_ALL = "WITH history AS (" + INSERT_ANSWERS + """
            )
            INSERT INTO exam_answer.draft AS d (session_id, exam_id, generation, version, late_changes, sealed_at, snapshot)
            SELECT * FROM unnest($7::text[], $8::text[], $9::bigint[], $10::bigint[], $11::bigint[], $12::timestamptz[], $13::text[])
            ON CONFLICT (session_id) DO UPDATE SET generation = GREATEST(d.generation, EXCLUDED.generation),
                version = GREATEST(d.version, EXCLUDED.version),
                late_changes = GREATEST(d.late_changes, EXCLUDED.late_changes),
                sealed_at = COALESCE(d.sealed_at, EXCLUDED.sealed_at), snapshot = COALESCE(d.snapshot, EXCLUDED.snapshot),
                updated_at = now()
            RETURNING session_id, snapshot""";
    private static final String HISTORY = """
            SELECT id, question_id, epoch, version, value, generation, persisted_at FROM exam_answer.answer_history
            WHERE session_id = $1 AND id > $2 ORDER BY id LIMIT $3""";

    private final Pool pool;

    @Inject
    DraftRepository(Pool pool) {
        this.pool = pool;
    }

    /**
     * Takes the draft's next generation (the first is 1) and returns what PostgreSQL holds,
     * for a draft Redis does not have. Creating the row before the first acknowledgement is
     * what makes a later loss detectable: a restored draft never reuses a generation.
     */
    public Uni<Draft> open(String sessionId, String examId) {
        return pool.withTransaction(conn -> conn.preparedQuery(OPEN).execute(Tuple.of(sessionId, examId))
                .chain(rows -> answers(conn, sessionId).map(answers -> {
                    Row row = rows.iterator().next();
                    OffsetDateTime sealedAt = row.getOffsetDateTime("sealed_at");
                    return new Draft(sessionId, row.getString("exam_id"), row.getLong("generation"), row.getLong("version"),
                            row.getLong("late_changes"), sealedAt == null ? 0 : sealedAt.toInstant().toEpochMilli(),
                            answers);
                })));
    }

    private static Uni<Map<String, StampedAnswer>> answers(SqlConnection conn, String sessionId) {
        return conn.preparedQuery(ANSWERS).execute(Tuple.of(sessionId)).map(rows -> {
            Map<String, StampedAnswer> answers = new LinkedHashMap<>();
            for (Row row : rows) {
                String questionId = row.getString("question_id");
                answers.put(questionId, new StampedAnswer(questionId, row.getLong("epoch"), row.getLong("version"), 0,
                        row.getString("value")));
            }
            return answers;
        });
    }

    /** Writes the drafts' rows and their answers' history rows in one transaction. */
    public Uni<Void> persist(List<Draft> drafts) {
        if (drafts.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return pool.withTransaction(conn -> persist(conn, drafts));
    }

    private static Uni<Void> persist(SqlConnection conn, List<Draft> drafts) {
        // One order for every transaction, so that concurrent flushers never deadlock.
        List<Draft> sorted = new ArrayList<>(drafts);
        sorted.sort(Comparator.comparing(Draft::sessionId));
        Uni<?> draftRows = conn.preparedQuery(UPSERT_DRAFTS).execute(draftRows(sorted, Tuple.tuple()));
        if (sorted.stream().allMatch(draft -> draft.answers().isEmpty())) {
            return draftRows.replaceWithVoid();
        }
        return draftRows.chain(() -> conn.preparedQuery(INSERT_ANSWERS).execute(historyRows(sorted))).replaceWithVoid();
    }

    /** The drafts' rows as five arrays (session, exam, generation, version, late changes), added to {@code tuple}. */
    private static Tuple draftRows(List<Draft> drafts, Tuple tuple) {
        int n = drafts.size();
        String[] sessions = new String[n];
        String[] exams = new String[n];
        Long[] generations = new Long[n];
        Long[] versions = new Long[n];
        Long[] lates = new Long[n];
        for (int i = 0; i < n; i++) {
            Draft draft = drafts.get(i);
            sessions[i] = draft.sessionId();
            exams[i] = draft.examId();
            generations[i] = draft.generation();
            versions[i] = draft.version();
            lates[i] = draft.lateChanges();
        }
        return tuple.addArrayOfString(sessions).addArrayOfString(exams).addArrayOfLong(generations).addArrayOfLong(versions)
                .addArrayOfLong(lates);
    }

    /** The history rows of the drafts' answers (in the drafts' order, then by question): INSERT_ANSWERS' six arrays. */
    private static Tuple historyRows(List<Draft> drafts) {
        List<StampedAnswer> answers = new ArrayList<>();
        List<Draft> answerOwners = new ArrayList<>();
        for (Draft draft : drafts) {
            draft.answers().values().stream().sorted(Comparator.comparing(StampedAnswer::questionId)).forEach(a -> {
                answers.add(a);
                answerOwners.add(draft);
            });
        }
        int m = answers.size();
        String[] answerSessions = new String[m];
        String[] questions = new String[m];
        Long[] epochs = new Long[m];
        Long[] answerVersions = new Long[m];
        String[] values = new String[m];
        Long[] answerGenerations = new Long[m];
        for (int i = 0; i < m; i++) {
            StampedAnswer answer = answers.get(i);
            answerSessions[i] = answerOwners.get(i).sessionId();
            questions[i] = answer.questionId();
            epochs[i] = answer.epoch();
            answerVersions[i] = answer.version();
            values[i] = answer.json();
            answerGenerations[i] = answerOwners.get(i).generation();
        }
        return Tuple.tuple().addArrayOfString(answerSessions).addArrayOfString(questions).addArrayOfLong(epochs)
                .addArrayOfLong(answerVersions).addArrayOfString(values).addArrayOfLong(answerGenerations);
    }

    /**
     * Makes the seal durable in one statement: the sealed draft's answers, its row and the seal.
     * The first snapshot stored stays; the one stored is returned (a repeated seal returns the same).
     */
    public Uni<String> seal(Draft draft, OffsetDateTime sealedAt, String snapshot) {
        Tuple row = historyRows(List.of(draft)).addString(draft.sessionId()).addString(draft.examId())
                .addLong(draft.generation()).addLong(draft.version()).addLong(draft.lateChanges())
                .addOffsetDateTime(sealedAt).addString(snapshot);
        return pool.preparedQuery(SEAL).execute(row).map(rows -> rows.iterator().next().getString("snapshot"));
    }

    /** A sealed draft with its seal time and snapshot, for {@link #seal(List)}. */
    public record Seal(Draft draft, OffsetDateTime sealedAt, String snapshot) {
    }

    /**
     * {@link #seal(Draft, OffsetDateTime, String)} of many drafts (one per session) in one
     * statement; the snapshot stored for each session, by session id.
     */
    public Uni<Map<String, String>> seal(List<Seal> seals) {
        if (seals.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        List<Seal> sorted = new ArrayList<>(seals);
        sorted.sort(Comparator.comparing(seal -> seal.draft().sessionId()));
        int n = sorted.size();
        OffsetDateTime[] sealedAts = new OffsetDateTime[n];
        String[] snapshots = new String[n];
        List<Draft> drafts = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            drafts.add(sorted.get(i).draft());
            sealedAts[i] = sorted.get(i).sealedAt();
            snapshots[i] = sorted.get(i).snapshot();
        }
        Tuple row = draftRows(drafts, historyRows(drafts)).addArrayOfOffsetDateTime(sealedAts).addArrayOfString(snapshots);
        return pool.preparedQuery(SEAL_ALL).execute(row).map(rows -> {
            Map<String, String> stored = new LinkedHashMap<>();
            for (Row r : rows) {
                stored.put(r.getString("session_id"), r.getString("snapshot"));
            }
            return stored;
        });
    }

    public record HistoryRow(long id, String questionId, long epoch, long version, String value, long generation,
            OffsetDateTime persistedAt) {
    }

    /** The exam of a session's draft, or null when there is none (for the staff scope of the history). */
    public Uni<String> examOf(String sessionId) {
        return pool.preparedQuery("SELECT exam_id FROM exam_answer.draft WHERE session_id = $1").execute(Tuple.of(sessionId))
                .map(rows -> rows.iterator().hasNext() ? rows.iterator().next().getString("exam_id") : null);
    }

    public Uni<List<HistoryRow>> history(String sessionId, long afterId, int limit) {
        return pool.preparedQuery(HISTORY).execute(Tuple.of(sessionId, afterId, limit)).map(rows -> {
            List<HistoryRow> out = new ArrayList<>(rows.size());
            for (Row row : rows) {
                out.add(new HistoryRow(row.getLong("id"), row.getString("question_id"), row.getLong("epoch"),
                        row.getLong("version"), row.getString("value"), row.getLong("generation"),
                        row.getOffsetDateTime("persisted_at")));
            }
            return out;
        });
    }
}
