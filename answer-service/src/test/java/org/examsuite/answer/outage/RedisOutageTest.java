package org.examsuite.answer.outage;

import static org.awaitility.Awaitility.await;
import static org.examsuite.answer.support.Fixtures.change;
import static org.examsuite.testing.Outages.neverA500;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import org.examsuite.answer.support.Fixtures;
import org.examsuite.answer.support.Fixtures.TestSession;
import org.examsuite.answer.support.SessionServiceStub;
import org.examsuite.testing.CuttableProxy;
import org.examsuite.testing.RedisBehindRelay;
import org.examsuite.testing.TestKeys;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfEnvironmentVariable;

/**
 * Redis goes away under a running answer-service (every connection reset, new ones refused, as
 * in a restart) and comes back: meanwhile autosaves and reads answer 503 problem+json with
 * Retry-After — never 500 — and afterwards the same service serves again by itself, with what
 * was acknowledged before the outage intact. (Standalone only: a cluster's nodes are reached at
 * the addresses the cluster announces, which a relay in front of one cannot stand in for.)
 */
@QuarkusTest
@TestProfile(RedisBehindRelay.class)
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(SessionServiceStub.class)
@DisabledIfEnvironmentVariable(named = "EXAM_TEST_REDIS_CLIENT_TYPE", matches = "cluster")
class RedisOutageTest {
    static final CuttableProxy REDIS = RedisBehindRelay.REDIS;

    @Inject
    Fixtures fixtures;

    @AfterEach
    void cleanUp() {
        REDIS.restore();
        fixtures.cleanUp();
    }

    @Test
    void whileRedisIsGoneAutosavesAnswer503AndTheServiceRecoversByItself() {
        TestSession s = fixtures.session();
        s.patch(change(1, "q4", "\"Paris\"")).statusCode(200);
        TestSession other = fixtures.session(); // for every endpoint
        other.patch(change(1, "q4", "\"Paris\"")).statusCode(200);

        REDIS.cut();
        s.patch(change(2, "q4", "\"Lyon\"")).statusCode(503).contentType("application/problem+json")
                .header("Retry-After", notNullValue()).body("code", equalTo("SERVICE_UNAVAILABLE"));
        s.draft().statusCode(503).contentType("application/problem+json").header("Retry-After", notNullValue());
        neverA500(Endpoints.all(other));

        REDIS.restore();
        // The pool reconnects on its own: the client's retry of the refused change goes through.
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(250))
                .until(() -> s.patch(change(2, "q4", "\"Lyon\"")).extract().statusCode() == 200);
        s.draft().statusCode(200).body("answers.q4.value", equalTo("Lyon")).body("answers.q4.version", equalTo(2));
    }
}
