package org.examsuite.answer.persistence;

/**
 * Whether one flush loop asks Redis for work on this tick. A loop whose last read found work
 * asks every tick; an idle one asks again as soon as this replica has logged an autosave since
 * that read was issued, and otherwise only once per idle interval — for work only Redis knows
 * of (another replica's entries). Idle, a replica made
 * {@code SHARDS × concurrency / interval} reads a second (640) for nothing.
 */
final class IdlePolling {
    private final long idleMs;
    private boolean foundWork = true;
    private long readAtMs;
    private long marksAtRead = -1;

    IdlePolling(long idleMs) {
        this.idleMs = idleMs;
    }

    /** {@code marks}: this replica's autosaves logged so far ({@code DraftStore.logged()}). */
    boolean due(long nowMs, long marks) {
        return foundWork || marks != marksAtRead || nowMs - readAtMs >= idleMs;
    }

    /** Before the read is sent: an autosave logged after this is counted and asks for the next read. */
    void reading(long nowMs, long marks) {
        readAtMs = nowMs;
        marksAtRead = marks;
    }

    /** What the read found; a failed round counts as work (it is tried again). */
    void found(boolean found) {
        foundWork = found;
    }
}
