package org.examsuite.answer.outage;

import static org.awaitility.Awaitility.await;
import static org.examsuite.answer.support.Fixtures.change;
import static org.examsuite.testing.Outages.neverA500;
import static org.examsuite.testing.Outages.unavailable;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import org.examsuite.answer.support.Fixtures;
import org.examsuite.answer.support.Fixtures.TestSession;
import org.examsuite.answer.support.SessionServiceStub;
import org.examsuite.testing.CuttableProxy;
import org.examsuite.testing.PostgresBehindRelay;
import org.examsuite.testing.TestKeys;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL goes away under a running answer-service (connections reset, new ones refused, as
 * in an immediate restart or a failover) and comes back. An open draft lives in Redis: its
 * autosaves and reads keep answering 200. Opening a new draft needs PostgreSQL (its generation
 * lives there): that answers 503 problem+json with Retry-After — never 500. Afterwards the new
 * draft opens from the same, unrestarted service, and the write-behind has carried what was
 * saved during the outage to PostgreSQL by itself.
 */
@QuarkusTest
@TestProfile(PostgresBehindRelay.class)
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(SessionServiceStub.class)
class PostgresOutageTest {
    static final CuttableProxy POSTGRES = PostgresBehindRelay.POSTGRES;

    @Inject
    Fixtures fixtures;

    @AfterEach
    void cleanUp() {
        POSTGRES.restore();
        fixtures.cleanUp();
    }

    @Test
    void whilePostgresIsGoneOpenDraftsKeepSavingNewOnesAnswer503AndTheServiceRecoversByItself() {
        TestSession open = fixtures.session();
        open.patch(change(1, "q4", "\"Paris\"")).statusCode(200);
        TestSession fresh = fixtures.session();
        TestSession other = fixtures.session(); // for every endpoint
        other.patch(change(1, "q4", "\"Paris\"")).statusCode(200);

        POSTGRES.cut();
        open.patch(change(2, "q4", "\"Lyon\"")).statusCode(200);
        open.draft().statusCode(200).body("answers.q4.value", equalTo("Lyon"));
        unavailable(fresh.patch(change(1, "q4", "\"Nice\"")));
        neverA500(Endpoints.all(other));

        POSTGRES.restore();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                .until(() -> fresh.patch(change(1, "q4", "\"Nice\"")).extract().statusCode() == 200);
        fresh.draft().statusCode(200).body("answers.q4.value", equalTo("Nice"));
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                .until(() -> fixtures.storedVersion(open, "q4") == 2);
    }
}
