package org.examsuite.submission.outbox;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.vertx.mutiny.redis.client.Response;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.Signature;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.examsuite.submission.paper.Canonical;
import org.examsuite.submission.support.Stubs;
import org.examsuite.submission.support.SubmissionTestBase;
import org.examsuite.testing.TestKeys;
import org.examsuite.common.auth.Roles;
import org.examsuite.testing.TestTokens;
import org.junit.jupiter.api.Test;

/**
 * The transactional outbox: a paper committed but not yet published (the process "crashed"
 * before the relay ran) is published by a later run; it is published again until
 * grading-saga confirms; session-service is told; the trace goes on in the message.
 */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(Stubs.class)
class OutboxRelayTest extends SubmissionTestBase {
    @Inject
    OutboxRelay relay;
    @ConfigProperty(name = "exam.papers.stream")
    String stream;
    @ConfigProperty(name = "exam.outbox.republish-after")
    Duration republishAfter;

    @Test
    void aPaperCommittedBeforeACrashIsPublishedByTheNextRunWithItsTrace() {
        Session s = session();
        String paperId = submit(s, "k-1", sheet(s.id(), "q1", "\"4\"", 1)).statusCode(201).extract().path("paperId");
        assertTrue(messagesFor(paperId).isEmpty(), "nothing published before the relay ran");
        assertFalse(Stubs.SUBMITTED_CALLS.containsKey(s.id()));

        drain();

        List<Map<String, String>> messages = messagesFor(paperId);
        assertEquals(1, messages.size());
        Map<String, String> message = messages.get(0);
        assertEquals(s.id(), message.get("sessionId"));
        assertEquals(s.examId(), message.get("examId"));
        // One trace: the HTTP request, its seal call and the stream message share the trace id.
        String sealTrace = traceId(Stubs.SEAL_TRACEPARENTS.get(s.id()).get(0));
        assertNotNull(message.get("traceparent"));
        assertEquals(sealTrace, traceId(message.get("traceparent")));
        // session-service was told, in the same trace, and is not told again.
        assertEquals(1, Stubs.SUBMITTED_CALLS.get(s.id()).size());
        assertEquals(sealTrace, traceId(Stubs.SUBMITTED_TRACEPARENTS.get(s.id()).get(0)));
        drain();
        assertEquals(1, Stubs.SUBMITTED_CALLS.get(s.id()).size());
        assertEquals(1, messagesFor(paperId).size(), "not republished before republish-after");
    }

