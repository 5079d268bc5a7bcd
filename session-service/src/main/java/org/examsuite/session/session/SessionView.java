package org.examsuite.session.session;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;

/** {@code GET /api/v1/sessions/{sessionId}}: the session with the server's time. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SessionView(String sessionId, String examId, String candidateId, String status, int deviceEpoch,
        Instant startedAt, Instant deadline, int graceSeconds, Instant serverTime, long remainingMs, String paperId,
        Instant submittedAt, String submittedBy, Instant pausedAt) {

    public static SessionView of(SessionRow row, Instant now) {
        return new SessionView(row.sessionId(), row.examId(), row.candidateId(), row.status(), row.deviceEpoch(),
                row.startedAt(), row.deadline(), row.graceSeconds(), now, row.remainingMs(now), row.paperId(),
                row.submittedAt(), row.submittedBy(), row.pausedAt());
    }
}
