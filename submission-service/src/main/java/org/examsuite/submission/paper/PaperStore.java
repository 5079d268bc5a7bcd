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
import java.util.Arrays;
import java.util.Map;
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

    @Inject
    Pool pool;

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
            return new Paper(row.getUUID("paper_id"), row.getString("session_id"), row.getString("exam_id"),
                    row.getString("candidate_id"), row.getString("submitted_by"), row.getString("document"),
                    row.getString("digest"), row.getString("signature"));
        }
        return null;
    }
}
