package org.examsuite.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.examsuite.demo.candidate.Behaviour;
import org.examsuite.demo.candidate.CandidateOutcome;
import org.examsuite.demo.stats.Counters;
import org.junit.jupiter.api.Test;

/** A candidate who got in late in a slow start surge has a later deadline, and the driver waits for it. */
class AwaitCandidatesTest {

    @Test
    void aCandidateWithALaterDeadlineIsWaitedForPastTheExpectedEnd() throws Exception {
        long now = System.currentTimeMillis();
        CandidateOutcome late = new CandidateOutcome("c-late", Behaviour.NEVER_SUBMIT);
        late.deadlineMs = now + 400;
        ExecutorService pool = Executors.newSingleThreadExecutor();
        pool.execute(() -> sleep(300)); // still idling until its own deadline when the expected end has passed
        pool.shutdown();

        assertTrue(Demo.awaitCandidates(pool, List.of(late), now, 0, 0));
    }

    @Test
    void theHardStopStillComesWhenEveryDeadlineAndTheWaitArePast() throws Exception {
        long now = System.currentTimeMillis();
        CandidateOutcome stuck = new CandidateOutcome("c-stuck", Behaviour.SUBMIT);
        stuck.deadlineMs = now - 1_000;
        ExecutorService pool = Executors.newSingleThreadExecutor();
        pool.execute(() -> sleep(5_000));
        pool.shutdown();

        assertFalse(Demo.awaitCandidates(pool, List.of(stuck), now, 0, 200));
        pool.shutdownNow();
    }

    @Test
    void theStartSpreadCountsWhoGotInAndWhen() {
        long runStart = 1_000_000;
        CandidateOutcome first = new CandidateOutcome("c1", Behaviour.SUBMIT);
        first.startedAtMs = runStart + 2_000;
        CandidateOutcome second = new CandidateOutcome("c2", Behaviour.SUBMIT);
        second.startedAtMs = runStart + 9_000;
        CandidateOutcome never = new CandidateOutcome("c3", Behaviour.SUBMIT);
        Counters counters = new Counters();

        Demo.startSpread(List.of(first, second, never), runStart, counters);

        assertEquals(9_000, counters.get("start.max-ms"));
        assertEquals(9_000, counters.get("start.p50-ms"));
        assertEquals(1, counters.get("start.missing"));
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
