package org.examsuite.submission.paper;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Waiting on a worker thread for another request's work to show in Redis: a short pause that
 * doubles up to a cap, until a deadline. Both waits of a submission use it — for a request with
 * the same Idempotency-Key to end, and for the lock holder's paper.
 */
public final class Pause {
    private static final long FIRST_MILLIS = 20;

    private final long deadlineNanos;
    private final long capMillis;
    private long nextMillis = FIRST_MILLIS;

    /** Pauses of 20 ms, doubling up to {@code cap}, for at most {@code limit} from now. */
    public Pause(Duration limit, Duration cap) {
        this.deadlineNanos = System.nanoTime() + limit.toNanos();
        this.capMillis = cap.toMillis();
    }

    /** Sleeps the next pause and returns true, or returns false at once when the deadline has passed. */
    public boolean pause() {
        if (System.nanoTime() - deadlineNanos >= 0) {
            return false;
        }
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(nextMillis));
        nextMillis = Math.min(nextMillis * 2, capMillis);
        return true;
    }
}
