package org.examsuite.common.redis;

/**
 * Every Redis key of the suite, in one place (docs/api.md §4.1). Each key carries a hash tag, so
 * that what one Lua call or pipeline touches lives in one Redis Cluster slot: a session's keys
 * share {@code {<sessionId>}} whichever service owns them (answer-service's autosave script
 * reads session-service's published state atomically), an exam's share {@code {exam:<examId>}}.
 * Suite-wide structures are sharded over {@link #SHARDS} hash tags so that no node carries all
 * of them. A key's owner is the only writer; the others read.
 */
public final class RedisKeys {
    /** Shards of each suite-wide work list; fixed, since every replica must agree on it. */
    public static final int SHARDS = 16;

    private RedisKeys() {
    }

    /**
     * Ids become part of hash tags and keys: no braces, no spaces, bounded length — {@code [A-Za-z0-9._:@-]{1,128}},
     * checked by hand (every autosave checks its session id; java.util.regex cost microseconds).
     */
    public static boolean isSafeId(String id) {
        if (id == null || id.isEmpty() || id.length() > 128) {
            return false;
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '.' || c == '_' || c == ':' || c == '@' || c == '-')) {
                return false;
            }
        }
        return true;
    }

    // --- session-service: published state (read-only to the others) and its own keys.

    /** The published session: a hash with the fields of {@link PublishedSession}. */
    public static String sessionState(String sessionId) {
        return "ses:{" + sessionId + "}:state";
    }

    /** The exam's frozen question ids and types (JSON). */
    public static String examQuestions(String examId) {
        return "ses:{exam:" + examId + "}:questions";
    }

    public static String commands(String sessionId) {
        return "ses:{" + sessionId + "}:commands";
    }

    public static String commandSequence(String sessionId) {
        return "ses:{" + sessionId + "}:command-seq";
    }

    public static String examEvents(String examId) {
        return "ses:{exam:" + examId + "}:events";
    }

    public static String examEventIds(String examId) {
        return "ses:{exam:" + examId + "}:event-ids";
    }

    public static String examOnline(String examId) {
        return "ses:{exam:" + examId + "}:online";
    }

    /** A session's recent events of one proctoring rule (sorted set: event id by time) — flag.lua. */
    public static String ruleWindow(String sessionId, String rule) {
        return "ses:{" + sessionId + "}:rule:" + rule;
    }

    /** A session's raised flags (hash: rule → the flag as JSON, evidence included) — flag.lua. */
    public static String flags(String sessionId) {
        return "ses:{" + sessionId + "}:flags";
    }

    /** The exam's sessions with at least one flag (set). */
    public static String examFlagged(String examId) {
        return "ses:{exam:" + examId + "}:flagged";
    }

    /** Requests of one kind a session made in one rate window (a counter that expires) — rate.lua. */
    public static String sessionRate(String sessionId, String kind, long window) {
        return "ses:{" + sessionId + "}:rate:" + kind + ":" + window;
    }

    /** Requests of one kind a subject (a candidate of an exam, a source address) made in one rate window — rate.lua. */
    public static String subjectRate(String kind, String subject, long window) {
        return "ses:{rate:" + kind + ":" + subject + "}:" + window;
    }

    public static String accessThrottle(String examId, String candidateId) {
        return "ses:{throttle:" + examId + ":" + candidateId + "}";
    }

    // --- answer-service.

    public static String draft(String sessionId) {
        return "ans:{" + sessionId + "}:draft";
    }

    /** The write-behind shard of a session: 0 … {@link #SHARDS} − 1, the same on every replica. */
    public static int writeBehindShard(String sessionId) {
        return Math.floorMod(sessionId.hashCode(), SHARDS);
    }

    /**
     * The write-behind log of one shard: a stream of the changes autosaves applied, one entry per
     * autosave, read by the flushers' consumer group {@link #WRITE_BEHIND_GROUP} and deleted once
     * PostgreSQL holds them.
     */
    public static String writeBehindLog(int shard) {
        return "ans:{wb:" + shard + "}:log";
    }

    /** The consumer group of every answer-service replica's flushers on {@link #writeBehindLog(int)}. */
    public static final String WRITE_BEHIND_GROUP = "flushers";

    // --- submission-service.

    /** The per-session work lock: one request at a time builds the paper. */
    public static String submitLock(String sessionId) {
        return "sub:{" + sessionId + "}:lock";
    }

    /** Final sheets kept per question by stamp until the paper exists (shed requests included). */
    public static String finalSheet(String sessionId) {
        return "sub:{" + sessionId + "}:sheet";
    }

    /** The session's paper id once stored: the cheap "already submitted?" check. */
    public static String paper(String sessionId) {
        return "sub:{" + sessionId + "}:paper";
    }

    /**
     * An idempotency record, scoped to the session and to the candidate that sent the key
     * ({@code ownerHash}, a digest of exam and candidate id) and named by the key's digest.
     */
    public static String idempotency(String sessionId, String ownerHash, String keyHash) {
        return "sub:{" + sessionId + "}:idem:" + ownerHash + ":" + keyHash;
    }

    /** Paper events, produced by submission-service, consumed by grading-saga (docs/api.md §6: one key). */
    public static final String PAPER_STREAM = "stream:{papers}";
}
