package org.examsuite.session.roster;

import org.examsuite.session.paging.Cursor;
import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.examsuite.session.device.OnlineTracker;
import org.examsuite.session.exam.ExamService;
import org.examsuite.session.proctoring.FlagStore;
import org.examsuite.session.roster.RosterStore.Filter;
import org.examsuite.session.session.SessionRow;

/**
 * The proctor's roster of an exam: its sessions from PostgreSQL, joined with who is online
 * (the exam's online sorted set), the flags the rules raised (Redis) and each session's answered
 * count and last save (answer-service, one call per page), a page at a time.
 */
@ApplicationScoped
public class RosterService {
    private final Pool pool;
    private final RosterStore store;
    private final ExamService exams;
    private final OnlineTracker online;
    private final FlagStore flags;
    private final AnswerSummaries answers;
    private final Clock clock;

    RosterService(Pool pool, RosterStore store, ExamService exams, OnlineTracker online, FlagStore flags,
            AnswerSummaries answers, Clock clock) {
        this.answers = answers;
        this.pool = pool;
        this.store = store;
        this.exams = exams;
        this.online = online;
        this.flags = flags;
        this.clock = clock;
    }

    public record Entry(String sessionId, String candidateId, String status, int deviceEpoch, Instant startedAt,
            Instant deadline, long remainingMs, Instant pausedAt, String paperId, Instant submittedAt, boolean online,
            Instant lastSeenAt, List<JsonNode> flags, Long answered, Instant lastSavedAt) {
    }

    public record Page(String examId, Instant serverTime, List<Entry> sessions, String nextCursor) {
    }

    /** {@code flagged}/{@code online}: null does not filter; {@code after}: a cursor from a previous page. */
    public Uni<Page> roster(String examId, String status, Boolean flagged, Boolean onlineNow, String after, int limit) {
        String afterKey = Cursor.decode(after);
        Instant now = clock.instant();
        long nowMs = now.toEpochMilli();
        return exams.require(examId)
                .chain(exam -> Uni.combine().all().unis(online.onlineIds(examId, nowMs), flags.flaggedIds(examId)).asTuple())
                .chain(redis -> {
                    Set<String> onlineIds = redis.getItem1();
                    Set<String> flaggedIds = redis.getItem2();
                    Set<String> only = null;
                    Set<String> except = null;
                    if (Boolean.TRUE.equals(flagged)) {
                        only = new HashSet<>(flaggedIds);
                    }
                    if (Boolean.TRUE.equals(onlineNow)) {
                        only = only == null ? new HashSet<>(onlineIds) : intersect(only, onlineIds);
                    } else if (Boolean.FALSE.equals(onlineNow)) {
                        except = onlineIds;
                    }
                    if (Boolean.FALSE.equals(flagged)) {
                        except = except == null ? flaggedIds : union(except, flaggedIds);
                    }
                    // one row more than asked tells whether there is a next page
                    return store.page(pool, examId, new Filter(status, only, except), afterKey, limit + 1)
                            .chain(rows -> entries(examId, rows.subList(0, Math.min(limit, rows.size())), onlineIds,
                                    flaggedIds, now)
                                    .map(entries -> new Page(examId, now, entries, rows.size() > limit
                                            ? Cursor.encode(entries.get(entries.size() - 1).candidateId()) : null)));
                });
    }

    private Uni<List<Entry>> entries(String examId, List<SessionRow> rows, Set<String> onlineIds, Set<String> flaggedIds,
            Instant now) {
        if (rows.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        List<String> ids = rows.stream().map(SessionRow::sessionId).toList();
        List<Uni<List<JsonNode>>> flagReads = ids.stream()
                .map(id -> flaggedIds.contains(id) ? flags.flagsOf(id) : Uni.createFrom().item(List.<JsonNode>of()))
                .toList();
        return Uni.combine().all().unis(online.lastSeen(examId, ids), Uni.join().all(flagReads).andFailFast(), answers.of(ids))
                .with((seen, rowFlags, summaries) -> {
            List<Entry> entries = new ArrayList<>(rows.size());
            for (int i = 0; i < rows.size(); i++) {
                SessionRow row = rows.get(i);
                Double seenMs = seen.get(i);
                AnswerClient.Summary summary = summaries.get(row.sessionId());
                entries.add(new Entry(row.sessionId(), row.candidateId(), row.status(), row.deviceEpoch(), row.startedAt(),
                        row.deadline(), row.remainingMs(now), row.pausedAt(), row.paperId(), row.submittedAt(),
                        onlineIds.contains(row.sessionId()),
                        seenMs == null ? null : Instant.ofEpochMilli(seenMs.longValue()), rowFlags.get(i),
                        summary == null ? null : summary.answered(), summary == null ? null : summary.lastSavedAt()));
            }
            return entries;
        });
    }

    private static Set<String> intersect(Set<String> a, Set<String> b) {
        Set<String> both = new HashSet<>(a);
        both.retainAll(b);
        return both;
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> either = new HashSet<>(a);
        either.addAll(b);
        return either;
    }
}
