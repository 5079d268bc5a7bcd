package org.examsuite.grading.outage;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.examsuite.testing.Outages.unavailable;
import static org.examsuite.testing.Outages.neverA500;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.ValidatableResponse;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import org.examsuite.common.redis.SharedRedisDataSource;
import org.examsuite.grading.Fixture;
import org.examsuite.grading.Fixture.Submitted;
import org.examsuite.grading.StubServices;
import org.examsuite.testing.CuttableProxy;
import org.examsuite.testing.PostgresBehindRelay;
import org.examsuite.testing.TestKeys;
import org.examsuite.testing.TestTokens;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL goes away under a running grading-saga (connections reset, new ones refused, as in
 * an immediate restart or a failover) and comes back: meanwhile the results, statistics, saga
 * and archive endpoints answer 503 problem+json with Retry-After — never 500 — and afterwards
 * they answer again from the same service, unrestarted, and a paper that arrived during the
 * outage is graded.
 */
@QuarkusTest
@TestProfile(PostgresBehindRelay.class)
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(StubServices.class)
class PostgresOutageTest {
    static final CuttableProxy POSTGRES = PostgresBehindRelay.POSTGRES;
    static final String QUESTIONS = """
            [{"id":"q1","type":"SINGLE","prompt":"2+2?","options":["3","4"],"points":2,"key":"4"}]
            """;

    @Inject
    SharedRedisDataSource redis;

    @AfterEach
    void restore() {
        POSTGRES.restore();
    }

    @Test
    void whilePostgresIsGoneTheEndpointsAnswer503AndTheServiceRecoversByItself() {
        String examId = Fixture.exam(QUESTIONS, 1);
        Submitted graded = Fixture.submit(redis, examId, Map.of("q1", "4"));
        String sagaId = Fixture.awaitStatus(graded.paperId(), "GRADED").getString("sagaId");
        Submitted other = Fixture.submit(redis, Fixture.exam(QUESTIONS, 1), Map.of("q1", "4")); // for every endpoint, in its own exam
        String otherSaga = Fixture.awaitStatus(other.paperId(), "GRADED").getString("sagaId");

        POSTGRES.cut();
        unavailable(get("/api/v1/results/" + graded.paperId()));
        unavailable(get("/api/v1/results/exams/" + examId));
        unavailable(get("/api/v1/results/exams/" + examId + "/statistics"));
        unavailable(get("/api/v1/results/exams/" + examId + "/export?format=json"));
        unavailable(get("/api/v1/sagas/" + sagaId));
        unavailable(get("/api/v1/archive/head"));
        neverA500(Endpoints.all(other, otherSaga));
        Submitted duringOutage = Fixture.submit(redis, examId, Map.of("q1", "3"));

        POSTGRES.restore();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                .until(() -> get("/api/v1/results/" + graded.paperId()).extract().statusCode() == 200);
        get("/api/v1/results/" + graded.paperId()).statusCode(200).body("status", equalTo("GRADED"));
        get("/api/v1/results/exams/" + examId).statusCode(200);
        get("/api/v1/results/exams/" + examId + "/statistics").statusCode(200);
        get("/api/v1/sagas/" + sagaId).statusCode(200).body("status", equalTo("COMPLETED"));
        get("/api/v1/archive/head").statusCode(200);
        assertEquals(0.0, Fixture.awaitStatus(duringOutage.paperId(), "GRADED").getDouble("score"), 1e-9);
    }

    static ValidatableResponse get(String path) {
        return given().auth().oauth2(TestTokens.operator()).get(path).then();
    }
}
