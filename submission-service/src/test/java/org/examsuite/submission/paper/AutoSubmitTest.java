package org.examsuite.submission.paper;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.time.Duration;
import org.examsuite.submission.support.Stubs;
import org.examsuite.submission.support.SubmissionTestBase;
import org.examsuite.testing.TestKeys;
import org.examsuite.common.auth.Roles;
import org.examsuite.testing.TestTokens;
import org.junit.jupiter.api.Test;

/** POST /internal/v1/sessions/{id}/auto-submit: session-service's auto- and force-submit. */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(Stubs.class)
class AutoSubmitTest extends SubmissionTestBase {

    @Test
    void autoSubmitStoresThePaperOnceAndIsSafeToRetry() {
        Session s = session(Duration.ofMinutes(-1));
        Stubs.DRAFTS.put(s.id(), "{\"q1\":{\"value\":\"a\",\"version\":3,\"epoch\":1}}");
        String paperId = autoSubmit(s, "AUTO").statusCode(201).contentType(ContentType.JSON)
                .body("submittedBy", equalTo("AUTO")).body("candidateId", equalTo(s.candidateId()))
                .body("answers.q1.value", equalTo("a")).extract().path("paperId");
        autoSubmit(s, "PROCTOR").statusCode(200).body("paperId", equalTo(paperId)).body("submittedBy", equalTo("AUTO"));
        given().auth().oauth2(TestTokens.service(Roles.SESSION_SERVICE)).contentType(ContentType.JSON).body("{}")
                .post("/internal/v1/sessions/" + s.id() + "/auto-submit").then().statusCode(200)
                .body("paperId", equalTo(paperId));
    }

    @Test
    void twoSessionServiceReplicasAutoSubmittingTheSameSessionsMakeOnePaperEach() throws Exception {
        java.util.List<Session> expired = new java.util.ArrayList<>();
        for (int i = 0; i < 10; i++) {
            expired.add(session(Duration.ofMinutes(-1)));
        }
        java.util.concurrent.ExecutorService replicas = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            java.util.List<java.util.concurrent.Future<java.util.List<io.restassured.response.Response>>> runs = new java.util.ArrayList<>();
            for (int replica = 0; replica < 2; replica++) {
                runs.add(replicas.submit(() -> {
                    java.util.List<io.restassured.response.Response> answers = new java.util.ArrayList<>();
                    for (Session s : expired) {
                        answers.add(autoSubmit(s, "AUTO").extract().response());
                    }
                    return answers;
                }));
            }
            java.util.List<io.restassured.response.Response> first = runs.get(0).get();
            java.util.List<io.restassured.response.Response> second = runs.get(1).get();
            for (int i = 0; i < expired.size(); i++) {
                int a = first.get(i).statusCode();
                int b = second.get(i).statusCode();
                org.junit.jupiter.api.Assertions.assertTrue((a == 201 && b == 200) || (a == 200 && b == 201),
                        "one replica stored it, the other got it: " + a + "/" + b);
                org.junit.jupiter.api.Assertions.assertEquals(first.get(i).<String>path("paperId"), second.get(i).path("paperId"));
                org.junit.jupiter.api.Assertions.assertEquals(1, paperCount(expired.get(i)));
            }
        } finally {
            replicas.shutdownNow();
        }
    }

    @Test
    void refusesBadRequestsAndOtherCallers() {
        Session s = session();
        autoSubmit(s, "CANDIDATE").statusCode(400).contentType("application/problem+json").body("code", equalTo("INVALID_FIELD"));
        given().auth().oauth2(TestTokens.service(Roles.SESSION_SERVICE)).contentType(ContentType.JSON).body("{\"submittedBy\":")
                .post("/internal/v1/sessions/" + s.id() + "/auto-submit").then().statusCode(400)
                .contentType("application/problem+json");
        given().auth().oauth2(TestTokens.service(Roles.SESSION_SERVICE)).contentType(ContentType.JSON).body("{}")
                .post("/internal/v1/sessions/s-no-such-session/auto-submit").then().statusCode(404)
                .body("code", equalTo("SESSION_NOT_FOUND"));
        given().auth().oauth2(s.token()).contentType(ContentType.JSON).body("{}")
                .post("/internal/v1/sessions/" + s.id() + "/auto-submit").then().statusCode(403);
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON).body("{}")
                .post("/internal/v1/sessions/" + s.id() + "/auto-submit").then().statusCode(403);
    }

    @Test
    void metricsCountSubmissionsByOutcome() {
        Session s = session();
        submit(s, "k-1", sheet(s.id(), "q1", "\"4\"", 1)).statusCode(201);
        submit(s, null, sheet(s.id(), "q1", "\"4\"", 1)).statusCode(400);
        given().get("/q/metrics").then().statusCode(200)
                .body(containsString("exam_submissions_total{outcome=\"created\"}"))
                .body(containsString("exam_submissions_total{outcome=\"rejected\"}"))
                .body(containsString("exam_submission_duration_seconds_count"));
    }
}
