package org.examsuite.submission.submit;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.examsuite.common.redis.RedisKeys;
import org.examsuite.submission.paper.SubmitGate;
import org.examsuite.submission.support.Stubs;
import org.examsuite.submission.support.SubmissionTestBase;
import org.examsuite.testing.TestKeys;
import org.examsuite.testing.TestTokens;
import org.junit.jupiter.api.Test;

/** POST /api/v1/submissions: the order of checks of docs/api.md §3.4, and bad input. */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(Stubs.class)
class SubmissionContractTest extends SubmissionTestBase {

    @Test
    void missingOrBlankKeyIs400() {
        Session s = session();
        submit(s, null, sheet(s.id(), "q1", "\"4\"", 1)).statusCode(400).contentType("application/problem+json")
                .body("code", equalTo("IDEMPOTENCY_KEY_MISSING"));
        submit(s, " ", sheet(s.id(), "q1", "\"4\"", 1)).statusCode(400).body("code", equalTo("IDEMPOTENCY_KEY_MISSING"));
        assertEquals(0, paperCount(s));
    }

    @Test
    void firstSubmitStoresThePaperAndTheSameRequestIsReplayed() {
        Session s = session();
        String body = sheet(s.id(), "q1", "\"4\"", 3, "q2", "[\"2\",\"5\"]", 4);
        Response first = submit(s, "k-1", body).statusCode(201)
                .header("Idempotent-Replayed", nullValue())
                .body("sessionId", equalTo(s.id()))
                .body("submittedBy", equalTo("CANDIDATE"))
                .body("answers.q1.value", equalTo("4"))
                .body("answers.q1.version", equalTo(3))
                .body("answers.q1.epoch", equalTo(1))
                .body("answerCount", equalTo(2))
                .body("lateChanges", equalTo(0))
                .body("digest", matchesPattern("[0-9a-f]{64}"))
                .body("signature", notNullValue())
                .extract().response();
        String paperId = first.path("paperId");
        assertEquals("/api/v1/submissions/" + paperId, java.net.URI.create(first.header("Location")).getPath());

        // The same key and the same body — even spelled differently (RFC 8785 fingerprint).
        String respelled = "{ \"answers\": {\"q2\": {\"version\": 4, \"value\": [\"2\", \"5\"]}, \"q1\": {\"value\": \"4\", "
                + "\"version\": 3.0}}, \"sessionId\": \"" + s.id() + "\" }";
        for (String again : new String[] {body, respelled}) {
            Response replay = submit(s, "k-1", again).statusCode(201).header("Idempotent-Replayed", equalTo("true"))
                    .body("paperId", equalTo(paperId)).extract().response();
            assertEquals(first.asString(), replay.asString());
        }
        assertEquals(1, paperCount(s));
        // Kept at least 24 hours, scoped to the candidate.
        long ttl = redis.key().pttl(SubmitGate.idempotencyKey(s.id(), s.examId(), s.candidateId(), "k-1"));
        assertTrue(ttl > Duration.ofHours(24).toMillis(), "kept " + ttl + " ms");
        Session other = session();
        submit(other, "k-1", sheet(other.id(), "q1", "\"4\"", 3)).statusCode(201)
                .header("Idempotent-Replayed", nullValue());
    }

    @Test
    void existingPaperIs200WhateverTheKeyAndBody() {
        Session s = session();
        String paperId = submit(s, "k-a", sheet(s.id(), "q1", "\"4\"", 1)).statusCode(201).extract().path("paperId");
        // Another key, another body: the paper that exists.
        submit(s, "k-b", sheet(s.id(), "q1", "\"3\"", 9)).statusCode(200).header("Idempotent-Replayed", nullValue())
                .body("paperId", equalTo(paperId)).body("answers.q1.value", equalTo("4"));
        // A reloaded client resubmitting with its old key and a newer body: 200 with the paper, not 422.
        submit(s, "k-a", sheet(s.id(), "q1", "\"3\"", 10)).statusCode(200).body("paperId", equalTo(paperId));
        // That 200 was stored for k-b: replayed as such.
        submit(s, "k-b", sheet(s.id(), "q1", "\"3\"", 9)).statusCode(200).header("Idempotent-Replayed", equalTo("true"))
                .body("paperId", equalTo(paperId));
        assertEquals(1, paperCount(s));
    }

