package org.examsuite.submission.paper;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.examsuite.common.redis.RedisKeys;
import org.examsuite.submission.support.Stubs;
import org.examsuite.submission.support.SubmissionTestBase;
import org.examsuite.testing.TestKeys;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Papers that arrive together are sealed, stored and booked together (one seal call, one
 * transaction), and each request still gets exactly what it would have got alone. The groups
 * are made to form: every group slot is held by a session whose seal the stub holds, so the
 * submissions sent meanwhile queue and are taken as one group when the slots free.
 */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(Stubs.class)
class PaperGroupTest extends SubmissionTestBase {
    @Inject
    PaperMaker maker;
    @Inject
    PaperGroupConfig groups;
    @Inject
    PaperStore papers;

    private final ExecutorService clients = Executors.newCachedThreadPool();

    @AfterEach
    void dropTrigger() {
        pool.query("DROP TRIGGER IF EXISTS refuse_test_paper ON papers").execute().await().indefinitely();
        clients.shutdownNow();
    }

    @Test
    void aGroupMixingNewPapersAReplayAPaperRedisForgotAndAnUnsealableSessionAnswersEachAsAlone() throws Exception {
        Session forgotten = session();
        String forgottenPaper = submit(forgotten, "k-first", sheet(forgotten.id(), "q1", "\"1\"", 1)).statusCode(201)
                .extract().path("paperId");
        // Redis lost what it knew of that paper: only PostgreSQL has it now.
        redis.key().del(RedisKeys.paper(forgotten.id()));
        Session replayed = session();
        String replayBody = sheet(replayed.id(), "q1", "\"2\"", 1);
        String replayedPaper = submit(replayed, "k-replay", replayBody).statusCode(201).extract().path("paperId");
        Session unsealable = session();
        Stubs.FAILING_SEALS.add(unsealable.id());
        List<Session> fresh = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            Session s = session();
            Stubs.DRAFTS.put(s.id(), "{\"q1\":{\"value\":\"d" + i + "\",\"version\":1,\"epoch\":1}}");
            fresh.add(s);
        }

        CountDownLatch release = holdEveryGroupSlot();
        CompletableFuture<Response> forgottenAgain = send(forgotten, "k-second", sheet(forgotten.id(), "q1", "\"9\"", 2));
        CompletableFuture<Response> replay = send(replayed, "k-replay", replayBody);
        CompletableFuture<Response> failing = send(unsealable, "k-fail", sheet(unsealable.id(), "q1", "\"3\"", 1));
        List<CompletableFuture<Response>> created = new ArrayList<>();
        for (Session s : fresh) {
            created.add(send(s, "k-new", sheet(s.id(), "q2", "\"n\"", 1)));
        }
        // The replay never needs a build; the other eight wait for a group.
        await().atMost(Duration.ofSeconds(30)).until(() -> maker.queuedBuilds() == 8);
        assertTrue(replay.get().statusCode() == 201 && "true".equals(replay.get().header("Idempotent-Replayed")),
                "the replay is answered at once with its stored response");
        assertEquals(replayedPaper, replay.get().path("paperId"));
        release.countDown();

        Set<String> paperIds = new HashSet<>();
        for (int i = 0; i < fresh.size(); i++) {
            Response response = created.get(i).get();
            assertEquals(201, response.statusCode(), response.asString());
            assertEquals(fresh.get(i).id(), response.path("sessionId"));
            assertEquals("d" + i, response.path("answers.q1.value"), "its own sealed draft is in its paper");
            assertEquals("n", response.path("answers.q2.value"), "its own final sheet is in its paper");
            paperIds.add(response.path("paperId"));
            assertEquals(1, paperCount(fresh.get(i)));
        }
        assertEquals(fresh.size(), paperIds.size(), "one paper each");
        Response again = forgottenAgain.get();
        assertEquals(200, again.statusCode(), again.asString());
        assertEquals(forgottenPaper, again.path("paperId"), "the paper PostgreSQL had is the answer");
        assertEquals(1, paperCount(forgotten));
        Response refused = failing.get();
        assertEquals(503, refused.statusCode());
        assertEquals("ANSWER_SERVICE_UNAVAILABLE", refused.path("code"));
        assertNotNull(refused.header("Retry-After"));
        assertEquals(0, paperCount(unsealable));

        List<String> group = Stubs.GROUP_SEALS.stream()
                .filter(ids -> ids.contains(fresh.get(0).id())).findFirst().orElseThrow();
        assertTrue(group.size() == 8 && group.contains(forgotten.id()) && group.contains(unsealable.id()),
                "the eight waiting builds shared one seal call: " + group);

