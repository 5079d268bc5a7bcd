package org.examsuite.grading.archive;

import org.examsuite.common.redis.SharedRedisDataSource;
import static io.restassured.RestAssured.given;
import static org.examsuite.grading.Fixture.awaitStatus;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.Signature;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.examsuite.common.auth.KeySet;
import org.examsuite.common.auth.Pem;
import org.examsuite.grading.Fixture;
import org.examsuite.grading.Fixture.Submitted;
import org.examsuite.grading.StubServices;
import org.examsuite.grading.archive.ArchiveStore.ArchiveRecord;
import org.examsuite.testing.TestKeys;
import org.examsuite.testing.TestTokens;
import org.junit.jupiter.api.Test;

/** The archive: append-only, one unbroken chain under concurrent appenders, tampering found, regrades superseding. */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(StubServices.class)
class ArchiveTest {
    @Inject
    ArchiveStore archive;
    @Inject
    AgroalDataSource dataSource;
    @Inject
    SharedRedisDataSource redis;

    @Test
    void twoReplicasAppendingAtOnceMakeOneUnbrokenChain() throws Exception {
        int perAppender = 25;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService appenders = Executors.newFixedThreadPool(2);
        List<Future<List<Long>>> futures = new ArrayList<>();
        String prefix = "concurrent-" + UUID.randomUUID();
        for (int a = 0; a < 2; a++) {
            int appender = a;
            futures.add(appenders.submit(() -> {
                start.await();
                List<Long> seqs = new ArrayList<>();
                for (int i = 0; i < perAppender; i++) {
                    seqs.add(archive.append(prefix + "-" + appender + "-" + i, "RESULT", 1,
                            Fixture.MAPPER.createObjectNode().put("appender", appender).put("i", i)).seq());
                }
                return seqs;
            }));
        }
        start.countDown();
        Set<Long> seqs = new HashSet<>();
        for (Future<List<Long>> future : futures) {
            seqs.addAll(future.get(60, TimeUnit.SECONDS));
        }
        appenders.shutdown();
        assertEquals(2 * perAppender, seqs.size(), "every append got its own sequence number");

        JsonPath verify = given().auth().oauth2(TestTokens.operator()).get("/api/v1/archive/verify").then().statusCode(200)
                .extract().jsonPath();
        assertTrue(verify.getBoolean("valid"), verify.prettify());
        assertTrue(verify.getLong("records") >= 2 * perAppender);
        // appending the same record again is idempotent; a different one for the same (paper, kind, run) is refused
        ArchiveRecord again = archive.append(prefix + "-0-0", "RESULT", 1,
                Fixture.MAPPER.createObjectNode().put("appender", 0).put("i", 0));
        assertTrue(seqs.contains(again.seq()));
        try {
            archive.append(prefix + "-0-0", "RESULT", 1, Fixture.MAPPER.createObjectNode().put("appender", 9));
            throw new AssertionError("a conflicting record was appended");
        } catch (ArchiveStore.Conflict expected) {
            // the archive keeps what it has
        }
    }

