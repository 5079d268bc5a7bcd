package org.examsuite.session.redis;

/**
 * Every Redis key session-service writes (DESIGN.md §4.1). Each carries a hash tag so that
 * the keys one script touches share a Redis Cluster slot: a session's keys are tagged with
 * the session id (the same slot as answer-service's {@code ans:{<sessionId>}:…}), an exam's
 * with {@code exam:<examId>}.
 */
public final class Keys {
    private Keys() {
    }

    /** Published: the session's state hash, read by answer- and submission-service. */
    public static String sessionState(String sessionId) {
        return "ses:{" + sessionId + "}:state";
    }

    /** Proctor commands waiting for the session's device (heartbeat / live socket). */
    public static String commands(String sessionId) {
        return "ses:{" + sessionId + "}:commands";
    }

    public static String commandSequence(String sessionId) {
        return "ses:{" + sessionId + "}:command-seq";
    }

    /** Published: the frozen question ids, types and options of an exam. */
    public static String examQuestions(String examId) {
        return "ses:{exam:" + examId + "}:questions";
    }

    /** The exam's proctoring stream and the ids already in it. */
    public static String examEvents(String examId) {
        return "ses:{exam:" + examId + "}:events";
    }

    public static String examEventIds(String examId) {
        return "ses:{exam:" + examId + "}:event-ids";
    }

    /** Last heartbeat per session (sorted set scored by epoch ms). */
    public static String examOnline(String examId) {
        return "ses:{exam:" + examId + "}:online";
    }

    /** Failed access-code attempts of one candidate of one exam. */
    public static String accessThrottle(String examId, String candidateId) {
        return "ses:{throttle:" + examId + ":" + candidateId + "}";
    }
}
