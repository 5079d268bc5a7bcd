package org.examsuite.testing;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

import org.examsuite.common.auth.Roles;
import org.junit.jupiter.api.Test;

/**
 * What every service promises regardless of its job (docs/api.md §4–5): health that is ready
 * only with PostgreSQL and Redis, Prometheus metrics, OpenAPI, and problem+json for paths
 * and methods nobody serves. Each service's test class extends this with
 * {@code @QuarkusTest @QuarkusTestResource(TestKeys.class)}.
 */
public abstract class PlatformContract {

    @Test
    void readinessChecksPostgresAndRedis() {
        given().when().get("/q/health/ready").then()
                .statusCode(200)
                .body("status", equalTo("UP"))
                .body(containsString("Redis"))
                .body(containsString("Reactive PostgreSQL"));
    }

    @Test
    void livenessAnswers() {
        given().when().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));
    }

    @Test
    void metricsArePrometheusText() {
        given().when().get("/q/metrics").then().statusCode(200).body(containsString("jvm_memory_used_bytes"));
    }

    @Test
    void requestTimesArePublishedWithHistogramBuckets() {
        // The golden-signal alerts and the dashboard (k8s/) compute p95/p99 from these buckets
        // (suite-common's HttpServerHistograms); the autoscalers read the _count series.
        given().when().get("/api/v1/no-such-thing").then().statusCode(404);
        given().when().get("/q/metrics").then().statusCode(200)
                .body(containsString("http_server_requests_seconds_count{"))
                .body(containsString("http_server_requests_seconds_bucket{"))
                .body(containsString("le=\"0.5\""));
    }

    @Test
    void openApiIsServed() {
        given().accept("application/json").when().get("/q/openapi").then().statusCode(200).body(containsString("openapi"));
    }

    @Test
    void unknownApiPathIsProblemJson() {
        given().when().get("/api/v1/no-such-thing").then()
                .statusCode(404)
                .contentType("application/problem+json")
                .body("status", equalTo(404))
                .body("code", equalTo("NOT_FOUND"))
                .body("type", not(equalTo(null)))
                .body("title", not(equalTo(null)));
    }

    @Test
    void unknownInternalPathIsProblemJson() {
        given().auth().oauth2(TestTokens.service(Roles.SESSION_SERVICE)).when().get("/internal/v1/no-such-thing").then()
                .statusCode(404)
                .contentType("application/problem+json")
                .body("code", equalTo("NOT_FOUND"));
    }
}