    @Test
    void aBatchAppendsInOrderUnderOneLockAndKeepsEachRecordsOutcome() throws Exception {
        String prefix = "batch-" + UUID.randomUUID();
        ArchiveRecord before = archive.append(prefix + "-old", "RESULT", 1, Fixture.MAPPER.createObjectNode().put("score", 1));
        List<ArchiveStore.Append> appends = List.of(
                new ArchiveStore.Append(prefix + "-a", "RESULT", 1, s -> Fixture.MAPPER.createObjectNode().put("score", 2), false),
                // the same record as before: returned, not appended again
                new ArchiveStore.Append(prefix + "-old", "RESULT", 1, s -> Fixture.MAPPER.createObjectNode().put("score", 1), false),
                // another payload for a (paper, kind, run) already there: a conflict for this item only
                new ArchiveStore.Append(prefix + "-old", "RESULT", 1, s -> Fixture.MAPPER.createObjectNode().put("score", 9), false),
                // a later run of the same paper names the record it supersedes
                new ArchiveStore.Append(prefix + "-old", "RESULT", 2, s -> Fixture.MAPPER.createObjectNode().put("score", 3)
                        .put("supersedes", s.map(ArchiveRecord::seq).orElse(-1L)), true),
                new ArchiveStore.Append(prefix + "-b", "RESULT", 1, s -> Fixture.MAPPER.createObjectNode().put("score", 4), false));
        List<ArchiveStore.Appended> out;
        try (Connection c = dataSource.getConnection()) {
            try (var rs = c.createStatement().executeQuery("SHOW synchronous_commit")) {
                rs.next();
                assertEquals("off", rs.getString(1), "pool connections start with asynchronous commit (db/Db)");
            }
            c.setAutoCommit(false);
            out = archive.appendAll(c, appends);
            c.commit();
        }
        assertEquals(5, out.size());
        long first = out.get(0).record().seq();
        assertEquals(before.seq(), out.get(1).record().seq(), "the record already there comes back");
        assertTrue(out.get(2).conflict() != null && out.get(2).record() == null, "the conflicting item fails alone");
        assertEquals(first + 1, out.get(3).record().seq(), "appended in order, no gap");
        assertEquals(out.get(0).record().hash(), out.get(3).record().prevHash(), "each names the hash before it");
        assertTrue(out.get(3).record().payload().contains("\"supersedes\":" + before.seq()), out.get(3).record().payload());
        assertEquals(first + 2, out.get(4).record().seq());
        assertEquals(archive.head().seq() >= first + 2, true);
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/archive/verify").then().statusCode(200)
                .body("valid", equalTo(true));
    }

    @Test
    void aRowChangedInSqlIsNamedByVerify() throws Exception {
        ArchiveRecord record = archive.append("tamper-" + UUID.randomUUID(), "RESULT", 1,
                Fixture.MAPPER.createObjectNode().put("score", 2));
        archive.append("tamper-next-" + UUID.randomUUID(), "RESULT", 1, Fixture.MAPPER.createObjectNode().put("score", 1));
        try {
            sql("UPDATE exam_grading.archive_record SET payload = ? WHERE seq = ?", "{\"score\":10}", record.seq());
            given().auth().oauth2(TestTokens.operator()).get("/api/v1/archive/verify").then().statusCode(200)
                    .body("valid", equalTo(false))
                    .body("firstBroken.seq", equalTo((int) record.seq()))
                    .body("firstBroken.paperId", equalTo(record.paperId()))
                    .body("firstBroken.reason", equalTo("HASH_MISMATCH"));
        } finally {
            sql("UPDATE exam_grading.archive_record SET payload = ? WHERE seq = ?", record.payload(), record.seq());
        }
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/archive/verify").then().statusCode(200)
                .body("valid", equalTo(true));
    }

    @Test
    void theHeadIsSignedWithTheArchiveKey() throws Exception {
        archive.append("head-" + UUID.randomUUID(), "RESULT", 1, Fixture.MAPPER.createObjectNode());
        JsonPath head = given().auth().oauth2(TestTokens.operator()).get("/api/v1/archive/head").then().statusCode(200)
                .extract().jsonPath();
        assertEquals(head.getLong("seq") + ":" + head.getString("hash"), head.getString("signedText"));
        Signature rsa = Signature.getInstance("SHA256withRSA");
        rsa.initVerify(TestKeys.ARCHIVE.getPublic());
        rsa.update(head.getString("signedText").getBytes(StandardCharsets.UTF_8));
        assertTrue(rsa.verify(Base64.getDecoder().decode(head.getString("signature"))));
        // the head names its key, and the published key set holds it: a verifier picks the key by id
        assertEquals(KeySet.keyId(TestKeys.ARCHIVE.getPublic()), head.getString("keyId"));
        JsonPath keys = given().auth().oauth2(TestTokens.operator()).get("/api/v1/archive/keys").then().statusCode(200)
                .extract().jsonPath();
        assertEquals(List.of(head.getString("keyId")), keys.getList("keys.keyId"));
        assertEquals(TestKeys.ARCHIVE.getPublic(), Pem.publicKey(keys.getString("keys[0].publicKey")));
        given().auth().oauth2(TestTokens.candidate("s", "e", "c", 1)).get("/api/v1/archive/keys").then().statusCode(403);
        given().auth().oauth2(TestTokens.candidate("s", "e", "c", 1)).get("/api/v1/archive/head").then().statusCode(403);
        given().get("/api/v1/archive/verify").then().statusCode(401);
    }