    @Test
    void aPaperRedisForgotIsStillTheSessionsOnePaper() {
        Session s = session();
        String paperId = submit(s, "k-a", sheet(s.id(), "q1", "\"4\"", 1)).statusCode(201).extract().path("paperId");
        // Redis loses what it knew of the paper (a restart without persistence, an expired cache):
        // PostgreSQL's paper is the answer, to a candidate's new key and to the auto-submit alike.
        redis.key().del(RedisKeys.paper(s.id()), RedisKeys.finalSheet(s.id()), RedisKeys.submitLock(s.id()));
        submit(s, "k-b", sheet(s.id(), "q1", "\"3\"", 9)).statusCode(200).header("Idempotent-Replayed", nullValue())
                .body("paperId", equalTo(paperId)).body("answers.q1.value", equalTo("4"));
        redis.key().del(RedisKeys.paper(s.id()));
        autoSubmit(s, "AUTO").statusCode(200).body("paperId", equalTo(paperId)).body("submittedBy", equalTo("CANDIDATE"));
        submit(s, "k-b", sheet(s.id(), "q1", "\"3\"", 9)).statusCode(200).header("Idempotent-Replayed", equalTo("true"))
                .body("paperId", equalTo(paperId));
        assertEquals(1, paperCount(s));
    }

    /** Sends a submission whose seal answer-service holds until {@code held} opens; returns once the seal was called. */
    private CompletableFuture<Response> submitWithHeldSeal(Session s, String key, String body, CountDownLatch held) {
        Stubs.HELD_SEALS.put(s.id(), held);
        CompletableFuture<Response> first = CompletableFuture.supplyAsync(() -> submit(s, key, body).extract().response());
        await().atMost(Duration.ofSeconds(30)).until(() -> Stubs.SEAL_CALLS.getOrDefault(s.id(), new AtomicInteger()).get() >= 1);
        return first;
    }

    @Test
    void sameKeyInFlightIs409OtherBodyIs422OtherKeyWaitsForThePaper() throws Exception {
        Session s = session();
        CountDownLatch held = new CountDownLatch(1);
        String body = sheet(s.id(), "q1", "\"4\"", 1);
        CompletableFuture<Response> first = submitWithHeldSeal(s, "k-1", body, held);

        submit(s, "k-1", body).statusCode(409).contentType("application/problem+json")
                .header("Retry-After", notNullValue()).body("code", equalTo("REQUEST_IN_PROGRESS"));
        submit(s, "k-1", sheet(s.id(), "q1", "\"5\"", 2)).statusCode(422).contentType("application/problem+json")
                .body("code", equalTo("IDEMPOTENCY_KEY_REUSED"));
        CompletableFuture<Response> otherKey = CompletableFuture.supplyAsync(
                () -> submit(s, "k-2", sheet(s.id(), "q1", "\"5\"", 2)).extract().response());

        held.countDown();
        Response made = first.get();
        assertEquals(201, made.statusCode());
        Response waited = otherKey.get();
        assertEquals(200, waited.statusCode());
        assertEquals(made.<String>path("paperId"), waited.path("paperId"));
        assertEquals(1, Stubs.SEAL_CALLS.get(s.id()).get(), "the waiting request did not do the work again");
        assertEquals(1, paperCount(s));
        // Neither the 409 nor the 422 was stored: k-1 replays the 201.
        submit(s, "k-1", body).statusCode(201).header("Idempotent-Replayed", equalTo("true"));
    }

    @Test
    void aDoubleClickGetsTheFirstClicksResponseOnceItEndsWithinTheWait() throws Exception {
        Session s = session();
        CountDownLatch held = new CountDownLatch(1);
        String body = sheet(s.id(), "q1", "\"4\"", 1);
        CompletableFuture<Response> first = submitWithHeldSeal(s, "k-1", body, held);

        // The second click reaches the service while the first is in flight, which then ends
        // within exam.submission.in-flight-wait (3 s in tests): the first's 201, replayed — not a 409.
        CompletableFuture<Response> second = CompletableFuture.supplyAsync(() -> submit(s, "k-1", body).extract().response());
        Thread.sleep(300);
        held.countDown();
        Response made = first.get();
        Response replayed = second.get();
        assertEquals(201, made.statusCode());
        assertEquals(201, replayed.statusCode(), replayed.asString());
        assertEquals("true", replayed.header("Idempotent-Replayed"));
        assertEquals(made.<String>path("paperId"), replayed.path("paperId"));
        assertEquals(1, Stubs.SEAL_CALLS.get(s.id()).get());
        assertEquals(1, paperCount(s));
    }

