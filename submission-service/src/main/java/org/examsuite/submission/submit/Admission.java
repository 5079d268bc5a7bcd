package org.examsuite.submission.submit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import org.examsuite.common.admission.ReturnBooking;

/**
 * The bulkhead in front of submission work: at most {@code exam.submission.max-concurrent}
 * submissions work at once. A request that finds them all busy waits for a place — at most
 * {@code exam.submission.admission-wait}, and only while fewer than
 * {@code exam.submission.max-waiting} wait (its worker thread parks; it costs no CPU) — and is
 * then shed with 429 and Retry-After (after its sheet is kept), never left to time out. A short
 * queue turns most deadline-storm retries into one request that waits.
 * <p>
 * The Retry-After of a shed request (this 429 and {@link FrontDoor}'s 503) books it a return
 * second: the first of the next {@code exam.submission.max-retry-after} seconds with fewer
 * returns booked than 1.5 × what this replica completes in a second — the larger of its best
 * second of the last ten and what its places do now (Little's law), at least max-concurrent —
 * else a booked second at random. So shed clients come back about as fast as papers are made.
 * The measurements behind this design: docs/benchmarks.md, "Why the storm's returns are booked".
 */
@ApplicationScoped
public class Admission {
    private final Semaphore permits;
    private final int maxConcurrent;
    private final int maxWaiting;
    private final long waitNanos;
    private final AtomicInteger waiting = new AtomicInteger();
    private final ReturnBooking booking;

    @Inject
    Admission(SubmitConfig config) {
        this(config.maxConcurrent(), config.maxWaiting(), config.admissionWait(), config.maxRetryAfter(), System::nanoTime);
    }

    Admission(int maxConcurrent, int maxWaiting, Duration wait, Duration maxRetryAfter, LongSupplier nanoTime) {
        this.permits = new Semaphore(maxConcurrent);
        this.maxConcurrent = maxConcurrent;
        this.maxWaiting = maxWaiting;
        this.waitNanos = wait.toNanos();
        this.booking = new ReturnBooking(maxConcurrent, (int) Math.min(Integer.MAX_VALUE, maxRetryAfter.toSeconds()), nanoTime);
    }

    /** A place right now, without waiting. */
    public boolean tryEnter() {
        return permits.tryAcquire();
    }

    /** A place within the admission wait (false at once when too many wait already). */
    public boolean enter() {
        if (permits.tryAcquire()) {
            return true;
        }
        if (waitNanos <= 0 || waiting.incrementAndGet() > maxWaiting) {
            if (waitNanos > 0) {
                waiting.decrementAndGet();
            }
            return false;
        }
        try {
            return permits.tryAcquire(waitNanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            waiting.decrementAndGet();
        }
    }

    /** Gives the place back; {@code heldNanos}: how long this submission held it. */
    public void leave(long heldNanos) {
        permits.release();
        booking.completed(heldNanos);
    }

    /** Seconds a shed request is told to wait: its booked return second (see above). */
    public int shedRetryAfterSeconds() {
        return booking.retryAfterSeconds();
    }
}
