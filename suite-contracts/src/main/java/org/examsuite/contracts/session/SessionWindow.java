package org.examsuite.contracts.session;

import java.util.List;

/**
 * When a session takes answers (docs/api.md §3.5), as answer-service's autosave.lua and submission-service's
 * final sheet both decide it from the published state: until deadline + grace, or at any time while PAUSED
 * (the candidate's clock stands still); after the deadline, within grace, what is taken is late. autosave.lua
 * cannot call Java, so {@link #EXAMPLES} are run against the script and against this record alike.
 */
public record SessionWindow(long deadlineMs, long graceMs, boolean paused) {

    /** Whether an answer or a final sheet received at {@code nowMs} is taken. */
    public boolean takesAt(long nowMs) {
        return paused || nowMs <= deadlineMs + graceMs;
    }

    /** Whether one received at {@code nowMs} is late: after the deadline, in the grace period. */
    public boolean lateAt(long nowMs) {
        return !paused && nowMs > deadlineMs;
    }

    /** One case: the window, the instant, and what every implementation must answer. */
    public record Example(SessionWindow window, long nowMs, boolean taken, boolean late) {
    }

    private static final long DEADLINE = 1_800_000_000_000L;
    private static final long GRACE = 30_000;
    private static final SessionWindow RUNNING = new SessionWindow(DEADLINE, GRACE, false);
    private static final SessionWindow PAUSED = new SessionWindow(DEADLINE, GRACE, true);

    public static final List<Example> EXAMPLES = List.of(
            new Example(RUNNING, DEADLINE - 60_000, true, false),
            new Example(RUNNING, DEADLINE, true, false),
            new Example(RUNNING, DEADLINE + 1, true, true),
            new Example(RUNNING, DEADLINE + GRACE, true, true),
            new Example(RUNNING, DEADLINE + GRACE + 1, false, false),
            new Example(new SessionWindow(DEADLINE, 0, false), DEADLINE + 1, false, false),
            new Example(PAUSED, DEADLINE + GRACE + 3_600_000, true, false),
            new Example(PAUSED, DEADLINE - 60_000, true, false));
}
