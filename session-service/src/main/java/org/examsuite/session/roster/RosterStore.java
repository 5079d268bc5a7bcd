package org.examsuite.session.roster;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.examsuite.session.session.SessionRow;
import org.examsuite.session.session.SessionStore;

/**
 * An exam's sessions in candidate order, one keyset page at a time: (exam_id, candidate_id)
 * is unique and indexed, so a page costs the same at row 10 as at row 10,000.
 */
@ApplicationScoped
public class RosterStore {

    /** What to select: null members do not filter. {@code only}/{@code except} are session ids. */
    public record Filter(String status, Set<String> only, Set<String> except) {
    }

    public Uni<List<SessionRow>> page(SqlClient client, String examId, Filter filter, String afterCandidateId, int limit) {
        List<Object> params = new ArrayList<>();
        params.add(examId);
        StringBuilder sql = new StringBuilder("SELECT * FROM session WHERE exam_id = $1");
        if (afterCandidateId != null) {
            params.add(afterCandidateId);
            sql.append(" AND candidate_id > $").append(params.size());
        }
        if (filter.status() != null) {
            params.add(filter.status());
            sql.append(" AND status = $").append(params.size());
        }
        if (filter.only() != null) {
            params.add(filter.only().toArray(String[]::new));
            sql.append(" AND session_id = ANY($").append(params.size()).append(")");
        }
        if (filter.except() != null && !filter.except().isEmpty()) {
            params.add(filter.except().toArray(String[]::new));
            sql.append(" AND NOT (session_id = ANY($").append(params.size()).append("))");
        }
        params.add(limit);
        sql.append(" ORDER BY candidate_id LIMIT $").append(params.size());
        return client.preparedQuery(sql.toString()).execute(Tuple.from(params)).map(SessionStore::all);
    }
}
