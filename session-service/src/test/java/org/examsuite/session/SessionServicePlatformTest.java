package org.examsuite.session;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.examsuite.testing.PlatformContract;
import org.examsuite.testing.TestKeys;
import org.junit.jupiter.api.Test;

/** The platform contract, plus what is session-service's own: its metric and its API in OpenAPI. */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(SubmissionStub.class)
class SessionServicePlatformTest extends PlatformContract {

    @Test
    void activeSessionsGaugeIsAlwaysExported() {
        given().get("/q/metrics").then().statusCode(200)
                .body(containsString("# TYPE exam_sessions_active gauge"));
    }

    @Test
    void openApiDescribesTheSessionApi() {
        given().accept("application/json").get("/q/openapi").then().statusCode(200)
                .body(containsString("/api/v1/exams/{examId}/candidates"))
                .body(containsString("/api/v1/sessions/{sessionId}/heartbeat"))
                .body(containsString("/api/v1/exams/{examId}/monitor"));
    }
}