    @Test
    void relaysOnTwoReplicasNeverSendTheSameRowTwice() throws Exception {
        List<String> paperIds = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            Session s = session();
            paperIds.add(submit(s, "k-1", sheet(s.id(), "q1", "\"4\"", 1)).statusCode(201).extract().path("paperId"));
        }
        java.util.concurrent.ExecutorService replicas = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            java.util.concurrent.Future<?> a = replicas.submit(this::drain);
            java.util.concurrent.Future<?> b = replicas.submit(this::drain);
            a.get();
            b.get();
        } finally {
            replicas.shutdownNow();
        }
        for (String paperId : paperIds) {
            assertEquals(1, messagesFor(paperId).size(), "paper " + paperId + " published once");
        }
    }

    @Test
    void unconfirmedPapersArePublishedAgainUntilGradingStarts() {
        Session s = session();
        String paperId = submit(s, "k-1", sheet(s.id(), "q1", "\"4\"", 1)).statusCode(201).extract().path("paperId");
        drain();
        assertEquals(1, messagesFor(paperId).size());

        clock.advance(republishAfter.plusSeconds(1));
        drain();
        assertEquals(2, messagesFor(paperId).size(), "published again: grading-saga did not confirm");

        for (int i = 0; i < 2; i++) {
            given().auth().oauth2(TestTokens.service(Roles.GRADING_SAGA)).post("/internal/v1/papers/" + paperId + "/grading-started").then()
                    .statusCode(204);
        }
        clock.advance(republishAfter.plusSeconds(1));
        drain();
        assertEquals(2, messagesFor(paperId).size(), "confirmed papers are not published again");
    }

    @Test
    void sessionServiceIsToldUntilItAnswers() {
        Session s = session();
        Stubs.FAILING_SUBMITTED.add(s.id());
        try {
            String paperId = submit(s, "k-1", sheet(s.id(), "q1", "\"4\"", 1)).statusCode(201).extract().path("paperId");
            drain();
            assertEquals(1, Stubs.SUBMITTED_CALLS.get(s.id()).size());
            assertTrue(Stubs.SUBMITTED_CALLS.get(s.id()).get(0).contains(paperId));
            drain();
            assertEquals(1, Stubs.SUBMITTED_CALLS.get(s.id()).size(), "retried after a backoff, not at once");
            Stubs.FAILING_SUBMITTED.remove(s.id());
            clock.advance(Duration.ofSeconds(5));
            drain();
            assertEquals(2, Stubs.SUBMITTED_CALLS.get(s.id()).size());
            clock.advance(Duration.ofMinutes(10));
            drain();
            assertEquals(2, Stubs.SUBMITTED_CALLS.get(s.id()).size(), "done once session-service answered");
        } finally {
            Stubs.FAILING_SUBMITTED.remove(s.id());
        }
    }

    @Test
    void internalPaperIsSignedAndVerifies() throws Exception {
        Session s = session();
        String paperId = submit(s, "k-1", sheet(s.id(), "q1", "3.140", 1, "q2", "[\"2\",\"5\"]", 2)).statusCode(201)
                .extract().path("paperId");
        String body = given().auth().oauth2(TestTokens.service(Roles.GRADING_SAGA)).get("/internal/v1/papers/" + paperId).then()
                .statusCode(200)
                .body("paperId", equalTo(paperId)).body("sessionId", equalTo(s.id())).body("examId", equalTo(s.examId()))
                .body("candidateId", equalTo(s.candidateId())).body("submittedBy", equalTo("CANDIDATE"))
                .body("answers.q2.epoch", equalTo(1)).body("answerCount", equalTo(2)).body("lateChanges", equalTo(0))
                .extract().asString();
        JsonPath paper = JsonPath.from(body);
        String digest = paper.getString("digest");
        String signature = paper.getString("signature");
        // digest = SHA-256 of the RFC 8785 form of the paper without digest and signature.
        String withoutProof = body.replace(",\"digest\":\"" + digest + "\"", "").replace(",\"signature\":\"" + signature + "\"", "");
        assertEquals(Canonical.sha256Hex(Canonical.json(withoutProof)), digest);
        Signature rsa = Signature.getInstance("SHA256withRSA");
        rsa.initVerify(TestKeys.PAPER.getPublic());
        rsa.update(digest.getBytes(StandardCharsets.UTF_8));
        assertTrue(rsa.verify(Base64.getDecoder().decode(signature)));

        given().auth().oauth2(s.token()).get("/internal/v1/papers/" + paperId).then().statusCode(403);
        given().auth().oauth2(TestTokens.operator()).get("/internal/v1/papers/" + paperId).then().statusCode(403);
        given().auth().oauth2(TestTokens.service(Roles.GRADING_SAGA)).get("/internal/v1/papers/" + UUID.randomUUID()).then().statusCode(404)
                .body("code", equalTo("PAPER_NOT_FOUND"));
        given().auth().oauth2(TestTokens.service(Roles.GRADING_SAGA)).post("/internal/v1/papers/" + UUID.randomUUID() + "/grading-started")
                .then().statusCode(404);
    }

    @Test
    void aStoredPaperCannotBeChangedInTheDatabase() {
        Session s = session();
        String paperId = submit(s, "k-1", sheet(s.id(), "q1", "\"4\"", 1)).statusCode(201).extract().path("paperId");
        assertThrows(RuntimeException.class, () -> pool.preparedQuery("UPDATE papers SET submitted_by = 'AUTO' WHERE paper_id = $1")
                .execute(Tuple.of(UUID.fromString(paperId))).await().indefinitely());
        assertThrows(RuntimeException.class, () -> pool.preparedQuery("DELETE FROM papers WHERE paper_id = $1")
                .execute(Tuple.of(UUID.fromString(paperId))).await().indefinitely());
    }

    /** Relay runs until nothing is due (rows left by other tests included). */
    private void drain() {
        while (relay.runOnce() > 0) {
            // more due rows
        }
    }

    private List<Map<String, String>> messagesFor(String paperId) {
        Response entries = redis.execute("XRANGE", stream, "-", "+");
        List<Map<String, String>> found = new ArrayList<>();
        for (Response entry : entries) {
            Response fields = entry.get(1);
            Map<String, String> message = new HashMap<>();
            for (int i = 0; i + 1 < fields.size(); i += 2) {
                message.put(fields.get(i).toString(), fields.get(i + 1).toString());
            }
            if (paperId.equals(message.get("paperId"))) {
                found.add(message);
            }
        }
        return found;
    }

    private static String traceId(String traceparent) {
        return traceparent.split("-")[1];
    }
}
