package org.examsuite.session.session;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import org.examsuite.common.admission.ReturnBooking;

/**
 * The places of session starts: at most {@code exam.session.start.max-concurrent} work at
 * once; a start that finds them taken is refused at once with 429 {@code SESSIONS_BUSY} (it
 * never waits: a start that queued behind a hall's worth of others waited seconds, and the
 * device's own timeout made it try again on top of them). Its Retry-After books it a return
 * second as submission-service's Admission does: the first of the next max-retry-after seconds
 * with fewer returns booked than 1.5 × the starts this replica completes in a second (the best
 * second of the last ten, or its places' pace now — max-concurrent ÷ the recent mean time a
 * start holds a place — whichever is larger), so that refused candidates come back as fast as
 * the replica starts sessions, neither all at once nor while it idles.
 */
@ApplicationScoped
public class StartAdmission {
    private final AtomicInteger free;
    private final ReturnBooking booking;

    @Inject
    StartAdmission(SessionStartConfig config) {
        this(config.maxConcurrent(), (int) config.maxRetryAfter().toSeconds(), System::nanoTime);
    }

    StartAdmission(int maxConcurrent, int maxRetryAfterSeconds, LongSupplier nanoTime) {
        this.free = new AtomicInteger(maxConcurrent);
        this.booking = new ReturnBooking(maxConcurrent, maxRetryAfterSeconds, nanoTime);
    }

    /** A place right now, or false (never waits: starts run on the event loop). */
    public boolean tryEnter() {
        int now;
        do {
            now = free.get();
            if (now <= 0) {
                return false;
            }
        } while (!free.compareAndSet(now, now - 1));
        return true;
    }

    /** Gives the place back; {@code heldNanos}: how long this start held it. */
    public void leave(long heldNanos) {
        free.incrementAndGet();
        booking.completed(heldNanos);
    }

    /** Seconds a refused start is told to wait: its booked return second. */
    public int shedRetryAfterSeconds() {
        return booking.retryAfterSeconds();
    }
}