        // Its retry, once answer-service can seal it, gets its paper.
        Stubs.FAILING_SEALS.remove(unsealable.id());
        submit(unsealable, "k-fail", sheet(unsealable.id(), "q1", "\"3\"", 1)).statusCode(201);
        assertEquals(1, paperCount(unsealable));
    }

    @Test
    void aGroupWhoseTransactionFailsStoresEveryOtherPaperAndFailsOnlyTheOneThatCannotBeStored() throws Exception {
        Session bad = session();
        pool.query("CREATE OR REPLACE FUNCTION refuse_test_paper() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                + "IF NEW.session_id = '" + bad.id() + "' THEN RAISE EXCEPTION 'refused by the test'; END IF; "
                + "RETURN NEW; END $$").execute().await().indefinitely();
        pool.query("CREATE TRIGGER refuse_test_paper BEFORE INSERT ON papers FOR EACH ROW EXECUTE FUNCTION refuse_test_paper()")
                .execute().await().indefinitely();
        List<Session> good = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            good.add(session());
        }
        CountDownLatch release = holdEveryGroupSlot();
        CompletableFuture<Response> refused = send(bad, "k-bad", sheet(bad.id(), "q1", "\"x\"", 1));
        List<CompletableFuture<Response>> stored = new ArrayList<>();
        for (Session s : good) {
            stored.add(send(s, "k-good", sheet(s.id(), "q1", "\"y\"", 1)));
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> maker.queuedBuilds() == 5);
        release.countDown();

        for (int i = 0; i < good.size(); i++) {
            assertEquals(201, stored.get(i).get().statusCode(), stored.get(i).get().asString());
            assertEquals(1, paperCount(good.get(i)));
        }
        Response failed = refused.get();
        assertTrue(failed.statusCode() >= 500, "the paper that cannot be stored fails: " + failed.statusCode());
        assertEquals("application/problem+json", failed.contentType());
        assertTrue(!failed.asString().contains("refused by the test") && !failed.asString().contains("at org."),
                "no internals in the answer: " + failed.asString());
        assertEquals(0, paperCount(bad));

        // Nothing was left half-done: the lock is free, the key too, and the retry stores its paper.
        pool.query("DROP TRIGGER refuse_test_paper ON papers").execute().await().indefinitely();
        submit(bad, "k-bad", sheet(bad.id(), "q1", "\"x\"", 1)).statusCode(201);
        assertEquals(1, paperCount(bad));
    }

    @Test
    void papersCommittedByAGroupThatDiedBeforeAnsweringAreWhatTheRetriesGet() {
        // A group committed these papers, then its process died: no Redis bookkeeping, no answer
        // (its locks have expired since). The clients retry with their keys.
        List<Session> sessions = new ArrayList<>();
        List<PaperStore.NewPaper> committed = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Session s = session();
            sessions.add(s);
            UUID paperId = UUID.randomUUID();
            Paper paper = new Paper(paperId, s.id(), s.examId(), s.candidateId(), "CANDIDATE",
                    "{\"paperId\":\"" + paperId + "\",\"sessionId\":\"" + s.id() + "\"}", "0".repeat(64), "sig");
            committed.add(new PaperStore.NewPaper(paper, Instant.now(), s.candidateId(), Map.of()));
        }
        assertEquals(3, papers.insert(committed).size());
        assertEquals(0, papers.insert(committed).size(), "a group never stores a second paper for a session");

        for (int i = 0; i < 3; i++) {
            Session s = sessions.get(i);
            String paperId = submit(s, "k-retry", sheet(s.id(), "q1", "\"late\"", 5)).statusCode(200)
                    .extract().path("paperId");
            assertEquals(committed.get(i).paper().paperId().toString(), paperId);
            assertEquals(1, paperCount(s));
            // Replayed from now on, like any stored response.
            submit(s, "k-retry", sheet(s.id(), "q1", "\"late\"", 5)).statusCode(200).header("Idempotent-Replayed", "true");
        }
    }

    /** Takes every group slot with a submission whose seal the stub holds until the latch is released. */
    private CountDownLatch holdEveryGroupSlot() {
        CountDownLatch release = new CountDownLatch(1);
        List<Session> holders = new ArrayList<>();
        for (int i = 0; i < groups.maxInFlight(); i++) {
            Session holder = session();
            Stubs.HELD_SEALS.put(holder.id(), release);
            holders.add(holder);
            send(holder, "k-hold", sheet(holder.id(), "q1", "\"h\"", 1));
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> holders.stream()
                .allMatch(h -> Stubs.SEAL_CALLS.containsKey(h.id())));
        return release;
    }

    private CompletableFuture<Response> send(Session session, String key, String body) {
        return CompletableFuture.supplyAsync(() -> submit(session, key, body).extract().response(), clients);
    }

    @Test
    void aLoneSubmissionIsItsOwnGroupAndWaitsForNobody() {
        Session s = session();
        submit(s, "k-1", sheet(s.id(), "q1", "\"4\"", 1)).statusCode(201);
        List<String> call = Stubs.GROUP_SEALS.stream().filter(ids -> ids.contains(s.id())).findFirst().orElseThrow();
        assertEquals(List.of(s.id()), call);
        assertNotEquals(0, paperCount(s));
    }
}
