package org.examsuite.submission.submit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
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
 * ones still shed follows the overload, so that retries do not arrive as one wave.
 * <p>
 * The Retry-After: every second the base is multiplied by the sheds per completed submission
 * of that second (at most ×2, at least ×½; halved after a second without sheds), between 1 s
 * and half of {@code exam.submission.max-retry-after}, and each shed request is told a value
 * spread at random over [base, 2 × base). It settles where retries come back about as fast as
 * submissions complete. With a fixed cap of 10 s, a storm of 10,000 sessions on 2 cores had
 * ~9,000 clients waiting and retrying every ≤ 10 s — ~900 refusals a second, each a TCP
 * connection set up and closed on both sides, which cost more CPU than the papers did and
 * left ~900 sessions without a paper when their clients gave up after 120 s
 * (docs/benchmarks.md, "Runs of 2026-12-01").
 */
@ApplicationScoped
public class Admission {
    private static final long WINDOW_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final Semaphore permits;
    private final int maxWaiting;
    private final long waitNanos;
    private final AtomicInteger waiting = new AtomicInteger();
    private final AtomicLong windowStart = new AtomicLong();
    private final AtomicLong completed = new AtomicLong();
    private final AtomicLong shed = new AtomicLong();
    private final int maxRetryAfterSeconds;
    private final LongSupplier nanoTime;
    private volatile double retryBaseSeconds = 1;

    @Inject
    Admission(@ConfigProperty(name = "exam.submission.max-concurrent", defaultValue = "32") int maxConcurrent,
            @ConfigProperty(name = "exam.submission.max-waiting", defaultValue = "128") int maxWaiting,
            @ConfigProperty(name = "exam.submission.admission-wait", defaultValue = "PT2S") Duration wait,
            @ConfigProperty(name = "exam.submission.max-retry-after", defaultValue = "PT60S") Duration maxRetryAfter) {
        this(maxConcurrent, maxWaiting, wait, maxRetryAfter, System::nanoTime);
    }

    Admission(int maxConcurrent, int maxWaiting, Duration wait, Duration maxRetryAfter, LongSupplier nanoTime) {
        this.permits = new Semaphore(maxConcurrent);
        this.maxWaiting = maxWaiting;
        this.waitNanos = wait.toNanos();
        this.maxRetryAfterSeconds = (int) Math.max(2, maxRetryAfter.toSeconds());
        this.nanoTime = nanoTime;
        this.windowStart.set(nanoTime.getAsLong());
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

    /** Seconds a shed request is told to wait: [base, 2 × base), the base following the overload (see above). */
    public int shedRetryAfterSeconds() {
        roll();
        shed.incrementAndGet();
        int base = (int) Math.round(retryBaseSeconds);
        return Math.min(maxRetryAfterSeconds, base + ThreadLocalRandom.current().nextInt(base));
    }

    private void roll() {
        long start = windowStart.get();
        long now = nanoTime.getAsLong();
        if (now - start >= WINDOW_NANOS && windowStart.compareAndSet(start, now)) {
            long done = completed.getAndSet(0);
            long sheds = shed.getAndSet(0);
            double base = retryBaseSeconds * (sheds == 0 ? 0.5 : Math.max(0.5, Math.min(2, (double) sheds / Math.max(1, done))));
            // Seconds that passed without any request since: no sheds, each halves the base.
            long idleWindows = Math.min(8, (now - start) / WINDOW_NANOS - 1);
            retryBaseSeconds = Math.max(1, Math.min(maxRetryAfterSeconds / 2.0, base / (1L << idleWindows)));
        }
    }
}