    @Test
    void olderDeviceIsTakenOver() {
        Session s = session();
        publish(s, 2, clock.millis() + Duration.ofMinutes(30).toMillis());
        submit(s.token(1), "k-old", sheet(s.id(), "q1", "\"4\"", 1)).statusCode(409)
                .body("code", equalTo("SESSION_TAKEN_OVER"));
        submit(s.token(2), "k-new", sheet(s.id(), "q1", "\"4\"", 1)).statusCode(201).body("answers.q1.epoch", equalTo(2));
    }

    @Test
    void badInputIsRefusedAndStoresNothing() {
        Session s = session();
        String id = s.id();
        String[][] cases = {
                {"{\"sessionId\": ", "400", "MALFORMED_JSON"},
                {"", "400", "MALFORMED_JSON"},
                {"[1, 2]", "400", "INVALID_FIELD"},
                {"{\"sessionId\":\"" + id + "\"}", "400", "INVALID_FIELD"},
                {"{\"sessionId\":\"" + id + "\",\"answers\":[]}", "400", "INVALID_FIELD"},
                {"{\"sessionId\":\"" + id + "\",\"answers\":{},\"extra\":1}", "400", "INVALID_FIELD"},
                {"{\"sessionId\":7,\"answers\":{}}", "400", "INVALID_FIELD"},
                {sheet(id, "q1", "\"4\"", 0), "400", "INVALID_FIELD"},
                {sheet(id, "q1", "\"4\"", "9007199254740992"), "400", "INVALID_FIELD"},
                {sheet(id, "q1", "\"4\"", "1.5"), "400", "INVALID_FIELD"},
                {sheet(id, "q1", "\"4\"", "\"1\""), "400", "INVALID_FIELD"},
                {sheet(id, "q1", "{\"a\":1}", 1), "400", "INVALID_FIELD"},
                {sheet(id, "q1", "[1,2]", 1), "400", "INVALID_FIELD"},
                {sheet(id, "q{1}", "\"4\"", 1), "400", "INVALID_FIELD"},
                {"{\"sessionId\":\"" + id + "\",\"answers\":{\"q1\":{\"value\":1}}}", "400", "INVALID_FIELD"},
                {sheet(id, "q1", "\"" + "x".repeat(70_000) + "\"", 1), "413", "PAYLOAD_TOO_LARGE"},
        };
        for (String[] c : cases) {
            submit(s, "k-bad", c[0]).statusCode(Integer.parseInt(c[1])).contentType("application/problem+json")
                    .body("code", equalTo(c[2]));
        }
        StringBuilder many = new StringBuilder();
        Object[] answers = new Object[501 * 3];
        for (int i = 0; i < 501; i++) {
            answers[3 * i] = "q" + i;
            answers[3 * i + 1] = "true";
            answers[3 * i + 2] = 1;
        }
        submit(s, "k-bad", sheet(id, answers)).statusCode(413).body("code", equalTo("PAYLOAD_TOO_LARGE"));
        many.append("x".repeat(1_100_000));
        submit(s, "k-bad", sheet(id, "q1", "\"" + many + "\"", 1)).statusCode(413).contentType("application/problem+json");
        assertEquals(0, paperCount(s));
        assertEquals(0, redis.key().exists(RedisKeys.finalSheet(id)) ? 1 : 0);
        // None of it took the key: a good request with it works.
        submit(s, "k-bad", sheet(id, "q1", "\"4\"", 1)).statusCode(201);
    }

