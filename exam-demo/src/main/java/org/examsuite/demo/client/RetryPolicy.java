package org.examsuite.demo.client;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.function.DoubleSupplier;

/**
 * What a candidate's client retries, and how long it waits (docs/api.md §3.3): network errors, timeouts, 5xx,
 * 409 {@code REQUEST_IN_PROGRESS} and 429 are retried, honouring {@code Retry-After}; every other 4xx is final.
 * Waits are capped exponential backoff with full jitter: uniform in [0, min(cap, base·2^attempt)). A
 * {@code Retry-After} is a floor (never earlier than the server asked, itself capped so that a broken header
 * cannot park a client for an hour) plus a little jitter so that a crowd told "1 s" does not return in the
 * same millisecond.
 */
public record RetryPolicy(long baseMs, long capMs, long maxRetryAfterMs) {
    public static final RetryPolicy DEFAULT = new RetryPolicy(200, 8_000, 30_000);

    public enum Verdict { SUCCESS, RETRY, FINAL }

    /** The verdict for an HTTP answer; {@code code} is the problem's {@code code} member, if any. */
    public static Verdict classify(int status, String code) {
        if (status >= 200 && status < 300) {
            return Verdict.SUCCESS;
        }
        if (status >= 500 || status == 429) {
            return Verdict.RETRY;
        }
        if (status == 409 && "REQUEST_IN_PROGRESS".equals(code)) {
            return Verdict.RETRY;
        }
        return Verdict.FINAL;
    }

    /** Network errors and timeouts: the request may or may not have reached the server, so retry it. */
    public static Verdict classifyNetworkError() {
        return Verdict.RETRY;
    }

    /**
     * The wait before retry number {@code attempt} (0 for the first retry).
     *
     * @param retryAfterMs the server's {@code Retry-After} in ms, or null
     * @param random uniform in [0, 1)
     */
    public long delayMs(int attempt, Long retryAfterMs, DoubleSupplier random) {
        if (retryAfterMs != null) {
            return Math.min(retryAfterMs, maxRetryAfterMs) + (long) (random.getAsDouble() * baseMs);
        }
        long ceiling = Math.min(capMs, baseMs << Math.min(attempt, 30));
        return (long) (random.getAsDouble() * ceiling);
    }

    /** {@code Retry-After} as delay-seconds or an HTTP date (RFC 9110 §10.2.3); null when absent or unreadable. */
    public static Long parseRetryAfter(String value, Instant now) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String text = value.trim();
        if (text.chars().allMatch(Character::isDigit)) {
            try {
                return Math.multiplyExact(Long.parseLong(text), 1000L);
            } catch (ArithmeticException | NumberFormatException e) {
                return null;
            }
        }
        try {
            Instant at = ZonedDateTime.parse(text, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            return Math.max(0, Duration.between(now, at).toMillis());
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
