package org.examsuite.grading.report;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.quarkus.panache.common.Parameters;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An exam's current results — each paper's newest run (a regrade's run n+1 supersedes run n) —
 * in paper id order, a keyset page at a time. Callers open the reactive session.
 */
@ApplicationScoped
public class ResultRepository implements PanacheRepositoryBase<ResultEntity, ResultEntity.Key> {
    /** The newest run of r's paper; served by the primary key (paper_id, run). */
    private static final String CURRENT = "r.run = (select max(o.run) from ResultEntity o where o.paperId = r.paperId)";

    /**
     * Up to {@code limit} current results of the exam whose paper id sorts after {@code afterPaperId}
     * ("" for the first page), optionally only those with this status.
     */
    public Uni<List<ResultEntity>> currentPage(String examId, String status, String afterPaperId, int limit) {
        Parameters parameters = Parameters.with("exam", examId).and("after", afterPaperId);
        String query = "from ResultEntity r where r.examId = :exam and r.paperId > :after and " + CURRENT;
        if (status != null) {
            query += " and r.status = :status";
            parameters = parameters.and("status", status);
        }
        return find(query + " order by r.paperId", parameters).range(0, limit - 1).list();
    }

    /** How many papers' current results are in each status. */
    public Uni<Map<String, Long>> countByStatus(String examId) {
        return getSession().chain(session -> session
                .createSelectionQuery("select r.status, count(r) from ResultEntity r where r.examId = :exam and " + CURRENT
                        + " group by r.status order by r.status", Object[].class)
                .setParameter("exam", examId)
                .getResultList())
                .map(rows -> {
                    Map<String, Long> counts = new LinkedHashMap<>();
                    rows.forEach(row -> counts.put((String) row[0], (Long) row[1]));
                    return counts;
                });
    }

    /** Whether grading-saga holds any result of the exam. */
    public Uni<Boolean> hasAny(String examId) {
        return find("examId", examId).firstResult().map(found -> found != null);
    }
}
