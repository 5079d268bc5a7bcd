package org.examsuite.session.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The places of session starts and the pace of the refused ones' Retry-After, on a hand-driven clock. */
class StartAdmissionTest {
    private final AtomicLong now = new AtomicLong(TimeUnit.SECONDS.toNanos(1_000));
    private final StartAdmission admission = new StartAdmission(4, 30, now::get);

    /** One second: this many starts complete (each held its place {@code holdMs}), then this many are refused. */
    private Map<Integer, Integer> second(int completed, long holdMs, int refused) {
        for (int i = 0; i < completed; i++) {
            assertTrue(admission.tryEnter());
            admission.leave(TimeUnit.MILLISECONDS.toNanos(holdMs));
        }
        Map<Integer, Integer> told = new TreeMap<>();
        for (int i = 0; i < refused; i++) {
            told.merge(admission.shedRetryAfterSeconds(), 1, Integer::sum);
        }
        now.addAndGet(TimeUnit.SECONDS.toNanos(1));
        return told;
    }

    @Test
    void placesAreBoundedAndGivenBack() {
        for (int i = 0; i < 4; i++) {
            assertTrue(admission.tryEnter());
        }
        assertFalse(admission.tryEnter(), "a fifth start while four work is refused, not queued");
        admission.leave(1_000_000);
        assertTrue(admission.tryEnter());
    }

    @Test
    void refusedStartsAreBookedAtTheReplicasPace() {
        second(1000, 1000, 0); // 1,000 starts a second seen: 1,500 returns are booked per second
        Map<Integer, Integer> told = second(1000, 1000, 4000);
        assertEquals(Map.of(1, 1500, 2, 1500, 3, 1000), told);
    }

    @Test
    void aSurgesFirstSecondIsBookedAtThePlacesPace() {
        // Nothing completed in a whole second yet, but each start holds its place 2 ms: 4 places
        // make 2,000 a second, so 3,000 returns a second are booked, not the 6 of a quiet replica.
        assertTrue(admission.tryEnter());
        admission.leave(TimeUnit.MILLISECONDS.toNanos(2));
        Map<Integer, Integer> told = new TreeMap<>();
        for (int i = 0; i < 5000; i++) {
            told.merge(admission.shedRetryAfterSeconds(), 1, Integer::sum);
        }
        assertEquals(Map.of(1, 3000, 2, 2000), told);
    }

    @Test
    void beyondTheHorizonReturnsAreSpreadAndTheBookingsLapse() {
        Map<Integer, Integer> told = second(0, 0, 1000); // a quiet replica: 6 a second bookable for 29 s
        assertEquals(1000, told.values().stream().mapToInt(Integer::intValue).sum());
        assertTrue(told.keySet().stream().allMatch(after -> after >= 1 && after <= 30), told.toString());
        now.addAndGet(TimeUnit.SECONDS.toNanos(31));
        assertEquals(Map.of(1, 1), second(0, 0, 1));
    }
}
