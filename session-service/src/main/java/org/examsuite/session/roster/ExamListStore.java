package org.examsuite.session.roster;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import org.examsuite.session.access.ExamAccess;
import org.examsuite.session.session.SessionStore;

/** The exams, newest first, by keyset on (created_at, exam_id) — index exam_newest (V3). Never the questions. */
@ApplicationScoped
public class ExamListStore {

    public record ExamSummary(String examId, String title, Instant opensAt, Instant closesAt, int durationSeconds,
            int questions, Instant pausedAt, String createdBy, Instant createdAt) {
    }

    /** The page after ({@code afterCreatedAt}, {@code afterExamId}); both null for the first; only the exams SCOPE shows. */
    public Uni<List<ExamSummary>> page(SqlClient client, ExamAccess.ListScope scope, Instant afterCreatedAt, String afterExamId,
            int limit) {
        String sql = "SELECT exam_id, title, opens_at, closes_at, duration_seconds, jsonb_array_length(questions) AS question_count, "
                + "paused_at, created_by, created_at FROM exam "
                + "WHERE ($2 OR organisation = $3 OR exam_id = ANY($4)) "
                + (afterCreatedAt == null ? "" : "AND (created_at, exam_id) < ($5, $6) ")
                + "ORDER BY created_at DESC, exam_id DESC LIMIT $1";
        Tuple params = Tuple.of(limit, scope.all(), scope.organisation(), scope.assigned());
        if (afterCreatedAt != null) {
            params.addValue(SessionStore.at(afterCreatedAt)).addValue(afterExamId);
        }
        return client.preparedQuery(sql).execute(params).map(rows -> {
            List<ExamSummary> exams = new ArrayList<>();
            for (Row row : rows) {
                exams.add(new ExamSummary(row.getString("exam_id"), row.getString("title"), instant(row, "opens_at"),
                        instant(row, "closes_at"), row.getInteger("duration_seconds"), row.getInteger("question_count"),
                        instant(row, "paused_at"), row.getString("created_by"), instant(row, "created_at")));
            }
            return exams;
        });
    }

    private static Instant instant(Row row, String column) {
        OffsetDateTime at = row.getOffsetDateTime(column);
        return at == null ? null : at.toInstant();
    }
}
