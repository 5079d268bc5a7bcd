package org.examsuite.grading.outage;

import static org.awaitility.Awaitility.await;
import static org.examsuite.grading.outage.PostgresOutageTest.QUESTIONS;
import static org.examsuite.grading.outage.PostgresOutageTest.get;
import static org.examsuite.testing.Outages.neverA500;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import org.examsuite.common.redis.SharedRedisDataSource;
import org.examsuite.grading.Fixture;
import org.examsuite.grading.Fixture.Submitted;
import org.examsuite.grading.StubServices;
import org.examsuite.testing.CuttableProxy;
import org.examsuite.testing.RedisBehindRelay;
import org.examsuite.testing.TestKeys;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfEnvironmentVariable;

/**
 * Redis goes away under a running grading-saga (every connection reset, new ones refused, as in
 * a restart) and comes back. Only the paper stream's consumer needs Redis: meanwhile the
 * results, statistics, saga and archive endpoints keep answering 200 from PostgreSQL (never
 * 500), and afterwards the consumer reads the stream again by itself — a paper published then
 * is graded by the same, unrestarted service. (Standalone only: a relay cannot stand in for a
 * cluster's nodes.)
 */
@QuarkusTest
@TestProfile(RedisBehindRelay.class)
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(StubServices.class)
@DisabledIfEnvironmentVariable(named = "EXAM_TEST_REDIS_CLIENT_TYPE", matches = "cluster")
class RedisOutageTest {
    static final CuttableProxy REDIS = RedisBehindRelay.REDIS;

    @Inject
    SharedRedisDataSource redis;

    @AfterEach
    void restore() {
        REDIS.restore();
    }

    @Test
    void whileRedisIsGoneTheEndpointsStillAnswerAndTheStreamIsReadAgainByItself() throws InterruptedException {
        String examId = Fixture.exam(QUESTIONS, 1);
        Submitted graded = Fixture.submit(redis, examId, Map.of("q1", "4"));
        String sagaId = Fixture.awaitStatus(graded.paperId(), "GRADED").getString("sagaId");
        Submitted other = Fixture.submit(redis, Fixture.exam(QUESTIONS, 1), Map.of("q1", "4")); // for every endpoint, in its own exam
        String otherSaga = Fixture.awaitStatus(other.paperId(), "GRADED").getString("sagaId");

        REDIS.cut();
        Thread.sleep(1_000); // the consumer's blocked read fails and it retries against a Redis that is gone
        get("/api/v1/results/" + graded.paperId()).statusCode(200).body("status", equalTo("GRADED"));
        get("/api/v1/results/exams/" + examId).statusCode(200);
        get("/api/v1/results/exams/" + examId + "/statistics").statusCode(200);
        get("/api/v1/sagas/" + sagaId).statusCode(200).body("status", equalTo("COMPLETED"));
        get("/api/v1/archive/head").statusCode(200);
        neverA500(Endpoints.all(other, otherSaga));

        REDIS.restore();
        // The test's own publish goes through the same relay: retried until its pool has reconnected.
        Submitted after = Fixture.paper(examId, Map.of("q1", "3"));
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(250)).ignoreExceptions()
                .until(() -> Fixture.publish(redis, after) != null);
        assertEquals(0.0, Fixture.awaitStatus(after.paperId(), "GRADED").getDouble("score"), 1e-9);
    }
}
