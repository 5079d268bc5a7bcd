package org.examsuite.submission.outbox;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.examsuite.submission.support.Stubs;
import org.examsuite.submission.support.SubmissionTestBase;
import org.examsuite.testing.TestKeys;
import org.junit.jupiter.api.Test;

/** The running relay: a stored paper asks for a run after exam.outbox.kick-delay, and the papers stored meanwhile share it. */
@QuarkusTest
@TestProfile(RelayKickTest.RelayRunning.class)
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(Stubs.class)
class RelayKickTest extends SubmissionTestBase {

    public static class RelayRunning implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            // No periodic run within the test: only the papers' kicks start runs.
            return Map.of("exam.outbox.relay.enabled", "true", "exam.outbox.poll-interval", "PT1H",
                    "exam.outbox.kick-delay", "PT3S");
        }
    }

    @Test
    void papersStoredWithinTheKickDelayArePublishedInOneRun() {
        int notifications = Stubs.SUBMITTED_BATCHES.get();
        List<String> sessionIds = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Session s = session();
            submit(s, "k-" + i, sheet(s.id(), "q1", "\"4\"", 1)).statusCode(201);
            sessionIds.add(s.id());
        }
        String[] ids = sessionIds.toArray(String[]::new);
        await().atMost(Duration.ofSeconds(30)).until(() -> sentAt(ids, "PAPER_PUBLISH").size() == ids.length
                && sentAt(ids, "SESSION_SUBMITTED").size() == ids.length);
        // One run sent every row (a run marks the rows of a kind with one time): four papers, one
        // run — not a run (three PostgreSQL statements) per paper.
        assertEquals(1, sentAt(ids, "PAPER_PUBLISH").stream().distinct().count(), "runs: " + sentAt(ids, "PAPER_PUBLISH"));
        assertEquals(1, sentAt(ids, "SESSION_SUBMITTED").stream().distinct().count());
        assertEquals(ids.length, Stubs.SUBMITTED_CALLS.keySet().stream().filter(sessionIds::contains).count());
        assertEquals(notifications + 1, Stubs.SUBMITTED_BATCHES.get(), "session-service was told of the four papers in one call");
    }

    /** last_sent_at of the sessions' outbox rows of this kind that have been sent. */
    private List<Object> sentAt(String[] sessionIds, String kind) {
        List<Object> sent = new ArrayList<>();
        for (Row row : pool.preparedQuery("SELECT last_sent_at FROM outbox WHERE session_id = ANY($1) AND kind = $2 "
                + "AND last_sent_at IS NOT NULL").execute(Tuple.of(sessionIds, kind)).await().indefinitely()) {
            sent.add(row.getOffsetDateTime("last_sent_at"));
        }
        return sent;
    }
}
