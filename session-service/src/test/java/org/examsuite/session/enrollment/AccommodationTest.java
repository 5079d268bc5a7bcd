package org.examsuite.session.enrollment;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.examsuite.session.Fixtures;
import org.examsuite.session.StubControl;
import org.examsuite.session.TestClock;
import org.examsuite.session.autosubmit.AutoSubmitter;
import org.examsuite.testing.TestTokens;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Time accommodations at enrollment: the deadline of the start answer, the session and auto-submit follow
 * duration × multiplier + extra minutes exactly (the injectable clock), the exam's window closes as much later for
 * that candidate, and enrolling again before the start changes them.
 */
@QuarkusTest
class AccommodationTest {
    @Inject
    TestClock clock;
    @Inject
    AutoSubmitter submitter;
    @ConfigProperty(name = "exam.test.submission-stub")
    String stubUrl;

    @BeforeEach
    void resetClock() {
        clock.reset();
    }

    private static Response enroll(String examId, List<Map<String, Object>> candidates) {
        return given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON).body(Map.of("candidates", candidates))
                .post("/api/v1/exams/" + examId + "/candidates");
    }

    private static String code(String examId, String candidateId, Map<String, Object> accommodation) {
        Map<String, Object> spec = accommodation == null ? Map.of("candidateId", candidateId)
                : Map.of("candidateId", candidateId, "accommodation", accommodation);
        return enroll(examId, List.of(spec)).then().statusCode(201).extract().path("candidates[0].accessCode");
    }

    /** The seconds from the start to the deadline (as the start answer tells them: remainingMs). */
    private static long deadlineAfterStart(String examId, String candidateId, String code) {
        Response started = Fixtures.start(examId, candidateId, code);
        started.then().statusCode(201);
        long remainingMs = ((Number) started.path("remainingMs")).longValue();
        return Math.round(remainingMs / 1000.0);
    }

    @Test
    void theDeadlineIsTheDurationTimesTheMultiplierPlusTheExtraMinutes() {
        Instant now = clock.instant();
        String examId = Fixtures.createExam(Fixtures.examBody(now.minus(Duration.ofMinutes(1)), now.plus(Duration.ofHours(3)), 3600));
        String none = Fixtures.newCandidateId();
        String quarter = Fixtures.newCandidateId();
        String extra = Fixtures.newCandidateId();
        String both = Fixtures.newCandidateId();
        assertEquals(3600, deadlineAfterStart(examId, none, code(examId, none, null)));
        assertEquals(4500, deadlineAfterStart(examId, quarter, code(examId, quarter, Map.of("durationMultiplier", 1.25))));
        assertEquals(4200, deadlineAfterStart(examId, extra, code(examId, extra, Map.of("extraMinutes", 10))));
        assertEquals(5100, deadlineAfterStart(examId, both,
                code(examId, both, Map.of("durationMultiplier", 1.25, "extraMinutes", 10))));
        given().auth().oauth2(TestTokens.operator()).queryParam("examId", examId).get("/api/v1/audit").then()
                .body("entries.detail.accommodations.'" + quarter + "'.durationPermille", hasItem(1250));
    }

    @Test
    void theWindowClosesAsMuchLaterAndEnrollingAgainBeforeTheStartChangesTheTerms() {
        Instant now = clock.instant().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        Instant closesAt = now.plus(Duration.ofMinutes(30));
        // closes in 30 min: a 60-minute exam started now ends at closesAt, +25 % at closesAt + 15 min
        String examId = Fixtures.createExam(Fixtures.examBody(now.minus(Duration.ofMinutes(40)), closesAt, 3600));
        String plain = Fixtures.newCandidateId();
        String quarter = Fixtures.newCandidateId();
        Fixtures.start(examId, plain, code(examId, plain, null)).then().statusCode(201).body("deadline", equalTo(closesAt.toString()));
        code(examId, quarter, Map.of("extraMinutes", 5));
        String again = code(examId, quarter, Map.of("durationMultiplier", 1.25)); // replaces the terms (and the code)
        Fixtures.start(examId, quarter, again).then().statusCode(201)
                .body("deadline", equalTo(closesAt.plus(Duration.ofMinutes(15)).toString()));
    }

    @Test
    void autoSubmitTakesTheSessionAtItsOwnDeadlinePlusGrace() {
        Instant now = clock.instant();
        String examId = Fixtures.createExam(Fixtures.examBody(now.minus(Duration.ofMinutes(1)), now.plus(Duration.ofHours(2)), 60));
        String candidateId = Fixtures.newCandidateId();
        Response started = Fixtures.start(examId, candidateId, code(examId, candidateId, Map.of("durationMultiplier", 1.5)));
        String sessionId = started.path("sessionId");
        StubControl stub = new StubControl(stubUrl);
        clock.advance(Duration.ofSeconds(60 + 30 + 2)); // past an unaccommodated session's deadline + grace
        submitter.runOnce("replica-a").await().indefinitely();
        assertEquals(0, stub.calls(sessionId), "90 s of exam, 30 s of grace");
        clock.advance(Duration.ofSeconds(30));
        submitter.runOnce("replica-a").await().indefinitely();
        assertEquals(1, stub.calls(sessionId));
    }

    @Test
    void termsOutOfRangeAreRefused() {
        String examId = Fixtures.openExam(clock.instant());
        for (Map<String, Object> bad : List.of(Map.<String, Object>of("durationMultiplier", 0.9),
                Map.<String, Object>of("durationMultiplier", 4.5), Map.<String, Object>of("durationMultiplier", 1.2345),
                Map.<String, Object>of("extraMinutes", -1), Map.<String, Object>of("extraMinutes", 1441))) {
            enroll(examId, List.of(Map.of("candidateId", Fixtures.newCandidateId(), "accommodation", bad))).then().statusCode(400)
                    .contentType("application/problem+json").body("code", equalTo("VALIDATION_FAILED"));
        }
        enroll(examId, List.of(Map.of("candidateId", Fixtures.newCandidateId(), "accommodation", Map.of("extraMinutes", "lots"))))
                .then().statusCode(400).body("code", equalTo("INVALID_FIELD"));
    }
}
