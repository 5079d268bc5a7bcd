package org.examsuite.grading.intake;

import java.util.Map;

/** One message of {@code stream:{papers}} (docs/ARCHITECTURE.md): ids plus the producer's trace context. */
public record PaperEvent(String messageId, String paperId, String sessionId, String examId, Map<String, String> fields) {
    static final int MAX_ID_LENGTH = 200;

    /** Null when the message lacks what a saga needs (it can never succeed: it is acknowledged and logged). */
    static PaperEvent of(String messageId, Map<String, String> fields) {
        String paperId = fields.get("paperId");
        String sessionId = fields.get("sessionId");
        String examId = fields.get("examId");
        if (!valid(paperId) || !valid(sessionId) || !valid(examId)) {
            return null;
        }
        return new PaperEvent(messageId, paperId, sessionId, examId, fields);
    }

    private static boolean valid(String id) {
        return id != null && !id.isBlank() && id.length() <= MAX_ID_LENGTH;
    }
}
