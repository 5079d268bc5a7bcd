package org.examsuite.session.session;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

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
    private static final int CAPACITY_SECONDS = 10;

    private final AtomicInteger free;
    private final int maxConcurrent;
    private final LongSupplier nanoTime;
    /** Returns booked per second, a ring indexed by second modulo its length (max-retry-after + 1). */
    private final AtomicIntegerArray returns;
    private final AtomicLong rolledSecond;
    private final AtomicInteger completed = new AtomicInteger();
    /** Starts completed in each of the last seconds (ring), written only by the roll's winner. */
    private final int[] completedPerSecond = new int[CAPACITY_SECONDS];
    private volatile int capacityPerSecond;
    private final AtomicLong meanHoldNanos = new AtomicLong();

    @Inject
    StartAdmission(SessionStartConfig config) {
        this(config.maxConcurrent(), (int) config.maxRetryAfter().toSeconds(), System::nanoTime);
    }

    StartAdmission(int maxConcurrent, int maxRetryAfterSeconds, LongSupplier nanoTime) {
        this.free = new AtomicInteger(maxConcurrent);
        this.maxConcurrent = maxConcurrent;
        this.nanoTime = nanoTime;
        this.returns = new AtomicIntegerArray(Math.max(2, maxRetryAfterSeconds) + 1);
        this.rolledSecond = new AtomicLong(second());
        this.capacityPerSecond = bookablePerSecond(maxConcurrent);
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
        roll();
        completed.incrementAndGet();
        // A moving mean over about the last eight starts: quick to follow a surge that begins.
        meanHoldNanos.getAndUpdate(mean -> mean == 0 ? heldNanos : mean + (heldNanos - mean) / 8);
    }

    /** Seconds a refused start is told to wait: its booked return second. */
    public int shedRetryAfterSeconds() {
        long now = roll();
        long meanHold = meanHoldNanos.get();
        int placesPace = meanHold <= 0 ? 0 : (int) Math.min(Integer.MAX_VALUE / 2, maxConcurrent * 1_000_000_000L / meanHold);
        int capacity = Math.max(capacityPerSecond, bookablePerSecond(placesPace));
        int horizon = returns.length() - 1;
        for (int after = 1; after < horizon; after++) {
            int slot = slot(now + after);
            if (returns.incrementAndGet(slot) <= capacity) {
                return after;
            }
            returns.decrementAndGet(slot);
        }
        // Every second booked full: one at random, so that the overflow comes back spread out.
        int after = 1 + ThreadLocalRandom.current().nextInt(horizon);
        returns.incrementAndGet(slot(now + after));
        return after;
    }

    private static int bookablePerSecond(int completedPerSecond) {
        return Math.max(1, completedPerSecond + completedPerSecond / 2);
    }

    private long second() {
        return TimeUnit.NANOSECONDS.toSeconds(nanoTime.getAsLong());
    }

    private int slot(long second) {
        return (int) Math.floorMod(second, (long) returns.length());
    }

    /** On a new second: its booked returns are due (the slot is free again), and the capacity is updated. */
    private long roll() {
        long now = second();
        long last = rolledSecond.get();
        if (now > last && rolledSecond.compareAndSet(last, now)) {
            completedPerSecond[(int) Math.floorMod(last, (long) CAPACITY_SECONDS)] = completed.getAndSet(0);
            for (long s = last + 1; s < now && s <= last + CAPACITY_SECONDS; s++) {
                completedPerSecond[(int) Math.floorMod(s, (long) CAPACITY_SECONDS)] = 0;
            }
            int best = maxConcurrent;
            for (int done : completedPerSecond) {
                best = Math.max(best, done);
            }
            capacityPerSecond = bookablePerSecond(best);
            for (long s = last + 1; s <= now && s <= last + returns.length(); s++) {
                returns.set(slot(s), 0);
            }
        }
        return now;
    }
}
