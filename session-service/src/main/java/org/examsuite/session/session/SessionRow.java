package org.examsuite.session.session;

import io.vertx.mutiny.sqlclient.Row;
import java.time.Instant;
import java.time.OffsetDateTime;

/** A row of the {@code session} table. */
public record SessionRow(String sessionId, String examId, String candidateId, int deviceEpoch, Instant startedAt,
        Instant deadline, int graceSeconds, Instant submitDueAt, String status, String paperId, Instant submittedAt,
        String submittedBy, Instant autosubmitClaimedAt, long rowVersion, Instant pausedAt, boolean pausedByExam, long pausedMs) {

    public static final String IN_PROGRESS = "IN_PROGRESS";
    public static final String PAUSED = "PAUSED";
    public static final String SUBMITTED = "SUBMITTED";

    public boolean submitted() {
        return SUBMITTED.equals(status);
    }

    public boolean paused() {
        return PAUSED.equals(status);
    }

    /** The candidate's time left: none once submitted; standing still while paused. */
    public long remainingMs(Instant now) {
        if (submitted()) {
            return 0;
        }
        Instant clock = paused() && pausedAt != null ? pausedAt : now;
        return Math.max(0, deadline.toEpochMilli() - clock.toEpochMilli());
    }

    public static SessionRow of(Row row) {
        return new SessionRow(row.getString("session_id"), row.getString("exam_id"), row.getString("candidate_id"),
                row.getInteger("device_epoch"), instant(row.getOffsetDateTime("started_at")),
                instant(row.getOffsetDateTime("deadline")), row.getInteger("grace_seconds"),
                instant(row.getOffsetDateTime("submit_due_at")), row.getString("status"), row.getString("paper_id"),
                instant(row.getOffsetDateTime("submitted_at")), row.getString("submitted_by"),
                instant(row.getOffsetDateTime("autosubmit_claimed_at")), row.getLong("row_version"),
                instant(row.getOffsetDateTime("paused_at")), Boolean.TRUE.equals(row.getBoolean("paused_by_exam")),
                row.getLong("paused_ms"));
    }

    private static Instant instant(OffsetDateTime at) {
        return at == null ? null : at.toInstant();
    }
}
