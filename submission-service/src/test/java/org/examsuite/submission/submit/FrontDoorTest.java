package org.examsuite.submission.submit;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.examsuite.common.redis.RedisKeys;
import org.examsuite.submission.support.Stubs;
import org.examsuite.submission.support.SubmissionTestBase;
import org.examsuite.testing.TestKeys;
import org.junit.jupiter.api.Test;

/**
 * The replica's outermost limit: over {@code exam.submission.max-in-flight} held requests a
 * submission is refused at once with 503 + Retry-After, unread — nothing of it is kept or
 * stored — and the requests already held finish as before.
 */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(Stubs.class)
class FrontDoorTest extends SubmissionTestBase {
    @Inject
    FrontDoor frontDoor;

    @Test
    void overTheLimitARequestIsRefusedUnreadAndTheHeldOnesFinish() throws Exception {
        Session held = session();
        Session refused = session();
        CountDownLatch seal = new CountDownLatch(1);
        Stubs.HELD_SEALS.put(held.id(), seal);
        frontDoor.limit(1);
        try {
            CompletableFuture<Response> first = CompletableFuture.supplyAsync(
                    () -> submit(held, "k-held", sheet(held.id(), "q1", "\"4\"", 1)).extract().response());
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> Stubs.SEAL_CALLS.getOrDefault(held.id(), new AtomicInteger()).get() >= 1);
            assertEquals(1, frontDoor.inFlight());

            submit(refused, "k-refused", sheet(refused.id(), "q1", "\"7\"", 3)).statusCode(503)
                    .contentType("application/problem+json")
                    .header("Retry-After", notNullValue())
                    .header("Connection", "close")
                    .body("code", equalTo("SUBMISSIONS_OVERLOADED"));
            // Unread: no sheet kept, no idempotency record, no paper for the refused session.
            assertFalse(redis.key().exists(RedisKeys.finalSheet(refused.id())), "a refused request kept no sheet");
            assertEquals(0, paperCount(refused));

            seal.countDown();
            assertEquals(201, first.get().statusCode());
        } finally {
            frontDoor.limit(512);
            seal.countDown();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> frontDoor.inFlight() == 0);
        // Once there is room again the refused client's retry goes through.
        submit(refused, "k-refused", sheet(refused.id(), "q1", "\"7\"", 3)).statusCode(201);
    }
}
