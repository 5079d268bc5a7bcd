package org.examsuite.answer.draft;

import java.util.regex.Pattern;

/**
 * Redis keys. Every key of a session carries the hash tag {@code {<sessionId>}}, the same as
 * session-service's published state, so one Lua call reads both (DESIGN.md §4.1).
 */
public final class DraftKeys {
    /** Ids become part of hash tags and keys: no braces, no spaces, bounded length. */
    private static final Pattern SAFE_ID = Pattern.compile("[A-Za-z0-9._:@-]{1,128}");

    private DraftKeys() {
    }

    public static boolean isSafeId(String id) {
        return id != null && SAFE_ID.matcher(id).matches();
    }

    public static String draft(String sessionId) {
        return "ans:{" + sessionId + "}:draft";
    }

    /** The questions whose last write PostgreSQL may not have yet (autosave.lua, read.lua, persisted.lua). */
    public static String pending(String sessionId) {
        return "ans:{" + sessionId + "}:pending";
    }

    public static String sessionState(String sessionId) {
        return "ses:{" + sessionId + "}:state";
    }

    public static String examQuestions(String examId) {
        return "ses:{exam:" + examId + "}:questions";
    }
}
