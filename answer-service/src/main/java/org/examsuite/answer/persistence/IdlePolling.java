package org.examsuite.answer.persistence;

/**
 * Whether one flush loop asks Redis for work on this tick. A loop whose last claim found work
 * asks every tick; an idle one asks again as soon as this replica has had a draft marked dirty
 * since that claim was issued, and otherwise only once per idle interval — for work only Redis
 * knows of (another replica's, a crashed flusher's expired claims). Idle, a replica made
 * {@code SHARDS × concurrency / interval} claim calls a second (640) for nothing.
 */
final class IdlePolling {
    private final long idleMs;
    private boolean foundWork = true;
    private long claimedAtMs;
    private long marksAtClaim = -1;

    IdlePolling(long idleMs) {
        this.idleMs = idleMs;
    }

    /** {@code marks}: this replica's dirty marks applied so far ({@code DraftStore.dirtyMarks()}). */
    boolean due(long nowMs, long marks) {
        return foundWork || marks != marksAtClaim || nowMs - claimedAtMs >= idleMs;
    }

    /** Before the claim is sent: a mark applied after this is counted and asks for the next claim. */
    void claiming(long nowMs, long marks) {
        claimedAtMs = nowMs;
        marksAtClaim = marks;
    }

    /** What the claim found; a failed round counts as work (it is tried again). */
    void claimed(boolean found) {
        foundWork = found;
    }
}
