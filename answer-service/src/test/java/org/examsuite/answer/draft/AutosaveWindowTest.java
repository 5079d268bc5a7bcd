package org.examsuite.answer.draft;

import static org.examsuite.answer.support.Fixtures.change;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.examsuite.answer.support.Fixtures;
import org.examsuite.answer.support.Fixtures.TestSession;
import org.examsuite.answer.support.SessionServiceStub;
import org.examsuite.common.redis.PublishedSession;
import org.examsuite.common.redis.RedisKeys;
import org.examsuite.common.redis.SharedRedisDataSource;
import org.examsuite.contracts.session.SessionWindow;
import org.examsuite.testing.TestKeys;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * autosave.lua decides the session's window itself (it cannot call Java): it answers suite-contracts'
 * {@link SessionWindow#EXAMPLES} as the final sheet does (submission-service's SessionStateWindowTest) —
 * taken or CLOSED, and counted late or not.
 */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(SessionServiceStub.class)
class AutosaveWindowTest {
    @Inject
    Fixtures fixtures;
    @Inject
    DraftStore store;
    @Inject
    SharedRedisDataSource redis;

    @AfterEach
    void cleanUp() {
        fixtures.cleanUp();
    }

    private long late(TestSession s) {
        String late = redis.hash(String.class).hget(RedisKeys.draft(s.sessionId()), "late");
        return late == null ? 0 : Long.parseLong(late);
    }

    @Test
    void theScriptTakesAndCountsLateExactlyAsTheExamplesSay() {
        for (SessionWindow.Example e : SessionWindow.EXAMPLES) {
            SessionWindow w = e.window();
            TestSession s = fixtures.session();
            s.patch(change(1, "q4", "\"first\"")).statusCode(200); // the draft exists (now is well before the deadline)
            fixtures.publishState(s, 1, w.deadlineMs(), w.graceMs(),
                    w.paused() ? PublishedSession.PAUSED : PublishedSession.IN_PROGRESS);
            long lateBefore = late(s);
            AutosaveOutcome outcome = store.autosave(s.sessionId(), e.nowMs(), 1, 5,
                    List.of(new DraftStore.Change("q4", "\"x\"".getBytes(StandardCharsets.UTF_8)))).await().indefinitely();
            assertEquals(e.taken() ? AutosaveOutcome.Status.OK : AutosaveOutcome.Status.CLOSED, outcome.status(), e.toString());
            assertEquals(e.late() ? 1 : 0, late(s) - lateBefore, "late: " + e);
        }
    }
}
