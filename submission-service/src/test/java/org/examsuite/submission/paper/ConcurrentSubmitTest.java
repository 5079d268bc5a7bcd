package org.examsuite.submission.paper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.examsuite.submission.support.Stubs;
import org.examsuite.submission.support.SubmissionTestBase;
import org.examsuite.testing.TestKeys;
import org.junit.jupiter.api.Test;

/** Exactly one paper per session, whatever races: double clicks, retries, devices and the auto-submit. */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(Stubs.class)
class ConcurrentSubmitTest extends SubmissionTestBase {

    @Test
    void fiftyConcurrentSubmitsWithMixedKeysAndAnAutoSubmitMakeOnePaper() throws Exception {
        Session s = session();
        Stubs.DRAFTS.put(s.id(), "{\"q1\":{\"value\":\"a\",\"version\":1,\"epoch\":1}}");
        ExecutorService pool = Executors.newFixedThreadPool(51);
        CountDownLatch start = new CountDownLatch(1);
        List<Callable<Response>> calls = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            // 10 keys, each sent 5 times (double clicks and retries); a key always with its own body.
            int k = i % 10;
            String body = sheet(s.id(), "q1", "\"b\"", 2, "q" + (k + 2), "\"x\"", k + 1);
            calls.add(() -> {
                start.await();
                return submit(s, "k-" + k, body).extract().response();
            });
        }
        calls.add(() -> {
            start.await();
            return autoSubmit(s, "AUTO").extract().response();
        });
        List<Future<Response>> futures = new ArrayList<>();
        try {
            for (Callable<Response> call : calls) {
                futures.add(pool.submit(call));
            }
            start.countDown();
            Set<String> paperIds = new HashSet<>();
            int created = 0;
            List<Response> wave = new ArrayList<>();
            for (Future<Response> future : futures) {
                wave.add(future.get());
            }
            for (int i = 0; i < wave.size(); i++) {
                Response response = wave.get(i);
                if (response.statusCode() == 409 || response.statusCode() == 429 || response.statusCode() == 503) {
                    // Same key still in flight (or, on a very slow machine, the wait bound passed):
                    // the client retries it, as docs/api.md §3.3 says — here once the wave is over, when
                    // nothing is in flight any more — and then gets the paper.
                    int k = i % 10;
                    response = i == 50 ? autoSubmit(s, "AUTO").extract().response() : submit(s, "k-" + k, sheet(s.id(), "q1", "\"b\"", 2, "q" + (k + 2), "\"x\"", k + 1))
                            .extract().response();
                }
                assertTrue(response.statusCode() == 200 || response.statusCode() == 201,
                        "request " + i + " answered " + response.statusCode() + " " + response.asString());
                if (response.statusCode() == 201 && !"true".equals(response.header("Idempotent-Replayed"))) {
                    created++;
                }
                String paperId = response.path("paperId");
                assertNotNull(paperId, "every response names the paper");
                paperIds.add(paperId);
            }
            assertEquals(1, paperIds.size(), "every response names the same paper");
            assertEquals(1, created, "exactly one request stored it");
            assertEquals(1, paperCount(s));
            assertEquals(1, Stubs.SEAL_CALLS.get(s.id()).get(), "the paper was built once");
        } finally {
            pool.shutdownNow();
        }
    }
}
