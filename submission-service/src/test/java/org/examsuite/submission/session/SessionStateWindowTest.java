package org.examsuite.submission.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import org.examsuite.common.redis.PublishedSession;
import org.examsuite.contracts.session.SessionWindow;
import org.junit.jupiter.api.Test;

/** The final sheet's window answers the shared examples (autosave.lua: answer-service's AutosaveWindowTest). */
class SessionStateWindowTest {

    @Test
    void aFinalSheetIsTakenAndLateExactlyAsTheExamplesSay() {
        for (SessionWindow.Example e : SessionWindow.EXAMPLES) {
            SessionWindow w = e.window();
            SessionState state = new SessionState("s", "e", "c", 1, w.deadlineMs(), w.graceMs(),
                    w.paused() ? PublishedSession.PAUSED : PublishedSession.IN_PROGRESS);
            assertEquals(e.taken(), state.acceptsSheetAt(Instant.ofEpochMilli(e.nowMs())), e.toString());
            assertEquals(e.late(), e.taken() && state.isLateAt(e.nowMs()), e.toString());
        }
    }
}
