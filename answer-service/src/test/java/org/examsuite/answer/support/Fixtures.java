package org.examsuite.answer.support;

import org.examsuite.common.redis.SharedRedisDataSource;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;

import io.restassured.response.ValidatableResponse;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.examsuite.answer.persistence.WriteBehind;
import org.examsuite.common.redis.RedisKeys;
import org.examsuite.common.auth.Roles;
import org.examsuite.testing.TestTokens;

/**
 * Test sessions: writes session-service's published keys the way it does (ARCHITECTURE.md),
 * sends autosaves, and deletes exactly the keys it created.
 */
@ApplicationScoped
public class Fixtures {
    /** Questions of every test exam (the example exam of docs/api.md §4.2). */
    public static final String QUESTIONS = """
            {"examId": "%s", "questions": [
             {"id": "q1", "type": "SINGLE", "options": ["3", "4"]},
             {"id": "q2", "type": "MULTIPLE", "options": ["2", "4", "5"]},
             {"id": "q3", "type": "TRUE_FALSE"},
             {"id": "q4", "type": "FILL"},
             {"id": "q5", "type": "NUMERIC"},
             {"id": "q6", "type": "ESSAY"}]}""";

    @Inject
    SharedRedisDataSource redis;
    @Inject
    Clock clock;
    @Inject
    WriteBehind writeBehind;
    @Inject
    io.vertx.mutiny.sqlclient.Pool pool;

    private final List<String> created = new ArrayList<>();

    /** A session of a fresh exam, open until an hour from now, published in Redis. */
    public TestSession session() {
        TestSession session = new TestSession("s-" + UUID.randomUUID(), "e-" + UUID.randomUUID(), "c-1");
        publishQuestions(session.examId());
        publishState(session, 1, clock.millis() + 3_600_000, 30_000, "IN_PROGRESS");
        return session;
    }

    /** A session of a fresh exam with these published questions ({@link #QUESTIONS}' shape, %s the exam id). */
    public TestSession session(String questions) {
        TestSession session = new TestSession("s-" + UUID.randomUUID(), "e-" + UUID.randomUUID(), "c-1");
        publishQuestions(session.examId(), questions);
        publishState(session, 1, clock.millis() + 3_600_000, 30_000, "IN_PROGRESS");
        return session;
    }

    public void publishQuestions(String examId) {
        publishQuestions(examId, QUESTIONS);
    }

    private void publishQuestions(String examId, String questions) {
        String key = RedisKeys.examQuestions(examId);
        redis.value(String.class).set(key, questions.formatted(examId));
        created.add(key);
    }

    public void publishState(TestSession session, long epoch, long deadlineMs, long graceMs, String status) {
        String key = RedisKeys.sessionState(session.sessionId());
        redis.hash(String.class).hset(key, state(session, epoch, deadlineMs, graceMs, status));
        created.add(key);
        created.add(RedisKeys.draft(session.sessionId()));
    }

    /** Stages the state for the session-service stub to publish when asked (and only then). */
    public void stageForRepublish(TestSession session, long epoch, long deadlineMs, long graceMs) {
        String key = "test:{" + session.sessionId() + "}:publishable";
        redis.hash(String.class).hset(key, state(session, epoch, deadlineMs, graceMs, "IN_PROGRESS"));
        created.add(key);
        created.add(RedisKeys.sessionState(session.sessionId()));
        created.add(RedisKeys.draft(session.sessionId()));
    }

    public void stageQuestionsForRepublish(String examId) {
        String key = "test:{exam:" + examId + "}:publishable";
        redis.value(String.class).set(key, QUESTIONS.formatted(examId));
        created.add(key);
        created.add(RedisKeys.examQuestions(examId));
    }

    private static Map<String, String> state(TestSession session, long epoch, long deadlineMs, long graceMs, String status) {
        Map<String, String> state = new HashMap<>();
        state.put("examId", session.examId());
        state.put("epoch", Long.toString(epoch));
        state.put("deadline", Long.toString(deadlineMs));
        state.put("graceMs", Long.toString(graceMs));
        state.put("status", status);
        return state;
    }

    /** What a Redis restart without persistence does to this session: its draft is gone. */
    public void loseDraft(TestSession session) {
        redis.key().del(RedisKeys.draft(session.sessionId()));
    }

    public boolean draftInRedis(TestSession session) {
        return redis.key().exists(RedisKeys.draft(session.sessionId()));
    }

    /** Stops the write-behind and waits for a round in flight, so none touches the test's drafts (resume it after). */
    public void pauseWriteBehind() {
        writeBehind.pause();
        await().atMost(Duration.ofSeconds(30)).until(() -> !writeBehind.isInRound());
    }

    /** The newest version of the session's answer to the question PostgreSQL holds, 0 if none. */
    public long storedVersion(TestSession s, String questionId) {
        java.util.Iterator<io.vertx.mutiny.sqlclient.Row> rows = pool.preparedQuery("""
                SELECT version FROM exam_answer.answer_history WHERE session_id = $1 AND question_id = $2
                ORDER BY epoch DESC, version DESC LIMIT 1""")
                .execute(io.vertx.mutiny.sqlclient.Tuple.of(s.sessionId(), questionId)).await().indefinitely().iterator();
        return rows.hasNext() ? rows.next().getLong("version") : 0;
    }

    public void cleanUp() {
        if (!created.isEmpty()) {
            created.forEach(key -> redis.key().del(key)); // one by one: in a Redis Cluster they live in many slots
            created.clear();
        }
    }

    public record TestSession(String sessionId, String examId, String candidateId) {
        public String token(long epoch) {
            return TestTokens.candidate(sessionId, examId, candidateId, epoch);
        }

        public String token() {
            return token(1);
        }

        public ValidatableResponse patch(long epoch, String body) {
            return given().auth().oauth2(token(epoch)).contentType("application/json").body(body)
                    .patch("/api/v1/answers/" + sessionId).then();
        }

        public ValidatableResponse patch(String body) {
            return patch(1, body);
        }

        public ValidatableResponse draft() {
            return given().auth().oauth2(token()).get("/api/v1/answers/" + sessionId).then();
        }

        public ValidatableResponse seal() {
            return given().auth().oauth2(TestTokens.service(Roles.SUBMISSION_SERVICE)).post("/internal/v1/answers/" + sessionId + "/seal").then();
        }
    }

    /** A one-change autosave body. */
    public static String change(long version, String questionId, String valueJson) {
        return "{\"version\": " + version + ", \"changes\": [{\"questionId\": \"" + questionId + "\", \"value\": " + valueJson
                + "}]}";
    }
}
