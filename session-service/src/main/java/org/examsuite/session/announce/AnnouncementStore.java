package org.examsuite.session.announce;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.examsuite.session.session.SessionStore;

/** The {@code announcement} table: one row per exam and Idempotency-Key. */
@ApplicationScoped
public class AnnouncementStore {

    /** The new row, or null when the exam already has one under this key. */
    Uni<Announcement> insert(SqlClient tx, Announcement a, String idempotencyKey) {
        return tx.preparedQuery("INSERT INTO announcement (announcement_id, exam_id, text, posted_by, posted_at, idempotency_key) "
                + "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (exam_id, idempotency_key) DO NOTHING RETURNING *")
                .execute(Tuple.from(new Object[] {a.announcementId(), a.examId(), a.text(), a.postedBy(),
                        SessionStore.at(a.postedAt()), idempotencyKey}))
                .map(rows -> rows.iterator().hasNext() ? read(rows.iterator().next()) : null);
    }

    Uni<Announcement> findByKey(SqlClient client, String examId, String idempotencyKey) {
        return client.preparedQuery("SELECT * FROM announcement WHERE exam_id = $1 AND idempotency_key = $2")
                .execute(Tuple.of(examId, idempotencyKey))
                .map(rows -> rows.iterator().hasNext() ? read(rows.iterator().next()) : null);
    }

    /** The exam's announcements, newest first, at most {@code limit}. */
    Uni<List<Announcement>> ofExam(SqlClient client, String examId, int limit) {
        return client.preparedQuery("SELECT * FROM announcement WHERE exam_id = $1 ORDER BY posted_at DESC, announcement_id LIMIT $2")
                .execute(Tuple.of(examId, limit)).map(rows -> {
                    List<Announcement> out = new ArrayList<>();
                    rows.forEach(row -> out.add(read(row)));
                    return out;
                });
    }

    private static Announcement read(Row row) {
        Instant at = row.getOffsetDateTime("posted_at").toInstant();
        return new Announcement(row.getString("announcement_id"), row.getString("exam_id"), row.getString("text"),
                row.getString("posted_by"), at);
    }
}
