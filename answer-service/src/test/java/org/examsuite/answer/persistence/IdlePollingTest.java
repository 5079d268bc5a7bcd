package org.examsuite.answer.persistence;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** When an idle flush loop asks Redis for work: a replica's own marks at once, anything else once per idle interval. */
class IdlePollingTest {
    private final IdlePolling polling = new IdlePolling(1000);

    @Test
    void aLoopAsksAtEveryTickUntilAClaimFindsNothing() {
        assertTrue(polling.due(0, 0), "a new loop asks");
        polling.reading(0, 0);
        polling.found(true);
        assertTrue(polling.due(100, 0), "work found: ask again at the next tick");
        polling.reading(100, 0);
        polling.found(false);
        assertFalse(polling.due(200, 0), "nothing found and nothing marked since: wait");
        assertFalse(polling.due(1099, 0));
        assertTrue(polling.due(1100, 0), "the idle interval ran out: ask for what only Redis knows of");
    }

    @Test
    void aMarkAppliedAfterTheClaimWasSentIsAskedForAtTheNextTick() {
        polling.reading(0, 5);
        polling.found(false);
        assertFalse(polling.due(100, 5));
        // A mark that completed while the empty claim was in flight may have reached Redis after it.
        assertTrue(polling.due(100, 6), "this replica marked a draft dirty since the claim was sent");
        polling.reading(100, 6);
        polling.found(false);
        assertFalse(polling.due(200, 6));
    }

    @Test
    void aFailedRoundIsTriedAgainWhateverWasMarked() {
        polling.reading(0, 3);
        polling.found(true); // WriteBehind reports a failure as work
        assertTrue(polling.due(100, 3));
    }
}