    @Test
    void aRegradeAppendsASupersedingRecordAndLeavesTheOldOneIntact() throws Exception {
        String wrongKey = """
                [{"id":"q1","type":"SINGLE","prompt":"2+2?","options":["3","4"],"points":2,"key":"3"},
                 {"id":"q2","type":"ESSAY","prompt":"Why?","points":5}]
                """;
        String examId = Fixture.exam(wrongKey, 1);
        Submitted paper = Fixture.submit(redis, examId, Map.of("q1", "4", "q2", "Because."));
        Fixture.awaitSaga(paper.paperId(), "WAITING");
        given().auth().oauth2(TestTokens.operator()).contentType("application/json").body("{\"marks\":{\"q2\":4}}")
                .post("/api/v1/results/" + paper.paperId() + "/marks").then().statusCode(202);
        assertEquals(4.0, awaitStatus(paper.paperId(), "GRADED").getDouble("score"), 1e-9);
        ArchiveRecord original = archive.forPaper(paper.paperId()).get(0);

        Fixture.putExam(examId, wrongKey.replace("\"key\":\"3\"", "\"key\":\"4\""), 2);
        given().auth().oauth2(TestTokens.candidate(paper.sessionId(), examId, "c", 1))
                .post("/api/v1/results/exams/" + examId + "/regrade").then().statusCode(403);
        given().auth().oauth2(TestTokens.operator()).post("/api/v1/results/exams/" + examId + "/regrade").then()
                .statusCode(202).body("regrading", equalTo(1)).body("keyRevision", equalTo(2));
        // asked again for the same key revision: nothing new starts
        given().auth().oauth2(TestTokens.operator()).post("/api/v1/results/exams/" + examId + "/regrade").then()
                .statusCode(202).body("regrading", equalTo(0));

        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
                .until(() -> Fixture.result(paper.paperId()).getInt("run") == 2
                        && "GRADED".equals(Fixture.result(paper.paperId()).getString("status")));
        JsonPath regraded = Fixture.result(paper.paperId());
        assertEquals(6.0, regraded.getDouble("score"), 1e-9, "new key, and the essay mark carried over");
        assertEquals(2, regraded.getLong("keyRevision"));

        List<ArchiveRecord> records = archive.forPaper(paper.paperId());
        assertEquals(2, records.size());
        assertEquals(original, records.get(0), "the old record is untouched");
        JsonNode superseding = Fixture.MAPPER.readTree(records.get(1).payload());
        assertEquals(original.seq(), superseding.path("supersedes").asLong());
        assertEquals(2, superseding.path("run").asInt());
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/archive/verify").then().statusCode(200)
                .body("valid", equalTo(true));
    }

    @Test
    void aRegradeWhileAWorkerHoldsTheOldRunSupersedesItWhenItComesToBeArchived() throws Exception {
        String wrongKey = """
                [{"id":"q1","type":"SINGLE","prompt":"2+2?","options":["3","4"],"points":2,"key":"3"}]
                """;
        String examId = Fixture.exam(wrongKey, 1);
        Submitted paper = Fixture.paper(examId, Map.of("q1", "4"));
        CountDownLatch release = new CountDownLatch(1);
        StubServices.PAPER_HOLDS.put(paper.paperId(), release);
        Fixture.publish(redis, paper);
        // run 1 is in its grade step, held by a worker (its paper fetch is waiting): not parked
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(20))
                .until(() -> StubServices.PAPERS_HELD.contains(paper.paperId()));
        String oldSaga = Fixture.result(paper.paperId()).getString("sagaId");

