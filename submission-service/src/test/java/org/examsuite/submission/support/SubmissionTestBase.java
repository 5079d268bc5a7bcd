package org.examsuite.submission.support;

import org.examsuite.common.redis.SharedRedisDataSource;
import static io.restassured.RestAssured.given;

import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.examsuite.common.redis.RedisKeys;
import org.examsuite.submission.paper.SubmitGate;
import org.examsuite.common.auth.Roles;
import org.examsuite.testing.TestTokens;
import org.junit.jupiter.api.AfterEach;

/**
 * What the submission tests share: sessions published into Redis the way session-service
 * does it, candidate tokens, sheets, and cleanup of exactly the keys and rows a test made.
 */
public abstract class SubmissionTestBase {
    protected static final Duration GRACE = Duration.ofSeconds(30);

    @Inject
    protected SharedRedisDataSource redis;
    @Inject
    protected Pool pool;
    @Inject
    protected TestClock clock;

    private final List<Session> sessions = new ArrayList<>();

    /** A published session: its candidate's token has device epoch {@code epoch}. */
    public record Session(String id, String examId, String candidateId, long epoch) {
        public String token() {
            return TestTokens.candidate(id, examId, candidateId, epoch);
        }

        public String token(long deviceEpoch) {
            return TestTokens.candidate(id, examId, candidateId, deviceEpoch);
        }
    }

    /** A session whose deadline is {@code deadlineIn} from the service's now. */
    protected Session session(Duration deadlineIn) {
        Session session = new Session("s-" + UUID.randomUUID(), "e-" + UUID.randomUUID(), "c-" + UUID.randomUUID(), 1);
        sessions.add(session);
        publish(session, session.epoch(), clock.millis() + deadlineIn.toMillis());
        return session;
    }

    protected Session session() {
        return session(Duration.ofMinutes(30));
    }

    /** Writes {@code ses:{<id>}:state} as session-service publishes it. */
    protected void publish(Session session, long epoch, long deadlineMs) {
        Map<String, String> state = new LinkedHashMap<>();
        state.put("examId", session.examId());
        state.put("candidateId", session.candidateId());
        state.put("epoch", Long.toString(epoch));
        state.put("deadline", Long.toString(deadlineMs));
        state.put("graceMs", Long.toString(GRACE.toMillis()));
        state.put("status", "IN_PROGRESS");
        redis.hash(String.class).hset(RedisKeys.sessionState(session.id()), state);
    }

    /** The final sheet JSON: {@code answers} maps question → {value (JSON text), version}. */
    protected static String sheet(String sessionId, Object... questionValueVersion) {
        StringBuilder answers = new StringBuilder();
        for (int i = 0; i < questionValueVersion.length; i += 3) {
            if (answers.length() > 0) {
                answers.append(',');
            }
            answers.append('"').append(questionValueVersion[i]).append("\":{\"value\":").append(questionValueVersion[i + 1])
                    .append(",\"version\":").append(questionValueVersion[i + 2]).append('}');
        }
        return "{\"sessionId\":\"" + sessionId + "\",\"answers\":{" + answers + "}}";
    }

    protected static ValidatableResponse submit(String token, String key, String body) {
        var request = given().auth().oauth2(token).contentType(ContentType.JSON).body(body);
        if (key != null) {
            request.header("Idempotency-Key", key);
        }
        return request.when().post("/api/v1/submissions").then();
    }

    protected static ValidatableResponse submit(Session session, String key, String body) {
        return submit(session.token(), key, body);
    }

    protected static ValidatableResponse autoSubmit(Session session, String submittedBy) {
        return given().auth().oauth2(TestTokens.service(Roles.SESSION_SERVICE)).contentType(ContentType.JSON)
                .body("{\"submittedBy\":\"" + submittedBy + "\",\"actor\":\"test\"}")
                .when().post("/internal/v1/sessions/" + session.id() + "/auto-submit").then();
    }

    protected long paperCount(Session session) {
        return pool.preparedQuery("SELECT count(*) FROM papers WHERE session_id = $1").execute(Tuple.of(session.id()))
                .await().indefinitely().iterator().next().getLong(0);
    }

    @AfterEach
    void forgetSessions() {
        for (Session session : sessions) {
            redis.key().del(RedisKeys.sessionState(session.id()), RedisKeys.submitLock(session.id()), RedisKeys.finalSheet(session.id()),
                    RedisKeys.paper(session.id()));
            // The idempotency records of this test's candidate (random ids: nobody else's).
            String scope = SubmitGate.idempotencyKey(session.id(), session.examId(), session.candidateId(), "x");
            redis.key().keys(scope.substring(0, scope.lastIndexOf(':') + 1) + "*").forEach(k -> redis.key().del(k));
            // Stop the relay from publishing this test's papers in later runs.
            pool.preparedQuery("UPDATE outbox SET done_at = now() WHERE session_id = $1 AND done_at IS NULL")
                    .execute(Tuple.of(session.id())).await().indefinitely();
            Stubs.DRAFTS.remove(session.id());
            Stubs.FAILING_SEALS.remove(session.id());
            Stubs.HELD_SEALS.remove(session.id());
        }
        sessions.clear();
    }
}
