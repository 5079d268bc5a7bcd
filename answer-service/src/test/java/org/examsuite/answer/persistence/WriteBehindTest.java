package org.examsuite.answer.persistence;

import org.examsuite.common.redis.SharedRedisDataSource;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.examsuite.answer.support.Fixtures.change;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.examsuite.answer.draft.Draft;
import org.examsuite.answer.draft.DraftStore;
import org.examsuite.answer.draft.StampedAnswer;
import org.examsuite.answer.support.Fixtures;
import org.examsuite.answer.support.Fixtures.TestSession;
import org.examsuite.answer.support.SessionServiceStub;
import org.examsuite.testing.TestKeys;
import org.examsuite.testing.TestTokens;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Write-behind to PostgreSQL, restore from it, and the answer history. */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(SessionServiceStub.class)
class WriteBehindTest {
    @Inject
    Fixtures fixtures;
    @Inject
    WriteBehind writeBehind;
    @Inject
    WriteBehindQueue queue;
    @Inject
    DraftStore store;
    @Inject
    DraftRepository repository;
    @Inject
    Pool pool;
    @Inject
    SharedRedisDataSource redis;
    @Inject
    Clock clock;
    @ConfigProperty(name = "exam.answer.write-behind.lease")
    Duration lease;

    @AfterEach
    void cleanUp() {
        writeBehind.resume();
        fixtures.cleanUp();
    }

