package org.examsuite.submission.submit;

import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The bulkhead in front of submission work: at most {@code exam.submission.max-concurrent}
 * submissions work at once. A request that finds them all busy waits for a place — at most
 * {@code exam.submission.admission-wait}, and only while fewer than
 * {@code exam.submission.max-waiting} wait (its worker thread parks; it costs no CPU) — and is
 * then shed with 429 and Retry-After (after its sheet is kept), never left to time out.
 * <p>
 * Why wait at all: in the deadline storm every 429 came back a second later, and answering
 * those retries (TLS-free as they were) took most of the CPU that should have built papers. A
 * short queue turns most of them into one request that waits; and the Retry-After of the
 * ones still shed grows with the overload (sheds per completed submission over the last
 * second, 1–10 s, spread at random) so that retries do not arrive as one wave.
 */
@ApplicationScoped
public class Admission {
    private static final long WINDOW_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final Semaphore permits;
    private final int maxWaiting;
    private final long waitNanos;
    private final AtomicInteger waiting = new AtomicInteger();
    private final AtomicLong windowStart = new AtomicLong(System.nanoTime());
    private final AtomicLong completed = new AtomicLong();
    private final AtomicLong shed = new AtomicLong();
    private volatile long lastCompleted;
    private volatile long lastShed;

    Admission(@ConfigProperty(name = "exam.submission.max-concurrent", defaultValue = "32") int maxConcurrent,
            @ConfigProperty(name = "exam.submission.max-waiting", defaultValue = "128") int maxWaiting,
            @ConfigProperty(name = "exam.submission.admission-wait", defaultValue = "PT2S") Duration wait) {
        this.permits = new Semaphore(maxConcurrent);
        this.maxWaiting = maxWaiting;
        this.waitNanos = wait.toNanos();
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

    public void leave() {
        permits.release();
        roll();
        completed.incrementAndGet();
    }

    /** Seconds a shed request is told to wait: grows with sheds per completion, 1–10, spread at random. */
    public int shedRetryAfterSeconds() {
        roll();
        shed.incrementAndGet();
        long done = Math.max(1, lastCompleted);
        int base = (int) Math.max(1, Math.min(10, lastShed / done));
        return Math.min(10, base + ThreadLocalRandom.current().nextInt(base));
    }

    private void roll() {
        long start = windowStart.get();
        long now = System.nanoTime();
        if (now - start >= WINDOW_NANOS && windowStart.compareAndSet(start, now)) {
            lastCompleted = completed.getAndSet(0);
            lastShed = shed.getAndSet(0);
        }
    }
}
