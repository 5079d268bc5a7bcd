package org.examsuite.submission.submit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The shed requests' Retry-After follows the overload: a plain unit test on a hand-driven clock. */
class AdmissionTest {
    private final AtomicLong now = new AtomicLong();
    private final Admission admission = new Admission(1, 0, Duration.ZERO, Duration.ofSeconds(60), now::get);

    /** One second of traffic: this many requests complete and this many are shed; the last Retry-After told. */
    private int second(int completed, int shed) {
        int retryAfter = 0;
        for (int i = 0; i < completed; i++) {
            assertTrue(admission.tryEnter());
            admission.leave();
        }
        for (int i = 0; i < shed; i++) {
            retryAfter = admission.shedRetryAfterSeconds();
        }
        now.addAndGet(TimeUnit.SECONDS.toNanos(1));
        return retryAfter;
    }

    @Test
    void aLightOverloadIsToldToComeBackInASecondOrTwo() {
        for (int s = 0; s < 20; s++) {
            int retryAfter = second(100, 20);
            assertTrue(retryAfter >= 1 && retryAfter <= 2, "second " + s + ": " + retryAfter);
        }
    }

    @Test
    void aStormFarAboveCapacitySpreadsItsRetriesUpToTheCapAndTheBaseComesDownAfterwards() {
        int retryAfter = 0;
        for (int s = 0; s < 20; s++) {
            retryAfter = second(70, 900);
            assertTrue(retryAfter >= 1 && retryAfter <= 60, "second " + s + ": " + retryAfter);
        }
        // Sheds far above completions: the base has reached half the cap, the values [30, 60).
        assertTrue(retryAfter >= 30, "Retry-After " + retryAfter);
        // Retries now come back about as fast as submissions complete: the base holds.
        for (int s = 0; s < 5; s++) {
            retryAfter = second(70, 70);
        }
        assertTrue(retryAfter >= 30, "Retry-After " + retryAfter);
        // The storm is over: seconds without sheds halve the base, down to 1 s.
        now.addAndGet(TimeUnit.SECONDS.toNanos(10));
        assertEquals(1, second(5, 1));
    }
}