        Fixture.putExam(examId, wrongKey.replace("\"key\":\"3\"", "\"key\":\"4\""), 2);
        given().auth().oauth2(TestTokens.operator()).post("/api/v1/results/exams/" + examId + "/regrade").then()
                .statusCode(202).body("regrading", equalTo(1));
        assertEquals("RUNNING", Fixture.saga(oldSaga).getString("status"), "a run a worker holds is left to its worker");
        release.countDown();

        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
                .until(() -> "SUPERSEDED".equals(Fixture.saga(oldSaga).getString("status")));
        JsonPath old = Fixture.saga(oldSaga);
        assertEquals(List.of("DONE", "DONE", "CANCELLED"), old.getList("steps.status"));
        assertTrue(old.getString("history.find { it.event == 'SUPERSEDED' }.detail").contains("run 2"));
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
                .until(() -> Fixture.result(paper.paperId()).getInt("run") == 2
                        && "GRADED".equals(Fixture.result(paper.paperId()).getString("status")));
        assertEquals(2.0, Fixture.result(paper.paperId()).getDouble("score"), 1e-9);
        List<ArchiveRecord> records = archive.forPaper(paper.paperId());
        assertEquals(1, records.size(), "the superseded run appended no RESULT record: " + records);
        assertEquals(2, records.get(0).run());
        assertTrue(Fixture.MAPPER.readTree(records.get(0).payload()).path("supersedes").isNull());
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/archive/verify").then().statusCode(200)
                .body("valid", equalTo(true));
    }

    @Test
    void aRegradeWhileTheOldRunWaitsForEssayMarksSupersedesItAndMarksGoToTheNewRun() throws Exception {
        String wrongKey = """
                [{"id":"q1","type":"SINGLE","prompt":"2+2?","options":["3","4"],"points":2,"key":"3"},
                 {"id":"q2","type":"ESSAY","prompt":"Why?","points":5}]
                """;
        String examId = Fixture.exam(wrongKey, 1);
        Submitted paper = Fixture.submit(redis, examId, Map.of("q1", "4", "q2", "Because."));
        String oldSaga = Fixture.awaitSaga(paper.paperId(), "WAITING").getString("sagaId");

        Fixture.putExam(examId, wrongKey.replace("\"key\":\"3\"", "\"key\":\"4\""), 2);
        given().auth().oauth2(TestTokens.operator()).post("/api/v1/results/exams/" + examId + "/regrade").then()
                .statusCode(202).body("regrading", equalTo(1));

        JsonPath old = Fixture.saga(oldSaga);
        assertEquals("SUPERSEDED", old.getString("status"), "the old run will not wait forever");
        assertEquals("CANCELLED", old.getString("steps[0].status"));
        assertTrue(old.getString("history.find { it.event == 'SUPERSEDED' }.detail").contains("run 2"));
        // the new run grades with the corrected key and parks for the essay in turn
        JsonPath waiting = Fixture.awaitSaga(paper.paperId(), "WAITING");
        assertEquals(2, waiting.getInt("run"));
        given().auth().oauth2(TestTokens.operator()).contentType("application/json").body("{\"marks\":{\"q2\":4}}")
                .post("/api/v1/results/" + paper.paperId() + "/marks").then().statusCode(202).body("run", equalTo(2))
                .body("sagaId", equalTo(waiting.getString("sagaId")));
        JsonPath graded = awaitStatus(paper.paperId(), "GRADED");
        assertEquals(2, graded.getInt("run"));
        assertEquals(6.0, graded.getDouble("score"), 1e-9);
        assertEquals("SUPERSEDED", Fixture.saga(oldSaga).getString("status"), "the marks did not wake the old run");
        List<ArchiveRecord> records = archive.forPaper(paper.paperId());
        assertEquals(1, records.size(), "only the current run is archived");
        assertEquals(2, records.get(0).run());
        given().auth().oauth2(TestTokens.operator()).post("/api/v1/sagas/" + oldSaga + "/retry").then().statusCode(409)
                .body("code", equalTo("SAGA_NOT_RETRYABLE"));
    }

    private void sql(String statement, String payload, long seq) throws Exception {
        try (Connection c = dataSource.getConnection(); PreparedStatement update = c.prepareStatement(statement)) {
            update.setString(1, payload);
            update.setLong(2, seq);
            update.executeUpdate();
        }
    }
}
