package org.examsuite.submission.paper;

import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Papers in PostgreSQL. A paper and its outbox rows are written in ONE statement (one transaction); there is
 * no update path (and a trigger refuses one). The unique constraint on {@code session_id}
 * decides any race that got past the lock: the loser reads the winner's paper.
 */
@ApplicationScoped
public class PaperStore {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final String COLUMNS = "paper_id, session_id, exam_id, candidate_id, submitted_by, document, digest, signature";

    private final Pool pool;

    @Inject
    PaperStore(Pool pool) {
        this.pool = pool;
    }

    /**
     * Stores the paper with its outbox rows; false when the session already had a paper. One
     * statement (a data-modifying CTE), so one round trip and one implicit transaction: the
     * paper and both rows commit together or not at all.
     */
    public boolean insert(Paper paper, Instant submittedAt, String actor, Map<String, String> trace) {
        OffsetDateTime at = OffsetDateTime.ofInstant(submittedAt, ZoneOffset.UTC);
        Tuple row = Tuple.from(Arrays.asList(paper.paperId(), paper.sessionId(), paper.examId(), paper.candidateId(),
                paper.submittedBy(), at, actor, paper.document(), paper.digest(), paper.signature(),
                trace.get("traceparent"), trace.get("tracestate")));
        try {
            pool.preparedQuery(INSERT).execute(row).await().atMost(TIMEOUT);
            return true;
        } catch (PgException e) {
            if ("23505".equals(e.getSqlState())) {
                return false;
            }
            throw e;
        }
    }

    private static final String INSERT = "WITH paper AS (INSERT INTO papers (paper_id, session_id, exam_id, candidate_id, "
            + "submitted_by, submitted_at, actor, document, digest, signature) "
            + "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING paper_id, session_id, exam_id, submitted_at) "
            + "INSERT INTO outbox (kind, paper_id, session_id, exam_id, traceparent, tracestate, next_attempt_at) "
            + "SELECT kinds.kind, paper.paper_id, paper.session_id, paper.exam_id, $11, $12, paper.submitted_at "
            + "FROM paper CROSS JOIN (VALUES ('PAPER_PUBLISH'), ('SESSION_SUBMITTED')) AS kinds (kind)";

    /** A paper to store with the outbox rows' trace (the request that made it). */
    public record NewPaper(Paper paper, Instant submittedAt, String actor, Map<String, String> trace) {
    }

    /**
     * Stores many papers with their outbox rows in one statement (one transaction, one commit);
     * returns the sessions whose paper this stored — a session that already had a paper is
     * skipped (its paper stays), the others are stored. Rows go in session order, so two
     * replicas' groups never wait on each other in a cycle.
     */
    public Set<String> insert(List<NewPaper> group) {
        List<NewPaper> sorted = new ArrayList<>(group);
        sorted.sort(Comparator.comparing(p -> p.paper().sessionId()));
        int n = sorted.size();
        UUID[] ids = new UUID[n];
        String[][] text = new String[10][n];
        OffsetDateTime[] at = new OffsetDateTime[n];
        for (int i = 0; i < n; i++) {
            NewPaper p = sorted.get(i);
            ids[i] = p.paper().paperId();
            text[0][i] = p.paper().sessionId();
            text[1][i] = p.paper().examId();
            text[2][i] = p.paper().candidateId();
            text[3][i] = p.paper().submittedBy();
            text[4][i] = p.actor();
            text[5][i] = p.paper().document();
            text[6][i] = p.paper().digest();
            text[7][i] = p.paper().signature();
            text[8][i] = p.trace().get("traceparent");
            text[9][i] = p.trace().get("tracestate");
            at[i] = OffsetDateTime.ofInstant(p.submittedAt(), ZoneOffset.UTC);
        }
        Tuple row = Tuple.tuple().addArrayOfUUID(ids).addArrayOfString(text[0]).addArrayOfString(text[1])
                .addArrayOfString(text[2]).addArrayOfString(text[3]).addArrayOfOffsetDateTime(at).addArrayOfString(text[4])
                .addArrayOfString(text[5]).addArrayOfString(text[6]).addArrayOfString(text[7]).addArrayOfString(text[8])
                .addArrayOfString(text[9]);
        Set<String> stored = new HashSet<>();
        for (Row r : pool.preparedQuery(INSERT_GROUP).execute(row).await().atMost(TIMEOUT)) {
            stored.add(r.getString("session_id"));
        }
        return stored;
    }

    private static final String INSERT_GROUP = "WITH paper AS (INSERT INTO papers (paper_id, session_id, exam_id, "
            + "candidate_id, submitted_by, submitted_at, actor, document, digest, signature) "
            + "SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[], "
            + "$7::text[], $8::text[], $9::text[], $10::text[]) "
            + "ON CONFLICT (session_id) DO NOTHING RETURNING paper_id, session_id, exam_id, submitted_at), "
            + "traces AS (SELECT * FROM unnest($2::text[], $11::text[], $12::text[]) AS t (session_id, traceparent, tracestate)), "
            + "outbox_rows AS (INSERT INTO outbox (kind, paper_id, session_id, exam_id, traceparent, tracestate, next_attempt_at) "
            + "SELECT kinds.kind, paper.paper_id, paper.session_id, paper.exam_id, traces.traceparent, traces.tracestate, "
            + "paper.submitted_at FROM paper JOIN traces USING (session_id) "
            + "CROSS JOIN (VALUES ('PAPER_PUBLISH'), ('SESSION_SUBMITTED')) AS kinds (kind)) "
            + "SELECT session_id FROM paper";

    /** The stored papers of these sessions, by session id (absent: none stored). */
    public Map<String, Paper> findBySessions(Collection<String> sessionIds) {
        Map<String, Paper> found = new HashMap<>();
        if (sessionIds.isEmpty()) {
            return found;
        }
        RowSet<Row> rows = pool.preparedQuery("SELECT " + COLUMNS + " FROM papers WHERE session_id = ANY($1)")
                .execute(Tuple.of(sessionIds.toArray(String[]::new))).await().atMost(TIMEOUT);
        for (Row row : rows) {
            Paper paper = paper(row);
            found.put(paper.sessionId(), paper);
        }
        return found;
    }

    public Paper findBySession(String sessionId) {
        return first(pool.preparedQuery("SELECT " + COLUMNS + " FROM papers WHERE session_id = $1")
                .execute(Tuple.of(sessionId)).await().atMost(TIMEOUT));
    }

    public Paper findById(UUID paperId) {
        return first(pool.preparedQuery("SELECT " + COLUMNS + " FROM papers WHERE paper_id = $1")
                .execute(Tuple.of(paperId)).await().atMost(TIMEOUT));
    }

    private static Paper first(RowSet<Row> rows) {
        for (Row row : rows) {
            return paper(row);
        }
        return null;
    }

    private static Paper paper(Row row) {
        return new Paper(row.getUUID("paper_id"), row.getString("session_id"), row.getString("exam_id"),
                row.getString("candidate_id"), row.getString("submitted_by"), row.getString("document"),
                row.getString("digest"), row.getString("signature"));
    }
}
