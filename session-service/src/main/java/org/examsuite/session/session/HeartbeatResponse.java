package org.examsuite.session.session;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/** Time, status, a renewed token (same epoch) and the proctor commands not yet seen. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record HeartbeatResponse(String sessionId, String status, Instant serverTime, Instant deadline, long remainingMs,
        String token, Instant tokenExpiresAt, int deviceEpoch, String paperId, List<JsonNode> commands) {
}
