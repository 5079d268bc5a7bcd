package org.examsuite.submission.paper;

import org.examsuite.submission.answer.StampedValue;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Transaction;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.examsuite.common.redis.RedisKeys;
import org.examsuite.submission.submit.Admission;
import org.examsuite.submission.paper.FinalSheet;
import org.examsuite.submission.support.Stubs;
import org.examsuite.submission.support.SubmissionTestBase;
import org.examsuite.testing.TestKeys;
import org.junit.jupiter.api.Test;

/**
 * "Keep a sheet" and "a build closes the sheets and reads them" are atomic against each
 * other: a sheet kept before the build closes them is in the paper; a sheet that comes after
 * is refused — never reported kept and then missing — and its request answers with that paper.
 */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(Stubs.class)
class SheetClosingTest extends SubmissionTestBase {
    private static final FinalSheet.Limits LIMITS = new FinalSheet.Limits(1 << 20, 500, 65536);

    @Inject
    SheetStore sheets;
    @Inject
    SessionLock lock;
    @Inject
    SubmitGate gate;
    @Inject
    Admission admission;
    @Inject
    ObjectMapper json;

    /** Takes the session's lock as a build does (the auto-submit's step): its token, or null. */
    private String takeLock(Session s) {
        SubmitGate.Step step = gate.poll(s.id(), null, null);
        return step.outcome() == SubmitGate.Outcome.BUILD ? step.lockToken() : null;
    }

    private FinalSheet finalSheet(Session s, Object... questionValueVersion) {
        return FinalSheet.parse(json, sheet(s.id(), questionValueVersion), LIMITS);
    }

    @Test
    void aSheetKeptAfterTheBuildClosedTheSheetsIsRefusedNotLost() {
        Session s = session();
        long now = clock.millis();
        assertEquals(SheetStore.Kept.KEPT, sheets.keep(s.id(), 1, finalSheet(s, "q1", "\"before\"", 1), now));
        String token = takeLock(s);
        assertNotNull(token);

        Map<String, StampedValue> read = sheets.close(s.id(), token);
        assertEquals(Map.of("q1", "before"), Map.of("q1", read.get("q1").value().asText()));
        assertEquals(1, read.size(), "the closed mark is not a question");

        // The build has read the sheets: a later sheet is refused, not kept behind its back.
        assertEquals(SheetStore.Kept.CLOSED, sheets.keep(s.id(), 1, finalSheet(s, "q2", "\"after\"", 1), now));
        assertFalse(sheets.read(s.id()).containsKey("q2"));

        // The build stored no paper (it failed): releasing its lock opens the sheets again.
        lock.release(s.id(), token);
        assertEquals(SheetStore.Kept.KEPT, sheets.keep(s.id(), 1, finalSheet(s, "q2", "\"after\"", 1), now));
        assertTrue(sheets.read(s.id()).containsKey("q2"));
    }

    @Test
    void aBuildThatDiedClosedTheSheetsUntilTheNextBuilderTakesTheLock() {
        Session s = session();
        long now = clock.millis();
        String dead = takeLock(s);
        assertNotNull(sheets.close(s.id(), dead));
        redis.key().del(RedisKeys.submitLock(s.id()));   // its lock expired: the builder is gone
        assertEquals(SheetStore.Kept.CLOSED, sheets.keep(s.id(), 1, finalSheet(s, "q1", "\"x\"", 1), now));
        // Only the lock holder closes the sheets: the dead build's token no longer does.
        String next = takeLock(s);
        assertNotNull(next);
        assertEquals(null, sheets.close(s.id(), dead));
        assertEquals(SheetStore.Kept.KEPT, sheets.keep(s.id(), 1, finalSheet(s, "q1", "\"x\"", 1), now));
        assertTrue(sheets.close(s.id(), next).containsKey("q1"));
        lock.release(s.id(), next);
    }

    @Test
    void aStoredPaperRefusesEveryLaterSheet() {
        Session s = session();
        String paperId = submit(s, "k-1", sheet(s.id(), "q1", "\"a\"", 1)).statusCode(201).extract().path("paperId");
        assertEquals(SheetStore.Kept.PAPER, sheets.keep(s.id(), 1, finalSheet(s, "q2", "\"b\"", 1), clock.millis()));
        submit(s, "k-2", sheet(s.id(), "q2", "\"b\"", 1)).statusCode(200).body("paperId", equalTo(paperId))
                .body("answers", not(hasKey("q2")));
    }

    /**
     * The race of the issue, through HTTP: request A has sealed the draft and read the kept
     * sheets, and is storing its paper (held here by a table lock); a shed request C then brings
     * a final sheet. C must not be told its answers are kept (they would be missing from A's
     * paper): it is told the paper is being stored, and its retry gets A's paper.
     */
    @Test
    void aSheetArrivingWhileTheReadPaperIsStoredIsAnsweredWithThatPaper() throws Exception {
        Session s = session();
        Stubs.DRAFTS.put(s.id(), "{\"q1\":{\"value\":\"draft\",\"version\":1,\"epoch\":1}}");
        SqlConnection conn = pool.getConnection().await().atMost(Duration.ofSeconds(10));
        Transaction tx = conn.begin().await().atMost(Duration.ofSeconds(10));
        CompletableFuture<Response> first;
        try {
            conn.query("LOCK TABLE papers IN EXCLUSIVE MODE").execute().await().atMost(Duration.ofSeconds(10));
            first = CompletableFuture.supplyAsync(
                    () -> submit(s, "k-a", sheet(s.id(), "q1", "\"a\"", 2)).extract().response());
            // A waits on the table lock: it has sealed, closed and read the sheets.
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> pool
                    .query("SELECT count(*) FROM pg_locks WHERE relation = 'exam_submission.papers'::regclass AND NOT granted")
                    .execute().await().atMost(Duration.ofSeconds(5)).iterator().next().getLong(0) > 0);

            int taken = 0;
            while (admission.tryEnter()) {
                taken++;
            }
            try {
                submit(s, "k-c", sheet(s.id(), "q3", "\"c\"", 1)).statusCode(503)
                        .header("Retry-After", notNullValue()).body("code", equalTo("PAPER_IN_PROGRESS"));
            } finally {
                for (int i = 0; i < taken; i++) {
                    admission.leave(0);
                }
            }
            assertFalse(sheets.read(s.id()).containsKey("q3"), "a refused sheet is not kept");
        } finally {
            tx.rollback().await().atMost(Duration.ofSeconds(10));
            conn.close().await().atMost(Duration.ofSeconds(10));
        }
        Response a = first.get(30, TimeUnit.SECONDS);
        assertEquals(201, a.statusCode(), a.asString());
        String paperId = a.path("paperId");
        assertEquals("a", a.path("answers.q1.value"));
        submit(s, "k-c", sheet(s.id(), "q3", "\"c\"", 1)).statusCode(200).body("paperId", equalTo(paperId))
                .body("answers", not(hasKey("q3")));
        assertEquals(1, paperCount(s));
    }
}
