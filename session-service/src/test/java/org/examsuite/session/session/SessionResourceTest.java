package org.examsuite.session.session;

import org.examsuite.common.redis.SharedRedisDataSource;
import static io.restassured.RestAssured.given;
import static org.examsuite.session.Fixtures.enroll;
import static org.examsuite.session.Fixtures.newCandidateId;
import static org.examsuite.session.Fixtures.start;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.lessThanOrEqualTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.IntStream;
import org.examsuite.common.redis.RedisKeys;
import org.examsuite.session.Fixtures;
import org.examsuite.session.Fixtures.Started;
import org.examsuite.session.TestClock;
import org.examsuite.common.auth.Roles;
import org.examsuite.testing.TestTokens;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
class SessionResourceTest {
    @Inject
    TestClock clock;
    @Inject
    SharedRedisDataSource redis;
    @Inject
    Pool pool;

    @BeforeEach
    void resetClock() {
        clock.reset();
    }

    private Instant now() {
        return clock.instant();
    }

    // --- enrollment

    @Test
    void enrollmentGivesStrongCodesStoredOnlyAsHashes() {
        String examId = Fixtures.openExam(now());
        String a = newCandidateId();
        String b = newCandidateId();
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON)
                .body(Map.of("candidates", List.of(Map.of("candidateId", a), Map.of("candidateId", b))))
                .post("/api/v1/exams/" + examId + "/candidates").then()
                .statusCode(201)
                .header("Cache-Control", "no-store")
                .body("candidates.candidateId", equalTo(List.of(a, b)))
                // 12 symbols of a 32-letter alphabet: 60 random bits
                .body("candidates.accessCode", everyItem(matchesPattern("[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}")));
        var row = pool.preparedQuery("SELECT code_hash, code_salt FROM candidate WHERE exam_id = $1 AND candidate_id = $2")
                .execute(Tuple.of(examId, a)).await().indefinitely().iterator().next();
        assertEquals(32, row.getBuffer("code_hash").length());
        assertEquals(16, row.getBuffer("code_salt").length());
        given().auth().oauth2(TestTokens.operator()).queryParam("examId", examId).get("/api/v1/audit").then()
                .body("entries[0].action", equalTo("candidates.enrolled")).body("entries[0].detail.count", equalTo(2));
    }

    @Test
    void enrollingAgainIssuesANewCodeAndTheOldOneStopsWorking() {
        String examId = Fixtures.openExam(now());
        String candidate = newCandidateId();
        String first = enroll(examId, candidate).get(0);
        String second = enroll(examId, candidate).get(0);
        assertNotEquals(first, second);
        start(examId, candidate, first).then().statusCode(401);
        start(examId, candidate, second.toLowerCase().replace("-", "")).then().statusCode(201);
    }

    @Test
    void aThousandCandidatesEnrollInOneRequest() {
        // The API's limit per request; one statement chained per candidate overflowed the
        // event loop's stack (-Xss256k in ./exam and the chart) from ~500 on, and the request hung.
        String examId = Fixtures.openExam(now());
        String[] ids = new String[1000];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = newCandidateId() + "-" + i;
        }
        List<String> codes = enroll(examId, ids);
        assertEquals(1000, codes.size());
        assertEquals(1000, Set.copyOf(codes).size());
        start(examId, ids[999], codes.get(999)).then().statusCode(201);
        List<String> again = enroll(examId, ids); // every one issued a new code
        start(examId, ids[0], codes.get(0)).then().statusCode(401);
        start(examId, ids[0], again.get(0)).then().statusCode(201);
    }

    @Test
    void enrollmentInputIsValidated() {
        String examId = Fixtures.openExam(now());
        String path = "/api/v1/exams/" + examId + "/candidates";
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON)
                .body(Map.of("candidates", List.of(Map.of("candidateId", "x"), Map.of("candidateId", "x"))))
                .post(path).then().statusCode(400).body("code", equalTo("VALIDATION_FAILED"));
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON)
                .body(Map.of("candidates", List.of(Map.of("candidateId", "no spaces please"))))
                .post(path).then().statusCode(400).body("violations.field", hasItem("candidates[0].candidateId"));
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON)
                .body(Map.of("candidates", IntStream.range(0, 1001).mapToObj(i -> Map.of("candidateId", "c" + i)).toList()))
                .post(path).then().statusCode(400).body("violations.field", hasItem("candidates"));
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON).body("{\"candidates\": {}}")
                .post(path).then().statusCode(400).body("code", equalTo("INVALID_FIELD"));
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON)
                .body(Map.of("candidates", List.of(Map.of("candidateId", "x"))))
                .post("/api/v1/exams/" + UUID.randomUUID() + "/candidates").then().statusCode(404)
                .body("code", equalTo("EXAM_NOT_FOUND"));
        given().auth().oauth2(TestTokens.candidate("s", examId, "c", 1)).contentType(ContentType.JSON)
                .body(Map.of("candidates", List.of(Map.of("candidateId", "x")))).post(path).then().statusCode(403);
    }

    // --- start, resume, window

    @Test
    void startGivesTokenTimeAndPaperWithoutKeys() {
        String examId = Fixtures.openExam(now());
        String candidate = newCandidateId();
        String code = enroll(examId, candidate).get(0);
        Response response = start(examId, candidate, code);
        response.then()
                .statusCode(201)
                .body("sessionId", notNullValue())
                .body("deviceEpoch", equalTo(1))
                .body("status", equalTo("IN_PROGRESS"))
                .body("graceSeconds", equalTo(30))
                .body("remainingMs", equalTo(3_600_000))
                .body("paper.questions.id", equalTo(List.of("q1", "q2", "q3", "q4", "q5", "q6")))
                .body("paper.questions[0].options", equalTo(List.of("3", "4")))
                .body("paper.questions[0].points", equalTo(2));
        String body = response.asString();
        for (String secret : new String[] {"\"key\"", "tolerance", "scoring", "Paris", "0.005"}) {
            assertFalse(body.contains(secret), secret + " leaked: " + body);
        }
        Instant deadline = Instant.parse(response.path("deadline"));
        Instant serverTime = Instant.parse(response.path("serverTime"));
        assertTrue(Math.abs(Duration.between(serverTime, deadline).minusHours(1).toMillis()) <= 1);

        // the token is RS256 from exam-session for exam-candidate with the session's claims
        String token = response.path("token");
        String[] parts = token.split("\\.");
        String header = new String(Base64.getUrlDecoder().decode(parts[0]), StandardCharsets.UTF_8);
        String claims = new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8);
        assertTrue(header.contains("\"alg\":\"RS256\""), header);
        assertTrue(claims.contains("\"iss\":\"exam-session\""), claims);
        assertTrue(claims.contains("\"aud\":\"exam-candidate\""), claims);
        assertTrue(claims.contains("\"sessionId\":\"" + response.path("sessionId") + "\""), claims);
        assertTrue(claims.contains("\"examId\":\"" + examId + "\""), claims);
        assertTrue(claims.contains("\"candidateId\":\"" + candidate + "\""), claims);
        assertTrue(claims.contains("\"deviceEpoch\":1"), claims);
        assertFalse(claims.contains("deadline"), claims);
        long iat = Long.parseLong(claims.replaceAll(".*\"iat\":(\\d+).*", "$1"));
        long exp = Long.parseLong(claims.replaceAll(".*\"exp\":(\\d+).*", "$1"));
        assertEquals(900, exp - iat);

        given().auth().oauth2(token).get("/api/v1/sessions/" + response.path("sessionId")).then()
                .statusCode(200).body("status", equalTo("IN_PROGRESS")).body("paperId", nullValue())
                .body("remainingMs", greaterThan(3_500_000)).body("serverTime", notNullValue());
    }

    @Test
    void deadlineIsTheEarlierOfCloseAndDuration() {
        Instant closes = now().plus(Duration.ofMinutes(30)).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        String examId = Fixtures.createExam(Fixtures.examBody(now().minus(Duration.ofHours(1)), closes, 3600));
        String candidate = newCandidateId();
        start(examId, candidate, enroll(examId, candidate).get(0)).then().statusCode(201)
                .body("deadline", equalTo(closes.toString()));
    }

    @Test
    void resumingGivesTheSameSessionWithAHigherEpochAndTakesOver() {
        String examId = Fixtures.openExam(now());
        Started first = Fixtures.startFresh(examId);
        Response again = start(examId, first.candidateId(), first.accessCode());
        again.then().statusCode(200).body("sessionId", equalTo(first.sessionId())).body("deviceEpoch", equalTo(2))
                .body("paper.questions", not(empty()));
        String newToken = again.path("token");
        assertNotEquals(first.token(), newToken);
        assertEquals("2", redis.hash(String.class).hget(RedisKeys.sessionState(first.sessionId()), "epoch"));

        given().auth().oauth2(first.token()).post("/api/v1/sessions/" + first.sessionId() + "/heartbeat").then()
                .statusCode(409).contentType("application/problem+json").body("code", equalTo("SESSION_TAKEN_OVER"));
        given().auth().oauth2(newToken).post("/api/v1/sessions/" + first.sessionId() + "/heartbeat").then()
                .statusCode(200).body("deviceEpoch", equalTo(2))
                .body("commands.type", hasItem("TAKEN_OVER"));
        start(examId, first.candidateId(), first.accessCode()).then().statusCode(200).body("deviceEpoch", equalTo(3));

        given().auth().oauth2(TestTokens.operator()).get("/api/v1/exams/" + examId + "/monitor").then()
                .statusCode(200)
                .body("recentAlerts.findAll { it.type == 'TAKEOVER' }.sessionId", everyItem(equalTo(first.sessionId())))
                .body("recentAlerts.findAll { it.type == 'TAKEOVER' }.size()", equalTo(2));
    }

    @Test
    void windowIsEnforced() {
        String examId = Fixtures.createExam(Fixtures.examBody(now().plus(Duration.ofHours(1)), now().plus(Duration.ofHours(3)), 3600));
        String candidate = newCandidateId();
        String code = enroll(examId, candidate).get(0);
        start(examId, candidate, code).then().statusCode(409).contentType("application/problem+json")
                .body("code", equalTo("EXAM_NOT_OPEN")).body("opensAt", notNullValue());
        clock.advance(Duration.ofMinutes(61));
        start(examId, candidate, code).then().statusCode(201);
        clock.advance(Duration.ofHours(2));
        start(examId, candidate, code).then().statusCode(409).body("code", equalTo("EXAM_NOT_OPEN"));
    }

    @Test
    void unknownExamUnknownCandidateAndWrongCodeGetTheSame401() {
        String examId = Fixtures.openExam(now());
        String candidate = newCandidateId();
        String code = enroll(examId, candidate).get(0);
        String wrong = code.equals("AAAA-AAAA-AAAA") ? "BBBB-BBBB-BBBB" : "AAAA-AAAA-AAAA";
        List<Response> answers = List.of(start(UUID.randomUUID().toString(), candidate, code),
                start(examId, newCandidateId(), code), start(examId, candidate, wrong));
        for (Response answer : answers) {
            answer.then().statusCode(401).contentType("application/problem+json").body("code", equalTo("ACCESS_DENIED"));
        }
        assertEquals(answers.get(0).asString(), answers.get(1).asString());
        assertEquals(answers.get(1).asString(), answers.get(2).asString());
    }

    @Test
    void wrongCodesAreThrottledPerCandidateButNeverKeepTheRightCodeOut() {
        String examId = Fixtures.openExam(now());
        String candidate = newCandidateId();
        String neighbour = newCandidateId();
        List<String> codes = enroll(examId, candidate, neighbour);
        for (int i = 0; i < 6; i++) {
            start(examId, candidate, "WRONG-CODE-" + i).then().statusCode(401);
        }
        // now a wrong code must wait...
        Response throttled = start(examId, candidate, "WRONG-CODE-6");
        throttled.then().statusCode(429).contentType("application/problem+json").body("code", equalTo("TOO_MANY_ATTEMPTS"))
                .header("Retry-After", "1");
        // ...but the right code opens at once: a classmate's wrong codes for this candidate id do not keep her out
        start(examId, candidate, codes.get(0)).then().statusCode(201);
        // and a neighbour in the same hall (same address) is not slowed down either
        start(examId, neighbour, codes.get(1)).then().statusCode(201);
        // the right code forgot the failures: wrong codes start from the free ones again
        start(examId, candidate, "WRONG-AGAIN").then().statusCode(401);
        redis.key().del(RedisKeys.accessThrottle(examId, candidate));
    }

    @Test
    void theWaitGrowsButIsCapped() {
        String examId = Fixtures.openExam(now());
        String candidate = newCandidateId();
        enroll(examId, candidate);
        String retryAfter = null;
        for (int i = 0; i < 24; i++) {
            Response answer = start(examId, candidate, "WRONG");
            if (answer.statusCode() == 429) {
                retryAfter = answer.header("Retry-After");
                clock.advance(Duration.ofSeconds(Long.parseLong(retryAfter)));
            }
        }
        assertEquals("60", retryAfter);
        redis.key().del(RedisKeys.accessThrottle(examId, candidate));
    }

    @Test
    void startInputIsValidated() {
        given().contentType(ContentType.JSON).body("{}").post("/api/v1/sessions").then().statusCode(400)
                .contentType("application/problem+json").body("code", equalTo("VALIDATION_FAILED"))
                .body("violations.field", hasItem("accessCode"));
        given().contentType(ContentType.JSON).body("[1,2]").post("/api/v1/sessions").then().statusCode(400)
                .body("code", equalTo("INVALID_FIELD"));
        given().contentType(ContentType.JSON).body("{\"examId\": ").post("/api/v1/sessions").then().statusCode(400)
                .body("code", equalTo("MALFORMED_JSON"));
        given().contentType(ContentType.JSON).body(Map.of("examId", "e", "candidateId", "c", "accessCode", "x".repeat(65)))
                .post("/api/v1/sessions").then().statusCode(400).body("violations.field", hasItem("accessCode"));
    }

    // --- reading, heartbeat, tokens

    @Test
    void candidatesReachOnlyTheirOwnSession() {
        String examId = Fixtures.openExam(now());
        Started mine = Fixtures.startFresh(examId);
        Started theirs = Fixtures.startFresh(examId);
        given().auth().oauth2(mine.token()).get("/api/v1/sessions/" + theirs.sessionId()).then().statusCode(403)
                .contentType("application/problem+json").body("code", equalTo("FORBIDDEN"));
        given().auth().oauth2(mine.token()).post("/api/v1/sessions/" + theirs.sessionId() + "/heartbeat").then()
                .statusCode(403);
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/sessions/" + theirs.sessionId()).then().statusCode(200);
        given().auth().oauth2(TestTokens.operator()).post("/api/v1/sessions/" + theirs.sessionId() + "/heartbeat").then()
                .statusCode(403);
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/sessions/" + UUID.randomUUID()).then().statusCode(404)
                .body("code", equalTo("SESSION_NOT_FOUND"));
    }

    @Test
    void forgedTokensAreRefusedOnSessionEndpoints() {
        String examId = Fixtures.openExam(now());
        Started s = Fixtures.startFresh(examId);
        String path = "/api/v1/sessions/" + s.sessionId();
        List<String> forgeries = new ArrayList<>(List.of(TestTokens.expiredCandidate(s.sessionId(), examId, s.candidateId(), 1),
                TestTokens.wrongAudienceCandidate(s.sessionId(), examId, s.candidateId()), TestTokens.unsignedOperator(),
                TestTokens.strangerOperator(), TestTokens.wrongIssuerOperator(), TestTokens.garbage(),
                TestTokens.serviceSignedWithCandidateKey(),
                TestTokens.unsignedCandidate(s.sessionId(), examId, s.candidateId(), 1),
                TestTokens.strangerCandidate(s.sessionId(), examId, s.candidateId(), 1),
                TestTokens.hmacCandidateWithPublicKey(s.sessionId(), examId, s.candidateId(), 1)));
        forgeries.addAll(TestTokens.otherAlgorithmCandidates(s.sessionId(), examId, s.candidateId(), 1));
        for (String forged : forgeries) {
            given().auth().oauth2(forged).get(path).then().statusCode(401).contentType("application/problem+json")
                    .body("code", equalTo("UNAUTHORIZED"));
            given().auth().oauth2(forged).post(path + "/heartbeat").then().statusCode(401);
        }
        given().get(path).then().statusCode(401).contentType("application/problem+json");
        // a token with the right shape but signed by someone else's key (a stranger minting candidate tokens)
        String tampered = s.token().substring(0, s.token().lastIndexOf('.') + 1) + "AAAA";
        given().auth().oauth2(tampered).get(path).then().statusCode(401);
        // candidate and operator tokens never reach /internal
        given().auth().oauth2(s.token()).contentType(ContentType.JSON).body(Map.of("paperId", "p"))
                .post("/internal/v1/sessions/" + s.sessionId() + "/submitted").then().statusCode(403)
                .contentType("application/problem+json");
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON).body(Map.of("paperId", "p"))
                .post("/internal/v1/sessions/" + s.sessionId() + "/submitted").then().statusCode(403);
        given().contentType(ContentType.JSON).body(Map.of("paperId", "p"))
                .post("/internal/v1/sessions/" + s.sessionId() + "/submitted").then().statusCode(401);
        given().auth().oauth2(s.token()).get(path).then().statusCode(200).body("status", equalTo("IN_PROGRESS"));
    }

    @Test
    void heartbeatKeepsTheCallersTokenWhileMoreThanHalfItsLifetimeIsLeft() {
        String examId = Fixtures.openExam(now());
        Started s = Fixtures.startFresh(examId);
        String path = "/api/v1/sessions/" + s.sessionId() + "/heartbeat";
        Response early = given().auth().oauth2(s.token()).post(path);
        early.then().statusCode(200).body("token", equalTo(s.token()));
        String expiresAt = early.path("tokenExpiresAt");
        clock.advance(Duration.ofMinutes(7)); // 8 of the 15 minutes left
        given().auth().oauth2(s.token()).post(path).then().statusCode(200).body("token", equalTo(s.token()))
                .body("tokenExpiresAt", equalTo(expiresAt));
        clock.advance(Duration.ofSeconds(31)); // under half left: a new token, a later expiry
        Response late = given().auth().oauth2(s.token()).post(path);
        late.then().statusCode(200).body("deviceEpoch", equalTo(1));
        assertNotEquals(s.token(), late.path("token"));
        assertTrue(Instant.parse(late.path("tokenExpiresAt")).isAfter(Instant.parse(expiresAt)));
    }

    @Test
    void heartbeatRenewsTheTokenWithTheSameEpoch() {
        String examId = Fixtures.openExam(now());
        Started s = Fixtures.startFresh(examId);
        clock.advance(Duration.ofMinutes(10));
        Response beat = given().auth().oauth2(s.token()).queryParam("lastCommandId", 0)
                .post("/api/v1/sessions/" + s.sessionId() + "/heartbeat");
        beat.then().statusCode(200)
                .body("status", equalTo("IN_PROGRESS"))
                .body("deviceEpoch", equalTo(1))
                .body("serverTime", notNullValue())
                .body("remainingMs", allOf(greaterThan(2_990_000), lessThanOrEqualTo(3_000_000)))
                .body("commands", empty());
        String renewed = beat.path("token");
        assertNotEquals(s.token(), renewed);
        given().auth().oauth2(renewed).get("/api/v1/sessions/" + s.sessionId()).then().statusCode(200)
                .body("deviceEpoch", equalTo(1));
        given().auth().oauth2(s.token()).queryParam("lastCommandId", "x")
                .post("/api/v1/sessions/" + s.sessionId() + "/heartbeat").then().statusCode(400)
                .body("code", equalTo("VALIDATION_FAILED"));
        given().auth().oauth2(s.token()).queryParam("lastCommandId", -1)
                .post("/api/v1/sessions/" + s.sessionId() + "/heartbeat").then().statusCode(400)
                .body("code", equalTo("VALIDATION_FAILED"));
        given().auth().oauth2(s.token()).delete("/api/v1/sessions/" + s.sessionId()).then().statusCode(405)
                .contentType("application/problem+json");
    }

    // --- published state and status

    @Test
    void stateIsPublishedAndStatusOnlyMovesForward() {
        String examId = Fixtures.openExam(now());
        Started s = Fixtures.startFresh(examId);
        Map<String, String> state = redis.hash(String.class).hgetall(RedisKeys.sessionState(s.sessionId()));
        SessionView view = given().auth().oauth2(s.token()).get("/api/v1/sessions/" + s.sessionId()).as(SessionView.class);
        assertEquals(examId, state.get("examId"));
        assertEquals("1", state.get("epoch"));
        assertEquals(Long.toString(view.deadline().toEpochMilli()), state.get("deadline"));
        assertEquals("30000", state.get("graceMs"));
        assertEquals("IN_PROGRESS", state.get("status"));
        assertTrue(redis.key().pttl(RedisKeys.sessionState(s.sessionId())) > 0);

        String submitted = "/internal/v1/sessions/" + s.sessionId() + "/submitted";
        given().auth().oauth2(TestTokens.service(Roles.SUBMISSION_SERVICE)).contentType(ContentType.JSON).body(Map.of("paperId", "paper-1"))
                .post(submitted).then().statusCode(204);
        given().auth().oauth2(TestTokens.service(Roles.SUBMISSION_SERVICE)).contentType(ContentType.JSON).body(Map.of("paperId", "paper-1"))
                .post(submitted).then().statusCode(204);
        given().auth().oauth2(TestTokens.service(Roles.SUBMISSION_SERVICE)).contentType(ContentType.JSON).body(Map.of("paperId", "paper-2"))
                .post(submitted).then().statusCode(409).body("code", equalTo("PAPER_MISMATCH"));
        assertEquals("SUBMITTED", redis.hash(String.class).hget(RedisKeys.sessionState(s.sessionId()), "status"));
        given().auth().oauth2(s.token()).get("/api/v1/sessions/" + s.sessionId()).then().statusCode(200)
                .body("status", equalTo("SUBMITTED")).body("paperId", equalTo("paper-1")).body("remainingMs", equalTo(0))
                .body("submittedBy", nullValue());
        // a later report that says who submitted fills it in (the status stays)
        given().auth().oauth2(TestTokens.service(Roles.SUBMISSION_SERVICE)).contentType(ContentType.JSON)
                .body(Map.of("paperId", "paper-1", "submittedBy", "CANDIDATE")).post(submitted).then().statusCode(204);
        given().auth().oauth2(s.token()).get("/api/v1/sessions/" + s.sessionId()).then()
                .body("status", equalTo("SUBMITTED")).body("submittedBy", equalTo("CANDIDATE"));
        // a later start (resume) does not bring IN_PROGRESS back
        start(examId, s.candidateId(), s.accessCode()).then().statusCode(200).body("status", equalTo("SUBMITTED"))
                .body("paperId", equalTo("paper-1"));
        assertEquals("SUBMITTED", redis.hash(String.class).hget(RedisKeys.sessionState(s.sessionId()), "status"));

        // a reader that lost the state asks for it again
        redis.key().del(RedisKeys.sessionState(s.sessionId()));
        given().auth().oauth2(TestTokens.service(Roles.ANSWER_SERVICE)).post("/internal/v1/sessions/" + s.sessionId() + "/publish").then()
                .statusCode(204);
        assertEquals("SUBMITTED", redis.hash(String.class).hget(RedisKeys.sessionState(s.sessionId()), "status"));
        assertEquals("2", redis.hash(String.class).hget(RedisKeys.sessionState(s.sessionId()), "epoch"));
    }

    @Test
    void papersStoredTogetherAreRecordedInOneCallEachAsItsOwnCallWould() {
        String examId = Fixtures.openExam(now());
        Started a = Fixtures.startFresh(examId);
        Started b = Fixtures.startFresh(examId);
        Started mismatched = Fixtures.startFresh(examId);
        given().auth().oauth2(TestTokens.service(Roles.SUBMISSION_SERVICE)).contentType(ContentType.JSON).body(Map.of("paperId", "paper-m"))
                .post("/internal/v1/sessions/" + mismatched.sessionId() + "/submitted").then().statusCode(204);
        String unknown = UUID.randomUUID().toString();
        String body = "{\"papers\":[{\"sessionId\":\"" + a.sessionId() + "\",\"paperId\":\"paper-a\"},"
                + "{\"sessionId\":\"" + b.sessionId() + "\",\"paperId\":\"paper-b\",\"submittedBy\":\"AUTO\"},"
                + "{\"sessionId\":\"" + mismatched.sessionId() + "\",\"paperId\":\"paper-other\"},"
                + "{\"sessionId\":\"" + unknown + "\",\"paperId\":\"paper-u\"}]}";
        for (int attempt = 0; attempt < 2; attempt++) { // idempotent: the same answer again
            given().auth().oauth2(TestTokens.service(Roles.SUBMISSION_SERVICE)).contentType(ContentType.JSON).body(body)
                    .post("/internal/v1/sessions/submitted").then().statusCode(200).contentType("application/json")
                    .body("failed.size()", equalTo(2))
                    .body("failed." + mismatched.sessionId(), equalTo("PAPER_MISMATCH"))
                    .body("failed." + unknown, equalTo("SESSION_NOT_FOUND"));
        }
        given().auth().oauth2(a.token()).get("/api/v1/sessions/" + a.sessionId()).then()
                .body("status", equalTo("SUBMITTED")).body("paperId", equalTo("paper-a"));
        given().auth().oauth2(b.token()).get("/api/v1/sessions/" + b.sessionId()).then()
                .body("status", equalTo("SUBMITTED")).body("paperId", equalTo("paper-b")).body("submittedBy", equalTo("AUTO"));
        assertEquals("SUBMITTED", redis.hash(String.class).hget(RedisKeys.sessionState(b.sessionId()), "status"));
        given().auth().oauth2(mismatched.token()).get("/api/v1/sessions/" + mismatched.sessionId()).then()
                .body("paperId", equalTo("paper-m"));

        given().auth().oauth2(a.token()).contentType(ContentType.JSON).body(body).post("/internal/v1/sessions/submitted")
                .then().statusCode(403).contentType("application/problem+json");
        for (String bad : List.of("{}", "{\"papers\":[]}", "{\"papers\":[{\"sessionId\":\"x\"}]}",
                "{\"papers\":[{\"sessionId\":\"x\",\"paperId\":\"p\",\"submittedBy\":\"ME\"}]}")) {
            given().auth().oauth2(TestTokens.service(Roles.SUBMISSION_SERVICE)).contentType(ContentType.JSON).body(bad)
                    .post("/internal/v1/sessions/submitted").then().statusCode(400).contentType("application/problem+json")
                    .body("code", equalTo("VALIDATION_FAILED"));
        }
    }

    @Test
    void submittedInputIsChecked() {
        given().auth().oauth2(TestTokens.service(Roles.SUBMISSION_SERVICE)).contentType(ContentType.JSON).body(Map.of("paperId", "p"))
                .post("/internal/v1/sessions/" + UUID.randomUUID() + "/submitted").then().statusCode(404)
                .contentType("application/problem+json").body("code", equalTo("SESSION_NOT_FOUND"));
        given().auth().oauth2(TestTokens.service(Roles.SUBMISSION_SERVICE)).contentType(ContentType.JSON).body("{}")
                .post("/internal/v1/sessions/x/submitted").then().statusCode(400).body("code", equalTo("VALIDATION_FAILED"));
        given().auth().oauth2(TestTokens.service(Roles.SUBMISSION_SERVICE)).contentType(ContentType.JSON).body(Map.of("paperId", "p", "submittedBy", "ME"))
                .post("/internal/v1/sessions/x/submitted").then().statusCode(400).body("violations.field", hasItem("submittedBy"));
        given().auth().oauth2(TestTokens.service(Roles.SUBMISSION_SERVICE)).post("/internal/v1/sessions/" + UUID.randomUUID() + "/publish").then()
                .statusCode(404).body("code", equalTo("SESSION_NOT_FOUND"));
        given().auth().oauth2(TestTokens.service(Roles.SUBMISSION_SERVICE)).get("/internal/v1/sessions/x/submitted").then().statusCode(405)
                .contentType("application/problem+json").body("detail", containsString("not allowed"));
    }
}
