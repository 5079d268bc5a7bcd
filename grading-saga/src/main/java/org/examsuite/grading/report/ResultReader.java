package org.examsuite.grading.report;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An exam's current results — each paper's newest run (a regrade's run n+1 supersedes run n) —
 * in paper id order, a keyset page at a time, over the reactive client. SQL rather than Hibernate
 * Reactive Panache: with Panache entities these reads of a 50,000-paper exam took grading-saga to
 * 309 MiB RSS (budget 300) and 95 of its 96 MiB of metaspace; in SQL 242 MiB and 61 MiB
 * (docs/benchmarks.md, "Runs of 2026-12-03").
 */
@ApplicationScoped
public class ResultReader {
    private static final String COLUMNS = "paper_id, run, saga_id, exam_id, session_id, candidate_id, status, score, max_score, "
            + "marks::text, choices::text, key_revision, reason, archive_seq, updated_at";
    /** The newest run of r's paper; served by the primary key (paper_id, run). */
    private static final String CURRENT = "r.run = (SELECT max(o.run) FROM result o WHERE o.paper_id = r.paper_id)";

    private final Pool pool;

    ResultReader(Pool pool) {
        this.pool = pool;
    }

    /**
     * Up to {@code limit} current results of the exam whose paper id sorts after {@code afterPaperId}
     * ("" for the first page), optionally only those with this status. Index result_exam_paper (V3).
     */
    public Uni<List<ResultRow>> currentPage(String examId, String status, String afterPaperId, int limit) {
        String sql = "SELECT " + COLUMNS + " FROM result r WHERE r.exam_id = $1 AND r.paper_id > $2 AND " + CURRENT
                + (status == null ? "" : " AND r.status = $4") + " ORDER BY r.paper_id LIMIT $3";
        Tuple params = status == null ? Tuple.of(examId, afterPaperId, limit) : Tuple.of(examId, afterPaperId, limit, status);
        return pool.preparedQuery(sql).execute(params).map(rows -> {
            List<ResultRow> page = new ArrayList<>(rows.size());
            for (Row row : rows) {
                page.add(new ResultRow(row.getString(0), row.getInteger(1), row.getUUID(2), row.getString(3), row.getString(4),
                        row.getString(5), row.getString(6), row.getBigDecimal(7), row.getBigDecimal(8), row.getString(9),
                        row.getString(10), row.getLong(11), row.getString(12), row.getLong(13), row.getOffsetDateTime(14)));
            }
            return page;
        });
    }

    /** How many papers' current results are in each status. */
    public Uni<Map<String, Long>> countByStatus(String examId) {
        return pool.preparedQuery("SELECT r.status, count(*) FROM result r WHERE r.exam_id = $1 AND " + CURRENT
                + " GROUP BY r.status ORDER BY r.status").execute(Tuple.of(examId)).map(rows -> {
                    Map<String, Long> counts = new LinkedHashMap<>();
                    rows.forEach(row -> counts.put(row.getString(0), row.getLong(1)));
                    return counts;
                });
    }

    /** Whether grading-saga holds any result of the exam. */
    public Uni<Boolean> hasAny(String examId) {
        return pool.preparedQuery("SELECT 1 FROM result WHERE exam_id = $1 LIMIT 1").execute(Tuple.of(examId))
                .map(rows -> rows.size() > 0);
    }
}
