package org.examsuite.session.autosubmit;

import org.examsuite.common.redis.SharedRedisDataSource;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.examsuite.common.redis.RedisKeys;
import org.examsuite.session.Fixtures;
import org.examsuite.session.Fixtures.Started;
import org.examsuite.session.StubControl;
import org.examsuite.session.TestClock;
import org.examsuite.testing.TestTokens;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** docs/api.md §3.5 and issue 4: auto-submit at deadline + grace, once per session, under several replicas. */
@QuarkusTest
class AutoSubmitTest {
    @Inject
    TestClock clock;
    @Inject
    AutoSubmitter submitter;
    @Inject
    ClaimStore claims;
    @Inject
    Pool pool;
    @Inject
    SharedRedisDataSource redis;
    @ConfigProperty(name = "exam.test.submission-stub")
    String stubUrl;

    private StubControl stub;

    @BeforeEach
    void setUp() {
        clock.reset();
        stub = new StubControl(stubUrl);
    }

    /** A 60-second exam (the shortest allowed) with {@code count} started sessions. */
    private List<Started> sessions(int count) {
        Instant now = clock.instant();
        String examId = Fixtures.createExam(Fixtures.examBody(now.minus(Duration.ofMinutes(1)), now.plus(Duration.ofHours(2)), 60));
        List<Started> started = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            started.add(Fixtures.startFresh(examId));
        }
        return started;
    }

    private void pastDeadlineAndGrace() {
        clock.advance(Duration.ofSeconds(60 + 30 + 1));
    }

    @Test
    void nothingIsSubmittedBeforeDeadlinePlusGrace() {
        List<Started> started = sessions(1);
        // 10 s short of deadline + grace: the clock is real time plus the offset, and on a loaded CI machine more
        // than a second passed between the start and the run below (at 60 + 29 s the session was due: a flake)
        clock.advance(Duration.ofSeconds(60 + 20));
        submitter.runOnce("replica-a").await().indefinitely();
        assertEquals(0, stub.calls(started.get(0).sessionId()));
        given().auth().oauth2(started.get(0).token()).get("/api/v1/sessions/" + started.get(0).sessionId()).then()
                .body("status", equalTo("IN_PROGRESS")).body("remainingMs", equalTo(0));
    }

    @Test
    void twoReplicasSubmitEachExpiredSessionExactlyOnce() {
        List<Started> started = sessions(12);
        pastDeadlineAndGrace();
        CompletableFuture<Integer> a = submitter.runOnce("replica-a").subscribeAsCompletionStage();
        CompletableFuture<Integer> b = submitter.runOnce("replica-b").subscribeAsCompletionStage();
        CompletableFuture.allOf(a, b).join();
        for (Started s : started) {
            assertEquals(1, stub.calls(s.sessionId()), "auto-submit calls for " + s.sessionId());
            String call = stub.lastCall(s.sessionId());
            assertTrue(call.contains("\"submittedBy\":\"AUTO\""), call);
            assertServiceToken(call);
            given().auth().oauth2(TestTokens.operator()).get("/api/v1/sessions/" + s.sessionId()).then()
                    .body("status", equalTo("SUBMITTED")).body("paperId", equalTo("paper-" + s.sessionId()))
                    .body("submittedBy", equalTo("AUTO"));
            assertEquals("SUBMITTED", redis.hash(String.class).hget(RedisKeys.sessionState(s.sessionId()), "status"));
        }
        // another pass finds nothing left to do for these sessions
        submitter.runOnce("replica-b").await().indefinitely();
        started.forEach(s -> assertEquals(1, stub.calls(s.sessionId())));
    }

    @Test
    void concurrentClaimersNeverShareASession() {
        List<Started> started = sessions(10);
        pastDeadlineAndGrace();
        Instant now = clock.instant();
        Set<String> mine = new HashSet<>();
        started.forEach(s -> mine.add(s.sessionId()));
        List<String> byA = new ArrayList<>();
        List<String> byB = new ArrayList<>();
        // small batches, both claimers at once, until nothing is due
        for (int round = 0; round < 20; round++) {
            var claimedA = claims.claimDue(pool, now, now.plus(Duration.ofMinutes(2)), "a", 2).subscribeAsCompletionStage();
            var claimedB = claims.claimDue(pool, now, now.plus(Duration.ofMinutes(2)), "b", 2).subscribeAsCompletionStage();
            byA.addAll(claimedA.join());
            byB.addAll(claimedB.join());
        }
        Set<String> overlap = new HashSet<>(byA);
        overlap.retainAll(byB);
        assertTrue(overlap.isEmpty(), "claimed twice: " + overlap);
        Set<String> all = new HashSet<>(byA);
        all.addAll(byB);
        assertTrue(all.containsAll(mine), "every due session is claimed");
        assertEquals(byA.size() + byB.size(), all.size());
    }

    @Test
    void aCrashedReplicasClaimsAreRetriedWhenTheLeaseRunsOut() {
        List<Started> started = sessions(3);
        pastDeadlineAndGrace();
        Instant now = clock.instant();
        // replica "crashed" claims everything due and dies before submitting
        List<String> claimed = claims.claimDue(pool, now, now.plus(Duration.ofMinutes(2)), "crashed", 1000).await().indefinitely();
        started.forEach(s -> assertTrue(claimed.contains(s.sessionId())));
        submitter.runOnce("replica-b").await().indefinitely();
        started.forEach(s -> assertEquals(0, stub.calls(s.sessionId())));
        // the claim already forbids extensions
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON)
                .body(Map.of("seconds", 60, "reason", "too late")).post("/api/v1/sessions/" + started.get(0).sessionId() + "/extend")
                .then().statusCode(409).contentType("application/problem+json").body("code", equalTo("AUTO_SUBMIT_CLAIMED"));

        clock.advance(Duration.ofMinutes(2));
        submitter.runOnce("replica-b").await().indefinitely();
        started.forEach(s -> assertEquals(1, stub.calls(s.sessionId())));
        started.forEach(s -> given().auth().oauth2(TestTokens.operator()).get("/api/v1/sessions/" + s.sessionId()).then()
                .body("status", equalTo("SUBMITTED")));
    }

    @Test
    void aFailedSubmissionIsRetriedLater() {
        Started s = sessions(1).get(0);
        stub.fail(s.sessionId());
        pastDeadlineAndGrace();
        submitter.runOnce("replica-a").await().indefinitely();
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/sessions/" + s.sessionId()).then()
                .body("status", equalTo("IN_PROGRESS"));
        stub.recover(s.sessionId());
        submitter.runOnce("replica-a").await().indefinitely();
        assertEquals(0, stub.calls(s.sessionId()), "the lease still holds");
        clock.advance(Duration.ofMinutes(2));
        submitter.runOnce("replica-a").await().indefinitely();
        assertEquals(1, stub.calls(s.sessionId()));
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/sessions/" + s.sessionId()).then()
                .body("status", equalTo("SUBMITTED"));
    }

    @Test
    void operatorsForceSubmitThroughSubmissionService() {
        Started s = sessions(1).get(0);
        given().auth().oauth2(TestTokens.operator("op-dave")).post("/api/v1/sessions/" + s.sessionId() + "/force-submit").then()
                .statusCode(200).body("status", equalTo("SUBMITTED")).body("paperId", equalTo("paper-" + s.sessionId()))
                .body("submittedBy", equalTo("PROCTOR"));
        String call = stub.lastCall(s.sessionId());
        assertTrue(call.contains("\"submittedBy\":\"PROCTOR\""), call);
        assertTrue(call.contains("\"actor\":\"op-dave\""), call);
        // again: nothing new is asked of submission-service
        given().auth().oauth2(TestTokens.operator()).post("/api/v1/sessions/" + s.sessionId() + "/force-submit").then()
                .statusCode(200).body("status", equalTo("SUBMITTED"));
        assertEquals(1, stub.calls(s.sessionId()));
        given().auth().oauth2(s.token()).post("/api/v1/sessions/" + s.sessionId() + "/heartbeat").then()
                .statusCode(200).body("status", equalTo("SUBMITTED"))
                .body("commands.type", org.hamcrest.Matchers.hasItem("FORCE_SUBMITTED"));
        given().auth().oauth2(TestTokens.operator()).queryParam("sessionId", s.sessionId()).get("/api/v1/audit").then()
                .body("entries.action", equalTo(List.of("session.force-submitted", "session.force-submitted")))
                .body("entries[1].actor", equalTo("op-dave"));
        // submitted sessions are not auto-submitted again
        pastDeadlineAndGrace();
        submitter.runOnce("replica-a").await().indefinitely();
        assertEquals(1, stub.calls(s.sessionId()));
    }

    @Test
    void forceSubmitAnswers503WhenSubmissionServiceIsDown() {
        Started s = sessions(1).get(0);
        stub.fail(s.sessionId());
        given().auth().oauth2(TestTokens.operator()).post("/api/v1/sessions/" + s.sessionId() + "/force-submit").then()
                .statusCode(503).contentType("application/problem+json").body("code", equalTo("SUBMISSION_UNAVAILABLE"))
                .header("Retry-After", "5");
        stub.recover(s.sessionId());
        given().auth().oauth2(s.token()).post("/api/v1/sessions/" + s.sessionId() + "/force-submit").then().statusCode(403);
        given().auth().oauth2(TestTokens.operator()).post("/api/v1/sessions/" + java.util.UUID.randomUUID() + "/force-submit")
                .then().statusCode(404).body("code", equalTo("SESSION_NOT_FOUND"));
    }

    private static void assertServiceToken(String call) {
        String authorization = call.split("\n")[1];
        assertTrue(authorization.startsWith("Bearer "), authorization);
        String payload = new String(Base64.getUrlDecoder().decode(authorization.substring(7).split("\\.")[1]),
                StandardCharsets.UTF_8);
        assertTrue(payload.contains("\"aud\":\"exam-internal\""), payload);
        // session-service's own identity: its callee grants it only what session-service may call
        assertTrue(payload.contains("\"iss\":\"exam-suite/session-service\""), payload);
        assertTrue(payload.contains("\"sub\":\"session-service\""), payload);
    }
}
