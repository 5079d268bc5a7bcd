package org.examsuite.session;

import static io.restassured.RestAssured.given;

import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.examsuite.testing.TestTokens;

/** Builds exams, enrollments and sessions through the real API. */
public final class Fixtures {
    private Fixtures() {
    }

    public static String exampleQuestions() {
        return """
                [
                 {"id": "q1", "type": "SINGLE", "prompt": "2+2?", "options": ["3", "4"], "points": 2, "key": "4"},
                 {"id": "q2", "type": "MULTIPLE", "prompt": "Primes?", "options": ["2", "4", "5"], "points": 3, "key": ["2", "5"]},
                 {"id": "q3", "type": "TRUE_FALSE", "prompt": "0 is even", "points": 1, "key": true},
                 {"id": "q4", "type": "FILL", "prompt": "Capital of France", "points": 1, "key": ["Paris"]},
                 {"id": "q5", "type": "NUMERIC", "prompt": "pi to 2 dp", "points": 1, "key": 3.14, "tolerance": 0.005},
                 {"id": "q6", "type": "ESSAY", "prompt": "Explain why.", "points": 10}]""";
    }

    public static String examBody(Instant opensAt, Instant closesAt, int durationSeconds) {
        return """
                {"title": "Algebra mock", "opensAt": "%s", "closesAt": "%s", "durationSeconds": %d, "graceSeconds": 30,
                 "questions": %s}""".formatted(opensAt, closesAt, durationSeconds, exampleQuestions());
    }

    /** An exam open now (an hour ago until two hours from now) with a one-hour duration. */
    public static String openExam(Instant now) {
        return createExam(examBody(now.minus(Duration.ofHours(1)), now.plus(Duration.ofHours(2)), 3600));
    }

    public static String createExam(String body) {
        return given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON).body(body)
                .post("/api/v1/exams").then().statusCode(201).extract().path("examId");
    }

    public static String newCandidateId() {
        return "c-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** Enrolls the candidates; returns their access codes in order. */
    public static List<String> enroll(String examId, String... candidateIds) {
        List<Map<String, String>> candidates = java.util.Arrays.stream(candidateIds).map(id -> Map.of("candidateId", id)).toList();
        return given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON)
                .body(Map.of("candidates", candidates))
                .post("/api/v1/exams/" + examId + "/candidates").then().statusCode(201)
                .extract().jsonPath().getList("candidates.accessCode", String.class);
    }

    public static Response start(String examId, String candidateId, String accessCode) {
        return given().contentType(ContentType.JSON)
                .body(Map.of("examId", examId, "candidateId", candidateId, "accessCode", accessCode))
                .post("/api/v1/sessions");
    }

    /** A started session of a fresh candidate in an open exam. */
    public static Started startFresh(String examId) {
        String candidateId = newCandidateId();
        String code = enroll(examId, candidateId).get(0);
        Response response = start(examId, candidateId, code);
        response.then().statusCode(201);
        return new Started(examId, candidateId, code, response.path("sessionId"), response.path("token"));
    }

    public record Started(String examId, String candidateId, String accessCode, String sessionId, String token) {
    }
}