    /**
     * ./exam fuzz (seed 233290759494633) found a version of {@code 1e400} answered 500: Jackson reads
     * it as an infinite double, which has no decimal value. Every number that is not an integer in
     * [1, 2^53) is the client's mistake, refused as the 30-digit integer is.
     */
    @Test
    void aVersionThatIsNoIntegerInRangeIs400() {
        Session s = session();
        String id = s.id();
        String[] versions = {"1e400", "-1e400", "1E+400", "1e999999999", "123456789012345678901234567890", "1.5", "-1",
                "0", "1e-400", "1e19", "9007199254740992", "1e16", "\"NaN\"", "\"Infinity\"", "\"1e400\"", "null", "true"};
        for (String version : versions) {
            submit(s, "k-version", sheet(id, "q1", "\"4\"", version)).statusCode(400)
                    .contentType("application/problem+json")
                    .body("code", equalTo("INVALID_FIELD"))
                    .body("field", equalTo("answers.q1.version"));
        }
        // Not JSON at all: refused as such, never a 500.
        for (String version : new String[] {"NaN", "Infinity", "-Infinity"}) {
            submit(s, "k-version", sheet(id, "q1", "\"4\"", version)).statusCode(400)
                    .contentType("application/problem+json").body("code", equalTo("MALFORMED_JSON"));
        }
        // A value out of the double range is no number an answer can hold.
        submit(s, "k-version", sheet(id, "q1", "1e400", 1)).statusCode(400).contentType("application/problem+json")
                .body("code", equalTo("INVALID_FIELD")).body("field", equalTo("answers.q1.value"));
        assertEquals(0, paperCount(s));
        // The largest version and an integral float are versions.
        submit(s, "k-version", sheet(id, "q1", "\"4\"", "9.007199254740991e15")).statusCode(201)
                .body("answers.q1.version", equalTo(9007199254740991L));
    }

    @Test
    void answersAreCheckedAgainstTheExamsPublishedQuestions() {
        Session s = session();
        String questionsKey = RedisKeys.examQuestions(s.examId());
        redis.value(String.class).set(questionsKey, "{\"examId\":\"" + s.examId() + "\",\"questions\":["
                + "{\"id\":\"q1\",\"type\":\"SINGLE\",\"options\":[\"3\",\"4\"]},"
                + "{\"id\":\"q2\",\"type\":\"MULTIPLE\",\"options\":[\"2\",\"4\",\"5\"]},"
                + "{\"id\":\"q3\",\"type\":\"TRUE_FALSE\"},{\"id\":\"q5\",\"type\":\"NUMERIC\"},"
                + "{\"id\":\"q6\",\"type\":\"ESSAY\"}]}");
        try {
            submit(s, "k-1", sheet(s.id(), "q9", "\"4\"", 1)).statusCode(400).contentType("application/problem+json")
                    .body("code", equalTo("UNKNOWN_QUESTION")).body("questionId", equalTo("q9"));
            for (String[] wrong : new String[][] {{"q1", "\"7\""}, {"q1", "4"}, {"q2", "\"2\""}, {"q2", "[\"9\"]"},
                    {"q3", "\"true\""}, {"q5", "\"3.14\""}, {"q6", "[\"a\"]"}}) {
                submit(s, "k-1", sheet(s.id(), wrong[0], wrong[1], 1)).statusCode(400).body("code", equalTo("INVALID_ANSWER"))
                        .body("questionId", equalTo(wrong[0]));
            }
            assertEquals(0, paperCount(s));
            submit(s, "k-1", sheet(s.id(), "q1", "\"4\"", 1, "q2", "[\"2\",\"5\"]", 1, "q3", "false", 1, "q5", "3.14", 1,
                    "q6", "null", 1)).statusCode(201).body("answerCount", equalTo(4));
        } finally {
            redis.key().del(questionsKey);
        }
    }

