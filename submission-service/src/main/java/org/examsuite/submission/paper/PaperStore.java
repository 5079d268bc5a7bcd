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
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Papers in PostgreSQL. A paper and its outbox rows are written in ONE transaction; there is
 * no update path (and a trigger refuses one). The unique constraint on {@code session_id}
 * decides any race that got past the lock: the loser reads the winner's paper.
 */
@ApplicationScoped
public class PaperStore {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final String COLUMNS = "paper_id, session_id, exam_id, candidate_id, submitted_by, document, digest, signature";

    @Inject
    Pool pool;

    /** Stores the paper with its outbox rows; false when the session already had a paper. */
    public boolean insert(Paper paper, Instant submittedAt, String actor, Map<String, String> trace) {
        OffsetDateTime at = OffsetDateTime.ofInstant(submittedAt, ZoneOffset.UTC);
        Tuple row = Tuple.from(Arrays.asList(paper.paperId(), paper.sessionId(), paper.examId(), paper.candidateId(),
                paper.submittedBy(), at, actor, paper.document(), paper.digest(), paper.signature()));
        String traceparent = trace.get("traceparent");
        String tracestate = trace.get("tracestate");
        try {
            pool.withTransaction(conn -> conn.preparedQuery("INSERT INTO papers (paper_id, session_id, exam_id, candidate_id, "
                    + "submitted_by, submitted_at, actor, document, digest, signature) "
                    + "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)").execute(row)
                    .chain(() -> conn.preparedQuery("INSERT INTO outbox (kind, paper_id, session_id, exam_id, traceparent, "
                            + "tracestate, next_attempt_at) VALUES ($1, $2, $3, $4, $5, $6, $7)")
                            .executeBatch(List.of(
                                    outboxRow("PAPER_PUBLISH", paper, traceparent, tracestate, at),
                                    outboxRow("SESSION_SUBMITTED", paper, traceparent, tracestate, at)))))
                    .await().atMost(TIMEOUT);
            return true;
        } catch (PgException e) {
            if ("23505".equals(e.getSqlState())) {
                return false;
            }
            throw e;
        }
    }

    private static Tuple outboxRow(String kind, Paper paper, String traceparent, String tracestate, OffsetDateTime at) {
        return Tuple.from(Arrays.asList(kind, paper.paperId(), paper.sessionId(), paper.examId(), traceparent, tracestate, at));
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
            return new Paper(row.getUUID("paper_id"), row.getString("session_id"), row.getString("exam_id"),
                    row.getString("candidate_id"), row.getString("submitted_by"), row.getString("document"),
                    row.getString("digest"), row.getString("signature"));
        }
        return null;
    }
}
