package org.examsuite.answer.persistence;

import org.examsuite.common.redis.SharedRedisDataSource;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.examsuite.answer.support.Fixtures.change;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
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
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.examsuite.answer.draft.Draft;
import org.examsuite.answer.draft.DraftStore;
import org.examsuite.answer.draft.LoggedChanges;
import org.examsuite.answer.draft.StampedAnswer;
import org.examsuite.answer.support.Fixtures;
import org.examsuite.answer.support.Fixtures.TestSession;
import org.examsuite.answer.support.SessionServiceStub;
import org.examsuite.common.redis.RedisKeys;
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
    WriteBehindLog log;
    @Inject
    DraftStore store;
    @Inject
    DraftRepository repository;
    @Inject
    Pool pool;
    @Inject
    SharedRedisDataSource redis;

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
        // A flusher that takes entries and dies: they stay pending under its name until another
        // replica's flusher claims them after the lease.
        for (int shard = 0; shard < RedisKeys.SHARDS; shard++) {
            log.read(shard, "crashed-flusher", 3, false).await().indefinitely();
        }
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
                .body("entries.questionId", containsInAnyOrder("q4", "q6", "q1", "q3", "q6"))
                .body("entries[0].questionId", equalTo("q4")).body("entries[0].version", equalTo(3))
                .body("entries[0].value", equalTo("q4-3")).body("entries[0].generation", equalTo(1))
                .body("entries.findAll { it.questionId == 'q6' }.value", containsInAnyOrder("q6-2", null));
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
        Draft draft = new Draft(s.sessionId(), s.examId(), 1, 2, 0, 0,
                Map.of("q4", new StampedAnswer("q4", 1, 2, 1, value)));
        repository.persist(List.of(draft)).await().indefinitely();
        assertEquals(Map.of("q4", "1:2:" + value), storedStamps(s));
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/answers/" + s.sessionId() + "/history").then()
                .statusCode(200).body("entries[0].value", equalTo("Z\u00fcrich \u6771\u4eac \ud83d\ude00 \"quoted\""));
    }

    @Test
    void twoFlushersShareTheLogWithoutSharingAnEntryAndTogetherFlushItAll() {
        fixtures.pauseWriteBehind();
        List<TestSession> sessions = new ArrayList<>();
        for (int i = 0; i < 40; i++) { // over every shard (16), several sessions in most
            TestSession s = fixtures.session();
            s.patch(change(1, "q4", "\"v-" + i + "\"")).statusCode(200);
            sessions.add(s);
        }
        Set<String> mine = new HashSet<>();
        sessions.forEach(s -> mine.add(s.sessionId()));
        // Two replicas' flushers read side by side, one entry at a time, until nothing is left: no entry twice.
        Set<String> byA = new HashSet<>();
        Set<String> byB = new HashSet<>();
        Set<String> sessionsRead = new HashSet<>();
        for (int round = 0; round < 40; round++) {
            for (int shard = 0; shard < RedisKeys.SHARDS; shard++) {
                var a = log.read(shard, "replica-a", 1, false).subscribeAsCompletionStage();
                var b = log.read(shard, "replica-b", 1, false).subscribeAsCompletionStage();
                a.join().entries().forEach(e -> {
                    byA.add(e.id());
                    sessionsRead.add(e.sessionId());
                });
                b.join().entries().forEach(e -> {
                    byB.add(e.id());
                    sessionsRead.add(e.sessionId());
                });
            }
        }
        Set<String> both = new HashSet<>(byA);
        both.retainAll(byB);
        assertEquals(Set.of(), both, "entries delivered to both flushers");
        assertTrue(sessionsRead.containsAll(mine), "every session's entry was delivered to one of them");
        // Each flusher then finishes what was delivered to it, side by side: every answer reaches PostgreSQL.
        var a = writeBehind.flushOnce("replica-a").subscribeAsCompletionStage();
        var b = writeBehind.flushOnce("replica-b").subscribeAsCompletionStage();
        assertTrue(a.join() + b.join() >= mine.size());
        for (int i = 0; i < sessions.size(); i++) {
            assertEquals("1:1:\"v-" + i + "\"", storedStamps(sessions.get(i)).get("q4"));
        }
    }

    @Test
    void onlyWhatTheScriptAppliedIsLoggedAndARetryWhoseReplyWasLostIsLoggedAgain() {
        fixtures.pauseWriteBehind();
        TestSession s = fixtures.session();
        s.patch(change(5, "q4", "\"kept\"")).statusCode(200);
        assertEquals(List.of("q4:\"kept\""), logged(s));
        s.patch(change(4, "q4", "\"older\"")).statusCode(200).body("stale[0].heldVersion", equalTo(5));
        assertEquals(List.of("q4:\"kept\""), logged(s), "a stale change is not logged");
        // The entry lost as if the replica died between the script and the log: the client's retry
        // of the same stamp is stale against the draft, and logged again with the value held.
        deleteLogged(s);
        s.patch(change(5, "q4", "\"kept\"")).statusCode(200).body("applied", hasSize(0));
        assertEquals(List.of("q4:\"kept\""), logged(s));
        writeBehind.flushOnce().await().indefinitely();
        assertEquals(Map.of("q4", "1:5:\"kept\""), storedStamps(s));
        assertEquals(List.of(), logged(s), "done entries are deleted from the log");
    }

    @Test
    void consumersOfFlushersThatAreGoneAreForgottenUnlessTheyHoldEntries() {
        fixtures.pauseWriteBehind();
        TestSession s = fixtures.session();
        s.patch(change(1, "q4", "\"first\"")).statusCode(200);
        int shard = RedisKeys.writeBehindShard(s.sessionId());
        // "done-one" takes the shard's entries and finishes them (Redis names a consumer when it first gets entries)
        while (!log.read(shard, "done-one", 100, false).await().indefinitely().entries().isEmpty()) {
            writeBehind.flushOnce("done-one").await().indefinitely();
        }
        writeBehind.flushOnce("done-one").await().indefinitely();
        s.patch(change(2, "q4", "\"second\"")).statusCode(200);
        while (!log.read(shard, "holder", 100, false).await().indefinitely().entries().isEmpty()) {
            // "holder" takes the new entry and dies with it
        }
        List<String> gone = log.forgetGone(shard, 0).await().indefinitely();
        assertTrue(gone.contains("done-one"), gone.toString());
        assertFalse(gone.contains("holder"), "a consumer with pending entries stays until they are claimed");
        writeBehind.flushOnce("holder").await().indefinitely();
        assertEquals(Map.of("q4", "1:2:\"second\""), storedStamps(s));
    }

    @Test
    void aBatchWritesTheHighestStampOfEachQuestionAndOneRowPerSession() {
        List<Draft> drafts = WriteBehind.drafts(List.of(
                entry("1-0", "s-a", 1, 3, 1, 3, "q4", "\"three\""),
                entry("2-0", "s-b", 1, 1, 1, 1, "q4", "\"b\""),
                entry("3-0", "s-a", 1, 3, 1, 2, "q4", "\"two\""),
                entry("4-0", "s-a", 2, 4, 1, 4, "q6", "\"four\"")));
        assertEquals(2, drafts.size());
        Draft a = drafts.get(0);
        assertEquals("s-a", a.sessionId());
        assertEquals(2, a.generation());
        assertEquals(4, a.version());
        assertEquals("\"three\"", a.answers().get("q4").json());
        assertEquals("\"four\"", a.answers().get("q6").json());
        assertEquals("\"b\"", drafts.get(1).answers().get("q4").json());
    }

    private static LoggedChanges entry(String id, String sessionId, long generation, long draftVersion, long epoch, long version,
            String questionId, String json) {
        return new LoggedChanges(id, sessionId, "exam", generation, draftVersion, 0, epoch, version,
                List.of(new StampedAnswer(questionId, epoch, version, 0, json)));
    }

    /** The session's changes in its shard's log, as "question:value". */
    private List<String> logged(TestSession s) {
        List<String> out = new ArrayList<>();
        for (LoggedChanges e : logEntries(s)) {
            e.answers().forEach(a -> out.add(a.questionId() + ":" + a.json()));
        }
        return out;
    }

    private void deleteLogged(TestSession s) {
        String key = RedisKeys.writeBehindLog(RedisKeys.writeBehindShard(s.sessionId()));
        logEntries(s).forEach(e -> redis.execute("XDEL", key, e.id()));
    }

    private List<LoggedChanges> logEntries(TestSession s) {
        String key = RedisKeys.writeBehindLog(RedisKeys.writeBehindShard(s.sessionId()));
        List<LoggedChanges> out = new ArrayList<>();
        for (var entry : redis.execute("XRANGE", key, "-", "+")) {
            List<String> fields = new ArrayList<>();
            entry.get(1).forEach(f -> fields.add(f.toString()));
            LoggedChanges parsed = LoggedChanges.parse(entry.get(0).toString(), fields);
            if (parsed != null && s.sessionId().equals(parsed.sessionId())) {
                out.add(parsed);
            }
        }
        return out;
    }

    @Test
    void aReplayedOlderWriteNeverRegressesPostgres() {
        TestSession s = fixtures.session();
        s.patch(change(8, "q4", "\"new\"")).statusCode(200);
        await().atMost(Duration.ofSeconds(30)).until(() -> storedStamps(s).size() == 1);
        Draft old = new Draft(s.sessionId(), s.examId(), 1, 3, 0, 0,
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
