package org.examsuite.submission.session;

import java.time.Instant;
import org.examsuite.common.redis.PublishedSession;
import org.examsuite.contracts.session.SessionWindow;

/**
 * A session as session-service publishes it ({@code ses:{<sessionId>}:state}). The deadline
 * is read here on every request, never from a token, so an extension reaches us at once.
 * {@code candidateId} is null when the publisher does not write it.
 */
public record SessionState(String sessionId, String examId, String candidateId, long epoch, long deadlineMs, long graceMs,
        String status) {

    /** The last instant at which a final sheet is still taken (deadline + grace). */
    public long closesAtMs() {
        return deadlineMs + graceMs;
    }

    /** Paused, the candidate's clock stands still: the deadline moves when the session resumes. */
    public boolean paused() {
        return PublishedSession.PAUSED.equals(status);
    }

    /** The one rule of when answers are taken (suite-contracts; autosave.lua answers its examples alike). */
    public SessionWindow window() {
        return new SessionWindow(deadlineMs, graceMs, paused());
    }

    public boolean acceptsSheetAt(Instant now) {
        return window().takesAt(now.toEpochMilli());
    }

    public boolean isLateAt(long receivedAtMs) {
        return window().lateAt(receivedAtMs);
    }
}
