package org.examsuite.session.outage;

import static org.awaitility.Awaitility.await;
import static org.examsuite.session.outage.RedisOutageTest.events;
import static org.examsuite.session.outage.RedisOutageTest.exam;
import static org.examsuite.session.outage.RedisOutageTest.heartbeat;
import static org.examsuite.session.outage.RedisOutageTest.session;
import static org.examsuite.testing.Outages.neverA500;
import static org.examsuite.testing.Outages.unavailable;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import org.examsuite.session.Fixtures;
import org.examsuite.session.Fixtures.Started;
import org.examsuite.session.SubmissionStub;
import org.examsuite.session.TestClock;
import org.examsuite.testing.CuttableProxy;
import org.examsuite.testing.PostgresBehindRelay;
import org.examsuite.testing.TestKeys;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL goes away under a running session-service (connections reset, new ones refused, as
 * in an immediate restart or a failover) and comes back: meanwhile starting, reading and keeping
 * alive a session and reading an exam answer 503 problem+json with Retry-After — never 500 —
 * and afterwards the same requests succeed from the same service, unrestarted.
 */
@QuarkusTest
@TestProfile(PostgresBehindRelay.class)
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(SubmissionStub.class)
class PostgresOutageTest {
    static final CuttableProxy POSTGRES = PostgresBehindRelay.POSTGRES;

    @Inject
    TestClock clock;

    @AfterEach
    void restore() {
        POSTGRES.restore();
        clock.reset();
    }

    @Test
    void whilePostgresIsGoneItsEndpointsAnswer503AndTheServiceRecoversByItself() {
        String examId = Fixtures.openExam(clock.instant());
        Started s = Fixtures.startFresh(examId);
        String candidateId = Fixtures.newCandidateId();
        String code = Fixtures.enroll(examId, candidateId).get(0);
        Started other = Fixtures.startFresh(Fixtures.openExam(clock.instant())); // for every other endpoint, in its own exam

        POSTGRES.cut();
        unavailable(Fixtures.start(examId, candidateId, code).then());
        unavailable(session(s));
        unavailable(heartbeat(s));
        unavailable(exam(examId));
        neverA500(Endpoints.all(other, clock.instant()));

        POSTGRES.restore();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                .until(() -> session(s).extract().statusCode() == 200);
        session(s).statusCode(200).body("status", equalTo("IN_PROGRESS"));
        heartbeat(s).statusCode(200).body("sessionId", equalTo(s.sessionId()));
        exam(examId).statusCode(200).body("examId", equalTo(examId));
        events(s, "after").statusCode(202);
        Fixtures.start(examId, candidateId, code).then().statusCode(201).body("candidateId", equalTo(candidateId));
    }
}
