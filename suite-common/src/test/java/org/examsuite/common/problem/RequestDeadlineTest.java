package org.examsuite.common.problem;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

/**
 * A request this replica cannot answer in time (a store cut off) is answered 503 + Retry-After as problem+json, so
 * that the ingress sends it to another replica, instead of being held until the store answers. The test application
 * has deadlines of 0.5 s (reads) and 1 s (writes); its "stuck" endpoints answer after 2 s.
 */
@QuarkusTest
@QuarkusTestResource(StaticKeys.class)
class RequestDeadlineTest {
    @Inject
    MeterRegistry registry;

    private double exceeded(String kind) {
        var counter = registry.find("exam.http.deadline.exceeded").tag("kind", kind).counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void aReadNotAnsweredInTimeIsA503WithRetryAfter() {
        double before = exceeded("read");
        given().get("/api/v1/probe/stuck").then().statusCode(503)
                .header("Content-Type", equalTo("application/problem+json")).header("Retry-After", equalTo("1"))
                .body("code", equalTo("SERVICE_UNAVAILABLE"));
        org.junit.jupiter.api.Assertions.assertEquals(before + 1, exceeded("read"));
    }

    @Test
    void aWriteHasItsOwnDeadline() {
        given().contentType("application/json").body("{}").post("/api/v1/probe/stuck").then().statusCode(503)
                .header("Retry-After", equalTo("1")).body("code", equalTo("SERVICE_UNAVAILABLE"));
        org.hamcrest.MatcherAssert.assertThat(exceeded("write"), greaterThanOrEqualTo(1.0));
    }

    @Test
    void anExemptRouteAndAFastOneAreAnsweredAsTheyAre() {
        given().get("/api/v1/probe/unhurried/stuck").then().statusCode(200).body(equalTo("late"));
        given().get("/api/v1/probe/echo/a").then().statusCode(200).body(equalTo("a"));
    }

    @Test
    void theLateAnswerOfAnExpiredRequestDoesNotDisturbTheNextOnes() throws InterruptedException {
        given().get("/api/v1/probe/stuck").then().statusCode(503);
        Thread.sleep(2_500); // the stuck call completes and its answer is dropped
        for (int i = 0; i < 5; i++) {
            given().get("/api/v1/probe/echo/b" + i).then().statusCode(200).body(equalTo("b" + i));
        }
    }
}
