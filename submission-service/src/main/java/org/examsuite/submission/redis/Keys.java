package org.examsuite.submission.redis;

import org.examsuite.submission.paper.Canonical;

/**
 * Every Redis key this service reads or writes (DESIGN.md §4.1): its own under {@code sub:},
 * session-service's published state read-only. Each carries a hash tag so that the keys one
 * script touches live in one Redis Cluster slot.
 */
public final class Keys {
    private Keys() {
    }

    /** Published by session-service: examId, epoch, deadline, graceMs, status (+ candidateId). */
    public static String sessionState(String sessionId) {
        return "ses:{" + sessionId + "}:state";
    }

    /** Published by session-service: the frozen question ids and types of an exam. */
    public static String examQuestions(String examId) {
        return "ses:{exam:" + examId + "}:questions";
    }

    /** The per-session work lock: one request at a time builds the paper. */
    public static String lock(String sessionId) {
        return "sub:{" + sessionId + "}:lock";
    }

    /** Final sheets kept per question by stamp until the paper exists (shed requests included). */
    public static String sheet(String sessionId) {
        return "sub:{" + sessionId + "}:sheet";
    }

    /** The session's paper id once stored: the cheap "already submitted?" check. */
    public static String paper(String sessionId) {
        return "sub:{" + sessionId + "}:paper";
    }

    /**
     * An idempotency record, scoped to the session and the candidate (exam + candidate id) that
     * sent the key; in the session's hash slot, so one script reads it with the session's keys.
     */
    public static String idempotency(String sessionId, String examId, String candidateId, String key) {
        String owner = Canonical.sha256Hex(examId + '\n' + candidateId).substring(0, 32);
        return "sub:{" + sessionId + "}:idem:" + owner + ":" + Canonical.sha256Hex(key);
    }
}
