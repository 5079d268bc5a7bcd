package org.examsuite.session.roster;

import org.examsuite.session.paging.Cursor;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import org.examsuite.session.access.ExamAccess;
import org.examsuite.session.roster.ExamListStore.ExamSummary;

/** The operators' list of exams for the console: newest first, with each exam's state now. */
@ApplicationScoped
public class ExamListService {
    private final Pool pool;
    private final ExamListStore store;
    private final Clock clock;

    ExamListService(Pool pool, ExamListStore store, Clock clock) {
        this.pool = pool;
        this.store = store;
        this.clock = clock;
    }

    public record Listed(String examId, String title, String state, boolean paused, Instant pausedAt, Instant opensAt,
            Instant closesAt, int durationSeconds, int questions, String createdBy, Instant createdAt) {
    }

    public record ExamPage(List<Listed> exams, String nextCursor) {
    }

    /** A page of the exams SCOPE lets the caller see. */
    public Uni<ExamPage> list(String after, int limit, ExamAccess.ListScope scope) {
        Instant afterCreatedAt = null;
        String afterExamId = null;
        String key = Cursor.decode(after);
        if (key != null) {
            int bar = key.indexOf('|');
            if (bar <= 0 || bar == key.length() - 1) {
                throw Cursor.invalid();
            }
            try {
                afterCreatedAt = Instant.parse(key.substring(0, bar));
            } catch (DateTimeParseException e) {
                throw Cursor.invalid();
            }
            afterExamId = key.substring(bar + 1);
        }
        Instant now = clock.instant();
        return store.page(pool, scope, afterCreatedAt, afterExamId, limit + 1).map(rows -> {
            List<Listed> exams = rows.subList(0, Math.min(limit, rows.size())).stream().map(e -> listed(e, now)).toList();
            ExamSummary last = exams.isEmpty() ? null : rows.get(exams.size() - 1);
            return new ExamPage(exams, rows.size() > limit ? Cursor.encode(last.createdAt() + "|" + last.examId()) : null);
        });
    }

    private static Listed listed(ExamSummary e, Instant now) {
        String state = now.isBefore(e.opensAt()) ? "SCHEDULED" : now.isBefore(e.closesAt()) ? "OPEN" : "CLOSED";
        return new Listed(e.examId(), e.title(), state, e.pausedAt() != null, e.pausedAt(), e.opensAt(), e.closesAt(),
                e.durationSeconds(), e.questions(), e.createdBy(), e.createdAt());
    }
}