    @Test
    void withPoolsASheetMayAnswerOnlyTheSessionsDraw() {
        Session s = session();
        String questionsKey = RedisKeys.examQuestions(s.examId());
        redis.value(String.class).set(questionsKey, "{\"examId\":\"" + s.examId() + "\",\"questions\":["
                + "{\"id\":\"p1\",\"type\":\"TRUE_FALSE\"},{\"id\":\"p2\",\"type\":\"TRUE_FALSE\"},"
                + "{\"id\":\"p3\",\"type\":\"TRUE_FALSE\"},{\"id\":\"q3\",\"type\":\"TRUE_FALSE\"}],"
                + "\"pools\":[{\"id\":\"p\",\"draw\":1,\"questionIds\":[\"p1\",\"p2\",\"p3\"]}]}");
        try {
            java.util.List<String> pool = java.util.List.of("p1", "p2", "p3");
            java.util.Set<String> drawn = org.examsuite.common.order.CandidateOrder.drawn(
                    org.examsuite.common.order.CandidateOrder.seedOf(s.id()), java.util.List.of("p1", "p2", "p3", "q3"),
                    java.util.List.of(new org.examsuite.common.order.CandidateOrder.Pool("p", 1, pool)));
            String given = pool.stream().filter(drawn::contains).findFirst().orElseThrow();
            String notGiven = pool.stream().filter(id -> !drawn.contains(id)).findFirst().orElseThrow();
            submit(s, "k-1", sheet(s.id(), notGiven, "true", 1)).statusCode(400).body("code", equalTo("UNKNOWN_QUESTION"))
                    .body("questionId", equalTo(notGiven));
            assertEquals(0, paperCount(s));
            submit(s, "k-1", sheet(s.id(), given, "true", 1, "q3", "false", 1)).statusCode(201).body("answerCount", equalTo(2));
        } finally {
            redis.key().del(questionsKey);
        }
    }

    @Test
    void aCandidateReachesOnlyItsOwnSession() {
        Session mine = session();
        Session theirs = session();
        submit(mine, "k-1", sheet(theirs.id(), "q1", "\"4\"", 1)).statusCode(403).contentType("application/problem+json")
                .body("code", equalTo("FORBIDDEN"));
        // A token of the right session id but another exam/candidate than the published state.
        submit(TestTokens.candidate(mine.id(), theirs.examId(), theirs.candidateId(), 1), "k-1",
                sheet(mine.id(), "q1", "\"4\"", 1)).statusCode(403);
        submit(TestTokens.operator(), "k-1", sheet(mine.id(), "q1", "\"4\"", 1)).statusCode(403);
        given().contentType(ContentType.JSON).header("Idempotency-Key", "k").body(sheet(mine.id(), "q1", "1", 1))
                .post("/api/v1/submissions").then().statusCode(401).contentType("application/problem+json");
        assertEquals(0, paperCount(mine) + paperCount(theirs));
    }

    @Test
    void unknownSessionIs404AndMissingStateIsAskedFor() {
        Session known = session();
        redis.key().del(RedisKeys.sessionState(known.id()));
        Stubs.publisher = id -> {
            if (id.equals(known.id())) {
                publish(known, 1, clock.millis() + 600_000);
                return true;
            }
            return false;
        };
        try {
            submit(known, "k-1", sheet(known.id(), "q1", "\"4\"", 1)).statusCode(201);
            Session unknown = new Session("s-unknown-" + java.util.UUID.randomUUID(), "e-x", "c-x", 1);
            submit(unknown, "k-1", sheet(unknown.id(), "q1", "\"4\"", 1)).statusCode(404)
                    .contentType("application/problem+json").body("code", equalTo("SESSION_NOT_FOUND"));
        } finally {
            Stubs.publisher = id -> false;
        }
    }

    @Test
    void aPaperIsReadByItsCandidateOrAnOperator() {
        Session s = session();
        Session other = session();
        String paperId = submit(s, "k-1", sheet(s.id(), "q1", "\"4\"", 1)).statusCode(201).extract().path("paperId");
        given().auth().oauth2(s.token()).get("/api/v1/submissions/" + paperId).then().statusCode(200)
                .body("paperId", equalTo(paperId)).body("answers.q1.value", equalTo("4"));
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/submissions/" + paperId).then().statusCode(200);
        given().auth().oauth2(other.token()).get("/api/v1/submissions/" + paperId).then().statusCode(403)
                .contentType("application/problem+json");
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/submissions/" + java.util.UUID.randomUUID()).then()
                .statusCode(404).body("code", equalTo("PAPER_NOT_FOUND"));
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/submissions/not-a-uuid").then().statusCode(404);
    }
}
