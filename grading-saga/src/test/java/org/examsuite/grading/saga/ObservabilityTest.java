package org.examsuite.grading.saga;

import org.examsuite.common.redis.SharedRedisDataSource;
import static io.restassured.RestAssured.given;
import static org.examsuite.grading.Fixture.awaitStatus;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.UUID;
import org.examsuite.grading.Fixture;
import org.examsuite.grading.Fixture.Submitted;
import org.examsuite.grading.StubServices;
import org.examsuite.testing.TestKeys;
import org.junit.jupiter.api.Test;

/** The saga's metrics (docs/api.md §5) and the trace continued from the stream message. */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(StubServices.class)
class ObservabilityTest {
    @Inject
    SharedRedisDataSource redis;
    @Inject
    SagaStore sagas;

    @Test
    void sagaOutcomesAndStepDurationsAreMetricsAndTheTraceContinues() {
        String examId = Fixture.exam("[{\"id\":\"q1\",\"type\":\"TRUE_FALSE\",\"points\":1,\"key\":true}]", 1);
        Submitted paper = Fixture.paper(examId, Map.of("q1", true));
        String traceId = UUID.randomUUID().toString().replace("-", "");
        redis.stream(String.class).xadd(org.eclipse.microprofile.config.ConfigProvider.getConfig()
                .getValue("exam.papers.stream", String.class), Map.of("paperId", paper.paperId(), "sessionId",
                paper.sessionId(), "examId", examId, "traceparent", "00-" + traceId + "-00f067aa0ba902b7-01"));
        String sagaId = awaitStatus(paper.paperId(), "GRADED").getString("sagaId");

        String traceparent = sagas.find(UUID.fromString(sagaId)).orElseThrow().traceparent();
        assertTrue(traceparent.startsWith("00-" + traceId + "-"), "the saga continues the producer's trace: " + traceparent);
        assertEquals(55, traceparent.length());

        given().get("/q/metrics").then().statusCode(200)
                .body(containsString("exam_saga_total{outcome=\"completed\"}"))
                .body(containsString("exam_saga_step_duration_seconds_count{step=\"grade\"}"))
                .body(containsString("exam_saga_step_duration_seconds_count{step=\"validate\"}"))
                .body(containsString("exam_saga_step_duration_seconds_count{step=\"archive\"}"));
    }
}
