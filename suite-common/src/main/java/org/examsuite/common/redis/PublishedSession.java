package org.examsuite.common.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A session's published state (docs/api.md §4.1): the hash {@link RedisKeys#sessionState} that
 * session-service writes from a committed PostgreSQL row and the other services read on their
 * hot paths. The field names live here only; a Lua script that reads the hash names them too,
 * and {@code PublishedStateContractTest} checks those names against {@link #FIELDS}.
 */
public record PublishedSession(String sessionId, long rev, String examId, String candidateId, long epoch,
        long deadlineMs, long graceMs, String status, long pausedAtMs) {
    public static final String REV = "rev";
    public static final String EXAM_ID = "examId";
    public static final String CANDIDATE_ID = "candidateId";
    public static final String EPOCH = "epoch";
    public static final String DEADLINE = "deadline";
    public static final String GRACE_MS = "graceMs";
    public static final String STATUS = "status";
    /** When the session was paused (epoch ms), 0 when it is not. */
    public static final String PAUSED_AT = "pausedAt";
    public static final List<String> FIELDS = List.of(REV, EXAM_ID, CANDIDATE_ID, EPOCH, DEADLINE, GRACE_MS, STATUS, PAUSED_AT);

    public static final String IN_PROGRESS = "IN_PROGRESS";
    /** The clock stands still: answers are taken whatever the deadline, which moves on resume. */
    public static final String PAUSED = "PAUSED";
    public static final String SUBMITTED = "SUBMITTED";

    public boolean paused() {
        return PAUSED.equals(status);
    }

    /** The candidate's time left at {@code nowMs}: none once submitted, standing still while paused. */
    public long remainingMs(long nowMs) {
        if (SUBMITTED.equals(status)) {
            return 0;
        }
        return Math.max(0, deadlineMs - (paused() && pausedAtMs > 0 ? pausedAtMs : nowMs));
    }

    /** Field, value, field, value … in {@link #FIELDS} order, as HSET takes them. */
    public List<String> fieldValues() {
        List<String> out = new ArrayList<>(FIELDS.size() * 2);
        add(out, REV, Long.toString(rev));
        add(out, EXAM_ID, examId);
        add(out, CANDIDATE_ID, candidateId);
        add(out, EPOCH, Long.toString(epoch));
        add(out, DEADLINE, Long.toString(deadlineMs));
        add(out, GRACE_MS, Long.toString(graceMs));
        add(out, STATUS, status);
        add(out, PAUSED_AT, Long.toString(pausedAtMs));
        return out;
    }

    /**
     * The state read back from the hash; null when it is missing or incomplete (Redis lost it:
     * the reader asks session-service to publish it again rather than guess).
     * @throws NumberFormatException when a number field is not a number
     */
    public static PublishedSession fromHash(String sessionId, Map<String, String> fields) {
        if (fields == null || fields.get(EXAM_ID) == null || fields.get(DEADLINE) == null) {
            return null;
        }
        return new PublishedSession(sessionId, Long.parseLong(fields.getOrDefault(REV, "0")), fields.get(EXAM_ID),
                fields.get(CANDIDATE_ID), Long.parseLong(fields.getOrDefault(EPOCH, "0")), Long.parseLong(fields.get(DEADLINE)),
                Long.parseLong(fields.getOrDefault(GRACE_MS, "30000")), fields.getOrDefault(STATUS, IN_PROGRESS),
                Long.parseLong(fields.getOrDefault(PAUSED_AT, "0")));
    }

    private static void add(List<String> out, String field, String value) {
        out.add(field);
        out.add(value == null ? "" : value);
    }
}
