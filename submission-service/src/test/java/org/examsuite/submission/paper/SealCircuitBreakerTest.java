package org.examsuite.submission.paper;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.examsuite.submission.support.Stubs;
import org.examsuite.submission.support.SubmissionTestBase;
import org.examsuite.testing.TestKeys;
import org.junit.jupiter.api.Test;

/**
 * answer-service down: after enough failed seals the circuit opens, and submissions get 503
 * with Retry-After at once, without waiting on answer-service — then it closes again.
 */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(Stubs.class)
class SealCircuitBreakerTest extends SubmissionTestBase {

    @Test
    void anOpenCircuitAnswers503WithoutCallingAnswerServiceAndThenCloses() {
        Session down = session();
        Stubs.FAILING_SEALS.add(down.id());
        // Each submission tries the seal three times (two retries): 8 submissions fill the window.
        for (int i = 0; i < 8; i++) {
            submit(down, "k-" + i, sheet(down.id(), "q1", "\"4\"", 1)).statusCode(503)
                    .body("code", equalTo("ANSWER_SERVICE_UNAVAILABLE"));
        }
        Session healthy = session();
        submit(healthy, "k-1", sheet(healthy.id(), "q1", "\"4\"", 1)).statusCode(503)
                .header("Retry-After", notNullValue()).body("code", equalTo("ANSWER_SERVICE_UNAVAILABLE"));
        assertEquals(0, Stubs.SEAL_CALLS.getOrDefault(healthy.id(), new AtomicInteger()).get(),
                "the open circuit did not call answer-service");
        assertEquals(0, paperCount(healthy));
        // Half-open after the delay: healthy seals close it, and the client's retry gets its paper.
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(300)).until(() ->
                submit(healthy, "k-1", sheet(healthy.id(), "q1", "\"4\"", 1)).extract().statusCode() == 201);
        assertEquals(1, paperCount(healthy));
        // A second healthy seal closes the circuit fully (successThreshold 2) for the tests after this one.
        Session next = session();
        submit(next, "k-1", sheet(next.id(), "q1", "\"4\"", 1)).statusCode(201);
    }
}
