package org.examsuite.answer.draft;

import static org.examsuite.answer.support.Fixtures.change;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.examsuite.answer.draft.DraftStore.Change;
import org.examsuite.answer.persistence.WriteBehind;
import org.examsuite.answer.support.Fixtures;
import org.examsuite.answer.support.Fixtures.TestSession;
import org.examsuite.answer.support.SessionServiceStub;
import org.examsuite.testing.TestKeys;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * autosave.lua reads the draft's answers in one HMGET and writes them in one HSET: a question named twice in one call
 * (the request parser merges them, the script must not rely on it) and calls naming thousands
 * of questions (unpack() is bounded) behave as one write per change.
 */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(SessionServiceStub.class)
class AutosaveScriptTest {
    @Inject
    Fixtures fixtures;
    @Inject
    DraftStore store;
    @Inject
    Clock clock;

    @Inject
    WriteBehind writeBehind;
    @Inject
    io.vertx.mutiny.sqlclient.Pool pool;

    @AfterEach
    void cleanUp() {
        writeBehind.resume();
        fixtures.cleanUp();
    }

    private static Change c(String questionId, String json) {
        return new Change(questionId, json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aQuestionNamedTwiceInOneCallIsWrittenOnceAndTheSecondIsStale() {
        TestSession s = fixtures.session();
        s.patch(change(1, "q4", "\"first\"")).statusCode(200); // the draft exists
        AutosaveOutcome outcome = store.autosave(s.sessionId(), clock.millis(), 1, 5,
                List.of(c("q4", "\"a\""), c("q4", "\"b\""))).await().indefinitely();
        assertEquals(AutosaveOutcome.Status.OK, outcome.status());
        assertEquals(List.of("q4"), outcome.applied());
        assertEquals(List.of(new AutosaveOutcome.Stale("q4", 5)), outcome.stale());
        s.draft().statusCode(200).body("answers.q4.value", equalTo("a")).body("answers.q4.version", equalTo(5));
        // Stale first, then the same question again: both stale against what is held.
        outcome = store.autosave(s.sessionId(), clock.millis(), 1, 4, List.of(c("q4", "\"c\""), c("q4", "\"d\"")))
                .await().indefinitely();
        assertEquals(List.of(), outcome.applied());
        assertEquals(List.of(new AutosaveOutcome.Stale("q4", 5), new AutosaveOutcome.Stale("q4", 5)), outcome.stale());
    }

    @Test
    void thousandsOfQuestionsInOneCall() {
        writeBehind.pause(); // the log keeps the changes until this test flushes them
        await().atMost(Duration.ofSeconds(30)).until(() -> !writeBehind.isInRound());
        TestSession s = fixtures.session();
        s.patch(change(1, "q4", "\"first\"")).statusCode(200);
        List<Change> many = new ArrayList<>();
        for (int i = 0; i < 2_500; i++) {
            many.add(c("x" + i, "\"v" + i + "\""));
        }
        AutosaveOutcome outcome = store.autosave(s.sessionId(), clock.millis(), 1, 7, many).await().indefinitely();
        assertEquals(2_500, outcome.applied().size());
        assertEquals(7, outcome.version());
        outcome = store.autosave(s.sessionId(), clock.millis(), 1, 7, many).await().indefinitely();
        assertEquals(0, outcome.applied().size());
        assertEquals(2_500, outcome.stale().size());
        Draft draft = store.read(s.sessionId()).await().indefinitely();
        assertEquals(2_501, draft.answers().size());
        assertEquals("\"v2499\"", draft.answers().get("x2499").json());
        // the 2,500 changes are logged (twice: the second call held each with the same stamp) and reach PostgreSQL
        while (writeBehind.flushOnce().await().indefinitely() > 0) {
            // until the log is drained
        }
        long stored = pool.preparedQuery("SELECT count(DISTINCT question_id) FROM exam_answer.answer_history WHERE session_id = $1")
                .execute(io.vertx.mutiny.sqlclient.Tuple.of(s.sessionId())).await().indefinitely().iterator().next().getLong(0);
        assertEquals(2_501, stored);
    }
}
