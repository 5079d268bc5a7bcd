package org.examsuite.demo.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.Random;
import org.examsuite.demo.client.RetryPolicy.Verdict;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {
    private final RetryPolicy policy = new RetryPolicy(200, 8_000, 30_000);

    @Test
    void retriesOnlyWhatCanSucceedLater() {
        assertEquals(Verdict.SUCCESS, RetryPolicy.classify(200, null));
        assertEquals(Verdict.SUCCESS, RetryPolicy.classify(201, null));
        assertEquals(Verdict.RETRY, RetryPolicy.classify(500, "INTERNAL_ERROR"));
        assertEquals(Verdict.RETRY, RetryPolicy.classify(502, null));
        assertEquals(Verdict.RETRY, RetryPolicy.classify(503, null));
        assertEquals(Verdict.RETRY, RetryPolicy.classify(429, "TOO_MANY_REQUESTS"));
        assertEquals(Verdict.RETRY, RetryPolicy.classify(409, "REQUEST_IN_PROGRESS"));
        assertEquals(Verdict.RETRY, RetryPolicy.classifyNetworkError());
    }

    @Test
    void otherClientErrorsAreFinal() {
        for (String code : new String[] {"SESSION_TAKEN_OVER", "SESSION_CLOSED", "IDEMPOTENCY_KEY_REUSED"}) {
            assertEquals(Verdict.FINAL, RetryPolicy.classify(409, code), code);
        }
        assertEquals(Verdict.FINAL, RetryPolicy.classify(409, null));
        assertEquals(Verdict.FINAL, RetryPolicy.classify(400, "INVALID_ANSWER"));
        assertEquals(Verdict.FINAL, RetryPolicy.classify(401, null));
        assertEquals(Verdict.FINAL, RetryPolicy.classify(403, null));
        assertEquals(Verdict.FINAL, RetryPolicy.classify(404, null));
        assertEquals(Verdict.FINAL, RetryPolicy.classify(413, "PAYLOAD_TOO_LARGE"));
        assertEquals(Verdict.FINAL, RetryPolicy.classify(422, "IDEMPOTENCY_KEY_REUSED"));
    }

    @Test
    void backoffIsFullJitterUnderAnExponentialCeilingThatIsCapped() {
        assertEquals(0, policy.delayMs(0, null, () -> 0.0));
        assertEquals(199, policy.delayMs(0, null, () -> 0.999));
        assertEquals(399, policy.delayMs(1, null, () -> 0.999));
        assertEquals(800, policy.delayMs(3, null, () -> 0.5), "half of 1.6 s");
        assertEquals(7_992, policy.delayMs(10, null, () -> 0.999), "capped at 8 s");
        assertEquals(7_992, policy.delayMs(1_000, null, () -> 0.999), "no overflow for huge attempt numbers");
        Random random = new Random(1);
        long distinct = java.util.stream.IntStream.range(0, 100).mapToLong(i -> policy.delayMs(5, null, random::nextDouble))
                .distinct().count();
        assertTrue(distinct > 50, "jittered, not a fixed wait: " + distinct + " distinct waits");
    }

    @Test
    void retryAfterIsAFloorPlusALittleJitterAndItselfCapped() {
        assertEquals(3_000, policy.delayMs(0, 3_000L, () -> 0.0));
        assertEquals(3_199, policy.delayMs(7, 3_000L, () -> 0.999), "the server's wait, not the backoff's");
        assertEquals(30_000, policy.delayMs(0, 3_600_000L, () -> 0.0), "a broken Retry-After cannot park a client for an hour");
    }

    @Test
    void retryAfterReadsSecondsAndHttpDates() {
        Instant now = Instant.parse("2026-12-01T08:00:00Z");
        assertEquals(2_000L, RetryPolicy.parseRetryAfter("2", now));
        assertEquals(0L, RetryPolicy.parseRetryAfter("0", now));
        assertEquals(5_000L, RetryPolicy.parseRetryAfter("Tue, 01 Dec 2026 08:00:05 GMT", now));
        assertEquals(0L, RetryPolicy.parseRetryAfter("Tue, 01 Dec 2026 07:59:00 GMT", now), "a date in the past: now");
        assertNull(RetryPolicy.parseRetryAfter(null, now));
        assertNull(RetryPolicy.parseRetryAfter("soon", now));
        assertNull(RetryPolicy.parseRetryAfter("99999999999999999999", now));
    }
}
