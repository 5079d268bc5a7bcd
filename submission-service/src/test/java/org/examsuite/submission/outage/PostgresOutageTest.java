package org.examsuite.submission.outage;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Map;
import org.examsuite.submission.support.Stubs;
import org.examsuite.submission.support.SubmissionTestBase;
import org.examsuite.testing.CuttableProxy;
import org.examsuite.testing.TestKeys;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL goes away under a running submission-service (connections reset, new ones
 * refused, as in an immediate restart) and comes back: meanwhile a submission answers 503
 * problem+json with Retry-After — never 500 — and the client's retry with the same
 * Idempotency-Key afterwards gets the session's one paper, from the same service, unrestarted.
 */
@QuarkusTest
@TestProfile(PostgresOutageTest.BehindACuttableRelay.class)
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(Stubs.class)
class PostgresOutageTest extends SubmissionTestBase {
    static final CuttableProxy POSTGRES = relayToTestPostgres();

    public static class BehindACuttableRelay implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            String database = System.getenv().getOrDefault("EXAM_TEST_DB_NAME", "exam_test");
            return Map.of("quarkus.datasource.reactive.url", "postgresql://127.0.0.1:" + POSTGRES.port() + "/" + database);
        }
    }

    @AfterEach
    void restore() {
        POSTGRES.restore();
    }

    @Test
    void whilePostgresIsGoneASubmissionAnswers503AndItsRetryLaterGetsTheOnePaper() {
        Session s = session();
        String body = sheet(s.id(), "q1", "\"4\"", 1);

        POSTGRES.cut();
        submit(s, "k-outage", body).statusCode(503).contentType("application/problem+json")
                .header("Retry-After", notNullValue()).body("code", equalTo("SERVICE_UNAVAILABLE"));

        POSTGRES.restore();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                .until(() -> submit(s, "k-outage", body).extract().statusCode() == 201);
        submit(s, "k-outage", body).statusCode(201).header("Idempotent-Replayed", "true").body("sessionId", equalTo(s.id()));
        assertEquals(1, paperCount(s));
    }

    private static CuttableProxy relayToTestPostgres() {
        try {
            return new CuttableProxy(System.getenv().getOrDefault("EXAM_DB_HOST", "127.0.0.1"),
                    Integer.parseInt(System.getenv().getOrDefault("EXAM_DB_PORT", "5432")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
