package org.examsuite.common.admission;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The Retry-After of a refused request as a booked return second: the first of the next
 * max-retry-after seconds that has fewer returns booked than 1.5 × what this replica completes
 * in a second (the half more lets a replica that can do more show it); when every second is
 * booked full, a second at random among them. What it completes in a second is the larger of
 * the best second of the last ten and what its places do now — maxConcurrent places, each held
 * for the recent mean time one is held (Little's law; exact while every place is taken, as when
 * requests are refused) — and at least maxConcurrent. So refused clients come back about as fast
 * as the work is done, neither hammering a saturated replica nor leaving it idle while they wait
 * (docs/benchmarks.md, "Runs of 2026-12-01"). Shared by submission-service's Admission and
 * session-service's StartAdmission.
 */
public final class ReturnBooking {
    private static final int CAPACITY_SECONDS = 10;

    private final int maxConcurrent;
    private final LongSupplier nanoTime;
    /** Returns booked per second, a ring indexed by second modulo its length (max-retry-after + 1). */
    private final AtomicIntegerArray returns;
    private final AtomicLong rolledSecond;
    private final AtomicInteger completed = new AtomicInteger();
    /** Work completed in each of the last seconds (ring), written only by the roll's winner. */
    private final int[] completedPerSecond = new int[CAPACITY_SECONDS];
    private volatile int capacityPerSecond;
    /** The recent mean time a place is held (nanoseconds; 0 = none completed yet). */
    private final AtomicLong meanHoldNanos = new AtomicLong();

    public ReturnBooking(int maxConcurrent, int maxRetryAfterSeconds, LongSupplier nanoTime) {
        this.maxConcurrent = maxConcurrent;
        this.nanoTime = nanoTime;
        this.returns = new AtomicIntegerArray(Math.max(2, maxRetryAfterSeconds) + 1);
        this.rolledSecond = new AtomicLong(second());
        this.capacityPerSecond = bookablePerSecond(maxConcurrent);
    }

    /** One piece of work completed, having held its place for {@code heldNanos}. */
    public void completed(long heldNanos) {
        roll();
        completed.incrementAndGet();
        // A moving mean over about the last eight: quick to follow a rush that begins.
        meanHoldNanos.getAndUpdate(mean -> mean == 0 ? heldNanos : mean + (heldNanos - mean) / 8);
    }

    /** Seconds a refused request is told to wait: its booked return second. */
    public int retryAfterSeconds() {
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
        // Every second booked full: a second at random, so that an overflow comes back spread out
        // rather than all at the horizon (it is refused and booked again if the replica is still full).
        int after = 1 + ThreadLocalRandom.current().nextInt(horizon);
        returns.incrementAndGet(slot(now + after));
        return after;
    }

    /**
     * Returns booked per second for a replica seen completing this many a second: a half more, so
     * that the returns can show it does more — booked at exactly the pace seen, its pace would be
     * held at the first estimate.
     */
    private static int bookablePerSecond(int completedPerSecond) {
        return Math.max(1, completedPerSecond + completedPerSecond / 2);
    }

    private long second() {
        return TimeUnit.NANOSECONDS.toSeconds(nanoTime.getAsLong());
    }

    /** A second's place in the ring of booked returns (nanoTime's origin is arbitrary: it may be negative). */
    private int slot(long second) {
        return (int) Math.floorMod(second, (long) returns.length());
    }

    /** On a new second: its booked returns are due (the slot is free for booking again), and the capacity is updated. */
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
