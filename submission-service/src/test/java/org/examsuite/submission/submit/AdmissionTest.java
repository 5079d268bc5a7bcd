package org.examsuite.submission.submit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The shed requests' Retry-After books them return seconds at the replica's pace: a plain unit test on a hand-driven clock. */
class AdmissionTest {
    private final AtomicLong now = new AtomicLong(TimeUnit.SECONDS.toNanos(1_000));
    private final Admission admission = new Admission(32, 0, Duration.ZERO, Duration.ofSeconds(60), now::get);

    /**
     * One second of traffic: this many submissions complete, then this many requests are shed; the
     * Retry-Afters told, counted. Each submission held its place a whole second, so the places'
     * own pace (32 places / 1 s) is no more than the bulkhead's size and the seconds decide.
     */
    private Map<Integer, Integer> second(int completed, int shed) {
        for (int i = 0; i < completed; i++) {
            assertTrue(admission.tryEnter());
            admission.leave(TimeUnit.SECONDS.toNanos(1));
        }
        Map<Integer, Integer> told = new TreeMap<>();
        for (int i = 0; i < shed; i++) {
            told.merge(admission.shedRetryAfterSeconds(), 1, Integer::sum);
        }
        now.addAndGet(TimeUnit.SECONDS.toNanos(1));
        return told;
    }

    @Test
    void aLightOverloadIsToldToComeBackInASecond() {
        second(100, 0);
        for (int s = 0; s < 20; s++) {
            assertEquals(Map.of(1, 20), second(100, 20), "second " + s);
        }
    }

    @Test
    void aRushIsBookedAtTheReplicasPaceAndFreedSecondsAreBookedAgain() {
        second(70, 0); // the replica has shown it completes 70 submissions a second: 105 returns are booked per second
        // 900 shed in one second: 105 per coming second, the 9th takes the rest.
        Map<Integer, Integer> told = second(70, 900);
        for (int after = 1; after <= 8; after++) {
            assertEquals(105, told.get(after), "returns booked " + after + " s ahead");
        }
        assertEquals(900 - 8 * 105, told.get(9));
        // The next second, the first free places are 8 s ahead (second 9 of the rush had 60 booked).
        told = second(70, 100);
        assertEquals(Map.of(8, 45, 9, 55), told);
    }

    @Test
    void aRushBeyondEveryBookableSecondIsSpreadOverThemAndTheBookingsLapse() {
        second(70, 0);
        Map<Integer, Integer> told = second(70, 10_000);
        assertEquals(10_000, told.values().stream().mapToInt(Integer::intValue).sum());
        for (int after = 1; after <= 59; after++) {
            assertTrue(told.get(after) >= 105, after + " s ahead: " + told.get(after));
        }
        // The 3,805 beyond every second's share are spread at random, not all told the longest wait.
        assertTrue(told.getOrDefault(60, 0) < 500, "60 s ahead: " + told.get(60));
        // Once those seconds have passed, a shed request comes back after a second again.
        now.addAndGet(TimeUnit.SECONDS.toNanos(61));
        assertEquals(Map.of(1, 1), second(0, 1));
    }

    @Test
    void withNothingCompletedYetThePaceIsTheBulkheadsSize() {
        Map<Integer, Integer> told = second(0, 100);
        assertEquals(Map.of(1, 48, 2, 48, 3, 4), told);
    }

    @Test
    void theFirstSecondOfARushIsBookedAtThePaceOfThePlacesNotOfAQuietReplica() {
        // No second has ended yet, but ten submissions held their places 100 ms each: 32 places
        // make about 320 a second, so 480 returns are booked per second, not the bulkhead's 48.
        for (int i = 0; i < 10; i++) {
            assertTrue(admission.tryEnter());
            admission.leave(TimeUnit.MILLISECONDS.toNanos(100));
        }
        Map<Integer, Integer> told = new TreeMap<>();
        for (int i = 0; i < 1_000; i++) {
            told.merge(admission.shedRetryAfterSeconds(), 1, Integer::sum);
        }
        assertEquals(Map.of(1, 480, 2, 480, 3, 40), told);
        // The mean follows the rush: when submissions slow down to 400 ms, the pace is 80 a second.
        for (int i = 0; i < 60; i++) {
            assertTrue(admission.tryEnter());
            admission.leave(TimeUnit.MILLISECONDS.toNanos(400));
        }
        now.addAndGet(TimeUnit.SECONDS.toNanos(3));
        told = new TreeMap<>();
        for (int i = 0; i < 200; i++) {
            told.merge(admission.shedRetryAfterSeconds(), 1, Integer::sum);
        }
        assertEquals(Map.of(1, 120, 2, 80), told);
    }

    @Test
    void aClockThatStartsBelowZeroBooksTheSame() {
        // System.nanoTime's origin is arbitrary: the ring of booked seconds must take negative seconds.
        now.set(-TimeUnit.SECONDS.toNanos(30));
        Admission early = new Admission(32, 0, Duration.ZERO, Duration.ofSeconds(60), now::get);
        Map<Integer, Integer> told = new TreeMap<>();
        for (int s = 0; s < 40; s++) {
            for (int i = 0; i < 100; i++) {
                told.merge(early.shedRetryAfterSeconds(), 1, Integer::sum);
            }
            now.addAndGet(TimeUnit.SECONDS.toNanos(1));
        }
        assertEquals(4_000, told.values().stream().mapToInt(Integer::intValue).sum());
        assertTrue(told.keySet().stream().allMatch(after -> after >= 1 && after <= 60), told.toString());
    }
}