    @Test
    void everyAcknowledgedChangeReachesPostgresAcrossAStoppedAndACrashedFlusher() {
        fixtures.pauseWriteBehind();
        List<TestSession> sessions = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            sessions.add(fixtures.session());
        }
        int version = 0;
        for (TestSession s : sessions) {
            for (String q : List.of("q4", "q6", "q4")) {
                s.patch(change(++version, q, "\"" + q + "-" + version + "\"")).statusCode(200);
            }
        }
        writeBehind.flushOnce().await().indefinitely();          // a round mid-stream
        for (TestSession s : sessions) {
            s.patch(change(++version, "q1", "\"4\"")).statusCode(200);
            s.patch(change(++version, "q6", "null")).statusCode(200);
        }
        // A flusher that claims work and dies: its claims expire and are taken again.
        queue.claim(clock.millis() - 2 * lease.toMillis(), lease.toMillis(), 3).await().indefinitely();
        for (TestSession s : sessions) {
            s.patch(change(++version, "q3", "true")).statusCode(200);
        }
        writeBehind.resume();
        for (TestSession s : sessions) {
            Draft held = store.read(s.sessionId()).await().indefinitely();
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertEquals(stamps(held), storedStamps(s)));
        }
        TestSession first = sessions.get(0);
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/answers/" + first.sessionId() + "/history").then()
                .statusCode(200).body("sessionId", equalTo(first.sessionId()))
                .body("entries.questionId", contains("q4", "q6", "q1", "q3", "q6"))
                .body("entries[0].version", equalTo(3)).body("entries[0].value", equalTo("q4-3"))
                .body("entries[4].value", equalTo(null)).body("entries[0].generation", equalTo(1));
        given().get("/q/metrics").then().body(containsString("exam_answer_persist_lag_seconds_count"))
                .body(containsString("exam_answer_persist_lag_seconds_bucket"));
    }

    @Test
    void aDraftRedisLostComesBackFromPostgresWithItsVersionsAndANewGeneration() {
        TestSession s = fixtures.session();
        s.patch(change(5, "q4", "\"Paris\"")).statusCode(200).body("generation", equalTo(1));
        s.patch(change(9, "q5", "3.5")).statusCode(200);
        await().atMost(Duration.ofSeconds(30)).until(() -> storedStamps(s).size() == 2);
        fixtures.loseDraft(s);
        s.draft().statusCode(200).body("generation", equalTo(2)).body("version", equalTo(9))
                .body("answers.q4.value", equalTo("Paris")).body("answers.q4.version", equalTo(5))
                .body("answers.q5.value", equalTo(3.5f));
        s.patch(change(4, "q4", "\"Lyon\"")).statusCode(200).body("generation", equalTo(2))
                .body("stale[0].heldVersion", equalTo(5));
        fixtures.loseDraft(s);
        s.patch(change(10, "q4", "\"Nice\"")).statusCode(200).body("generation", equalTo(3)).body("applied", contains("q4"));
    }

    @Test
    void changesRedisLostBeforeTheFlushShowUpAsANewGeneration() {
        fixtures.pauseWriteBehind();
        TestSession s = fixtures.session();
        s.patch(change(1, "q4", "\"unflushed\"")).statusCode(200).body("generation", equalTo(1));
        fixtures.loseDraft(s);
        // the client sees generation 2 and re-sends what is newer than the server's draft
        s.draft().statusCode(200).body("generation", equalTo(2)).body("answers.size()", equalTo(0));
        s.patch(change(1, "q4", "\"unflushed\"")).statusCode(200).body("applied", contains("q4"));
    }

    @Test
    void valuesReachPostgresAsTheSameUnicodeText() {
        TestSession s = fixtures.session();
        String value = "\"Z\u00fcrich \u6771\u4eac \ud83d\ude00 \\\"quoted\\\"\"";
        Draft draft = new Draft(s.sessionId(), s.examId(), 1, 2, 0, 1, 0, 0,
                Map.of("q4", new StampedAnswer("q4", 1, 2, 1, value)));
        repository.persist(List.of(draft)).await().indefinitely();
        assertEquals(Map.of("q4", "1:2:" + value), storedStamps(s));
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/answers/" + s.sessionId() + "/history").then()
                .statusCode(200).body("entries[0].value", equalTo("Z\u00fcrich \u6771\u4eac \ud83d\ude00 \"quoted\""));
    }

    @Test
    void twoReplicasClaimEveryShardWithoutSharingADraftAndTogetherFlushThemAll() {
        fixtures.pauseWriteBehind();
        List<TestSession> sessions = new ArrayList<>();
        for (int i = 0; i < 40; i++) { // over every shard (16), several drafts in most
            TestSession s = fixtures.session();
            s.patch(change(1, "q4", "\"v-" + i + "\"")).statusCode(200);
            sessions.add(s);
        }
        Set<String> mine = new HashSet<>();
        sessions.forEach(s -> mine.add(s.sessionId()));
        // Two replicas claim side by side, small batches, until nothing is left: no draft twice.
        List<WriteBehindQueue.Claim> byA = new ArrayList<>();
        List<WriteBehindQueue.Claim> byB = new ArrayList<>();
        for (int round = 0; round < 40; round++) {
            var a = queue.claim(clock.millis(), lease.toMillis(), 1).subscribeAsCompletionStage();
            var b = queue.claim(clock.millis(), lease.toMillis(), 1).subscribeAsCompletionStage();
            byA.addAll(a.join().claims());
            byB.addAll(b.join().claims());
        }
        Set<String> claimedByA = new HashSet<>();
        byA.forEach(c -> claimedByA.add(c.sessionId()));
        Set<String> both = new HashSet<>();
        byB.forEach(c -> {
            if (claimedByA.contains(c.sessionId())) {
                both.add(c.sessionId());
            }
        });
        assertEquals(Set.of(), both, "drafts claimed by both replicas");
        Set<String> claimed = new HashSet<>(claimedByA);
        byB.forEach(c -> claimed.add(c.sessionId()));
        assertTrue(claimed.containsAll(mine), "every dirty draft was claimed by one of them");
        // Given back, then flushed by two replicas' rounds at once: every answer reaches PostgreSQL.
        queue.release(byA).await().indefinitely();
        queue.release(byB).await().indefinitely();
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            var a = writeBehind.flushOnce().subscribeAsCompletionStage();
            var b = writeBehind.flushOnce().subscribeAsCompletionStage();
            a.join();
            b.join();
            return sessions.stream().allMatch(s -> storedStamps(s).size() == 1);
        });
        for (int i = 0; i < sessions.size(); i++) {
            assertEquals("1:1:\"v-" + i + "\"", storedStamps(sessions.get(i)).get("q4"));
        }
    }

    @Test
    void aReplayedOlderWriteNeverRegressesPostgres() {
        TestSession s = fixtures.session();
        s.patch(change(8, "q4", "\"new\"")).statusCode(200);
        await().atMost(Duration.ofSeconds(30)).until(() -> storedStamps(s).size() == 1);
        Draft old = new Draft(s.sessionId(), s.examId(), 1, 3, 0, 1, 0, 0,
                Map.of("q4", new StampedAnswer("q4", 1, 3, 1, "\"old\"")));
        repository.persist(List.of(old)).await().indefinitely();
        repository.persist(List.of(old)).await().indefinitely(); // and replayed: the same stamp adds nothing
        assertEquals(Map.of("q4", "1:8:\"new\""), storedStamps(s));
        // The older value reached PostgreSQL late: it is in the history, with its stamp, and
        // never the answer — neither here nor in a draft restored from PostgreSQL.
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/answers/" + s.sessionId() + "/history").then()
                .statusCode(200).body("entries", hasSize(2)).body("entries[1].version", equalTo(3));
        fixtures.loseDraft(s);
        s.draft().statusCode(200).body("answers.q4.value", equalTo("new")).body("answers.q4.version", equalTo(8));
        assertFalse(fixtures.draftInRedis(new TestSession("s-none", "e", "c")));
    }

    @Test
    void aFlushOfTheOldGenerationDoesNotCoverChangesOfTheRebuiltDraft() {
        fixtures.pauseWriteBehind();
        TestSession s = fixtures.session();
        s.patch(change(1, "q4", "\"before\"")).statusCode(200);
        Draft flushedBeforeTheLoss = store.readUnpersisted(s.sessionId()).await().indefinitely();
        fixtures.loseDraft(s);
        s.patch(change(2, "q6", "\"after\"")).statusCode(200).body("generation", equalTo(2));
        store.markPersisted(flushedBeforeTheLoss).await().indefinitely();
        Draft pending = store.readUnpersisted(s.sessionId()).await().indefinitely();
        assertEquals(Set.of("q6"), pending.answers().keySet());
    }

    @Test
    void aBatchReadsAndMarksEverySessionInOnePipelineAndSkipsALostDraft() {
        fixtures.pauseWriteBehind();
        TestSession a = fixtures.session();
        TestSession lost = fixtures.session();
        TestSession b = fixtures.session();
        a.patch(change(1, "q4", "\"a\"")).statusCode(200);
        lost.patch(change(1, "q4", "\"lost\"")).statusCode(200);
        b.patch(change(2, "q6", "\"b\"")).statusCode(200);
        fixtures.loseDraft(lost);
        List<Draft> read = store.readUnpersisted(List.of(a.sessionId(), lost.sessionId(), b.sessionId()))
                .await().indefinitely();
        assertEquals(3, read.size());
        assertEquals(Set.of("q4"), read.get(0).answers().keySet());
        assertNull(read.get(1));
        assertEquals(Set.of("q6"), read.get(2).answers().keySet());
        store.markPersisted(List.of(read.get(0), read.get(2))).await().indefinitely();
        List<Draft> after = store.readUnpersisted(List.of(a.sessionId(), b.sessionId())).await().indefinitely();
        assertEquals(Set.of(), after.get(0).answers().keySet());
        assertEquals(Set.of(), after.get(1).answers().keySet());
        assertFalse(fixtures.draftInRedis(lost)); // marking never recreates a lost draft
    }

    @Test
    void onlyPendingAnswersAreReadAndADraftFromBeforeThePendingHashIsReadWhole() {
        fixtures.pauseWriteBehind();
        TestSession s = fixtures.session();
        s.patch(change(1, "q4", "\"a\"")).statusCode(200);
        s.patch(change(2, "q6", "\"b\"")).statusCode(200);
        Draft first = store.readUnpersisted(s.sessionId()).await().indefinitely();
        assertEquals(Set.of("q4", "q6"), first.answers().keySet());
        store.markPersisted(first).await().indefinitely();
        s.patch(change(3, "q6", "\"c\"")).statusCode(200);
        assertEquals(Set.of("q6"), store.readUnpersisted(s.sessionId()).await().indefinitely().answers().keySet());
        // As an older release left a draft: answers written, no pending hash and no 'pset'.
        redis.key().del("ans:{" + s.sessionId() + "}:pending");
        redis.hash(String.class).hdel("ans:{" + s.sessionId() + "}:draft", "pset");
        s.patch(change(4, "q1", "\"4\"")).statusCode(200);
        Draft whole = store.readUnpersisted(s.sessionId()).await().indefinitely();
        assertEquals(Set.of("q6", "q1"), whole.answers().keySet());
        store.markPersisted(whole).await().indefinitely();
        assertEquals(Set.of(), store.readUnpersisted(s.sessionId()).await().indefinitely().answers().keySet());
    }

    @Test
    void historyIsForOperatorsOnly() {
        TestSession s = fixtures.session();
        given().auth().oauth2(s.token()).get("/api/v1/answers/" + s.sessionId() + "/history").then().statusCode(403)
                .contentType("application/problem+json");
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/answers/" + s.sessionId() + "/history?limit=0").then()
                .statusCode(400).body("code", equalTo("INVALID_FIELD"));
    }

    private static Map<String, String> stamps(Draft draft) {
        Map<String, String> out = new HashMap<>();
        draft.answers().values().forEach(a -> out.put(a.questionId(), a.epoch() + ":" + a.version() + ":" + a.json()));
        return out;
    }

    private Map<String, String> storedStamps(TestSession s) {
        Map<String, String> out = new HashMap<>();
        // The newest stamp of each question in the history is the answer PostgreSQL holds.
        for (Row row : pool.preparedQuery("""
                SELECT DISTINCT ON (question_id) question_id, epoch, version, value FROM exam_answer.answer_history
                WHERE session_id = $1 ORDER BY question_id, epoch DESC, version DESC""")
                .execute(Tuple.of(s.sessionId())).await().indefinitely()) {
            out.put(row.getString("question_id"), row.getLong("epoch") + ":" + row.getLong("version") + ":" + row.getString("value"));
        }
        return out;
    }
}
