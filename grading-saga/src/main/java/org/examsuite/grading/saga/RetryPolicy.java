package org.examsuite.grading.saga;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The saga's own retries (persisted in the step log, so they survive restarts): exponential
 * backoff with "equal jitter" — half the delay fixed, half random — so retries of many
 * sagas after one outage spread out without losing the exponential growth.
 */
public record RetryPolicy(int maxAttempts, Duration initialBackoff, Duration maxBackoff) {
    public Duration backoffAfter(int attempts) {
        long base = Math.max(1, initialBackoff.toMillis());
        int doublings = Math.min(Math.max(attempts - 1, 0), 30);
        long capped = Math.min(maxBackoff.toMillis(), base * (1L << doublings));
        long half = capped / 2;
        return Duration.ofMillis(half + ThreadLocalRandom.current().nextLong(half + 1));
    }

    public boolean exhausted(int attempts) {
        return attempts >= maxAttempts;
    }
}
