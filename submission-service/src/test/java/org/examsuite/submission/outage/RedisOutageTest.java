package org.examsuite.submission.outage;

import static org.awaitility.Awaitility.await;
import static org.examsuite.testing.Outages.retryLater;
import static org.examsuite.testing.Outages.neverA500;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.oneOf;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.time.Duration;
import org.examsuite.submission.support.Stubs;
import org.examsuite.submission.support.SubmissionTestBase;
import org.examsuite.testing.CuttableProxy;
import org.examsuite.testing.RedisBehindRelay;
import org.examsuite.testing.TestKeys;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfEnvironmentVariable;

/**
 * Redis goes away under a running submission-service (every connection reset, new ones refused,
 * as in a restart) and comes back: meanwhile a submission — which reads the session's published
 * state and takes the session's lock in Redis — answers 503 problem+json with Retry-After, never
 * 500, and the client's retry with the same Idempotency-Key afterwards gets the session's one
 * paper from the same, unrestarted service. (Standalone only: a relay cannot stand in for a
 * cluster's nodes.)
 */
@QuarkusTest
@TestProfile(RedisBehindRelay.class)
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(Stubs.class)
@DisabledIfEnvironmentVariable(named = "EXAM_TEST_REDIS_CLIENT_TYPE", matches = "cluster")
class RedisOutageTest extends SubmissionTestBase {
    static final CuttableProxy REDIS = RedisBehindRelay.REDIS;

    @AfterEach
    void restore() {
        REDIS.restore();
    }

    @Test
    void whileRedisIsGoneASubmissionAnswers503AndItsRetryLaterGetsTheOnePaper() {
        Session s = session();
        String body = sheet(s.id(), "q1", "\"4\"", 1);
        Session other = session(); // for every other endpoint, on its paper
        String paperId = submit(other, "k-other", sheet(other.id(), "q1", "\"4\"", 1)).statusCode(201).extract().path("paperId");

        REDIS.cut();
        retryLater(submit(s, "k-redis-outage", body))
                .body("code", oneOf("SERVICE_UNAVAILABLE", "SESSION_STATE_UNAVAILABLE"));
        neverA500(Endpoints.all(other, paperId));

        REDIS.restore();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                .until(() -> submit(s, "k-redis-outage", body).extract().statusCode() == 201);
        submit(s, "k-redis-outage", body).statusCode(201).header("Idempotent-Replayed", "true").body("sessionId", equalTo(s.id()));
        assertEquals(1, paperCount(s));
    }
}
