package org.examsuite.submission.outage;

import static org.awaitility.Awaitility.await;
import static org.examsuite.testing.Outages.unavailable;
import static org.examsuite.testing.Outages.neverA500;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.time.Duration;
import org.examsuite.submission.support.Stubs;
import org.examsuite.submission.support.SubmissionTestBase;
import org.examsuite.testing.CuttableProxy;
import org.examsuite.testing.PostgresBehindRelay;
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
@TestProfile(PostgresBehindRelay.class)
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(Stubs.class)
class PostgresOutageTest extends SubmissionTestBase {
    static final CuttableProxy POSTGRES = PostgresBehindRelay.POSTGRES;

    @AfterEach
    void restore() {
        POSTGRES.restore();
    }

    @Test
    void whilePostgresIsGoneASubmissionAnswers503AndItsRetryLaterGetsTheOnePaper() {
        Session s = session();
        String body = sheet(s.id(), "q1", "\"4\"", 1);
        Session other = session(); // for every other endpoint, on its paper
        String paperId = submit(other, "k-other", sheet(other.id(), "q1", "\"4\"", 1)).statusCode(201).extract().path("paperId");

        POSTGRES.cut();
        unavailable(submit(s, "k-outage", body));
        neverA500(Endpoints.all(other, paperId));

        POSTGRES.restore();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                .until(() -> submit(s, "k-outage", body).extract().statusCode() == 201);
        submit(s, "k-outage", body).statusCode(201).header("Idempotent-Replayed", "true").body("sessionId", equalTo(s.id()));
        assertEquals(1, paperCount(s));
    }
}
