package org.examsuite.answer.outage;

import static org.examsuite.answer.support.Fixtures.change;
import static org.examsuite.testing.Outages.unavailable;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.util.HashMap;
import java.util.Map;
import org.examsuite.answer.draft.DraftStore;
import org.examsuite.answer.redis.RedisScripts;
import org.examsuite.answer.support.Fixtures;
import org.examsuite.answer.support.Fixtures.TestSession;
import org.examsuite.answer.support.SessionServiceStub;
import org.examsuite.testing.CuttableProxy;
import org.examsuite.testing.PostgresBehindRelay;
import org.examsuite.testing.TestKeys;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfEnvironmentVariable;

/**
 * A Redis master with no replica to confirm its writes (its replica killed, or promoted by a
 * failover and the old master not back): autosaves are not refused — each is committed to
 * PostgreSQL before its 200, so it is as durable as a confirmed one — and only the first write of
 * a slot waits for WAIT's timeout. With PostgreSQL gone too, the answer is 503 with Retry-After,
 * and the retry stores the change. The tests' single Redis has no replica, which is exactly that
 * master. (The same on a real Redis Cluster with a node killed: RedisFailoverTest.)
 */
@QuarkusTest
@TestProfile(WriteThroughTest.NoReplicaToConfirm.class)
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(SessionServiceStub.class)
@DisabledIfEnvironmentVariable(named = "EXAM_TEST_REDIS_CLIENT_TYPE", matches = "cluster")
class WriteThroughTest {
    static final CuttableProxy POSTGRES = PostgresBehindRelay.POSTGRES;

    /** One replica must confirm, none can; no probe during a test. */
    public static class NoReplicaToConfirm extends PostgresBehindRelay {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> overrides = new HashMap<>(super.getConfigOverrides());
            overrides.put("exam.redis.wait-replicas", "1");
            overrides.put("exam.redis.wait-timeout", "PT0.2S");
            overrides.put("exam.redis.wait-probe-interval", "PT1H");
            return overrides;
        }
    }

    @Inject
    Fixtures fixtures;
    @Inject
    RedisScripts scripts;
    @Inject
    DraftStore store;

    @AfterEach
    void cleanUp() {
        POSTGRES.restore();
        fixtures.cleanUp();
    }

    @Test
    void aMasterWithoutAReplicaKeepsSavingEachChangeIntoPostgresBeforeItsAcknowledgement() {
        fixtures.pauseWriteBehind(); // what reaches PostgreSQL here, the request itself put there
        TestSession s = fixtures.session();
        long unconfirmedBefore = scripts.unconfirmed();
        long throughBefore = store.writtenThrough();
        for (int version = 1; version <= 6; version++) {
            String question = version % 2 == 0 ? "q6" : "q4";
            s.patch(change(version, question, "\"v" + version + "\"")).statusCode(200)
                    .body("applied[0]", equalTo(question));
            assertEquals(version, fixtures.storedVersion(s, question), "in PostgreSQL before the 200");
        }
        s.patch(change(3, "q4", "\"older\"")).statusCode(200).body("stale[0].heldVersion", equalTo(5));
        assertEquals(5, fixtures.storedVersion(s, "q4"), "a stale change reaches nothing");
        assertEquals(6, store.writtenThrough() - throughBefore);
        assertTrue(scripts.unconfirmed() - unconfirmedBefore <= 1,
                "only the slot's first write waited for the replicas: " + (scripts.unconfirmed() - unconfirmedBefore));
        s.draft().statusCode(200).body("answers.q4.value", equalTo("v5")).body("answers.q6.value", equalTo("v6"));
    }

    @Test
    void withNeitherAReplicaNorPostgresAnAutosaveIs503AndItsRetryIsStored() {
        fixtures.pauseWriteBehind();
        TestSession s = fixtures.session();
        s.patch(change(1, "q4", "\"Paris\"")).statusCode(200);
        POSTGRES.cut();
        unavailable(s.patch(change(2, "q4", "\"Lyon\"")));
        POSTGRES.restore();
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
                .pollInterval(java.time.Duration.ofMillis(300))
                .until(() -> s.patch(change(2, "q4", "\"Lyon\"")).extract().statusCode() == 200);
        assertEquals(2, fixtures.storedVersion(s, "q4"));
        s.draft().statusCode(200).body("answers.q4.value", equalTo("Lyon"));
    }
}
