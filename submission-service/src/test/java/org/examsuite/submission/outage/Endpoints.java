package org.examsuite.submission.outage;

import static io.restassured.RestAssured.given;

import io.restassured.response.ValidatableResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.examsuite.submission.support.SubmissionTestBase.Session;
import org.examsuite.common.auth.Roles;
import org.examsuite.testing.TestTokens;

/** Every endpoint of submission-service but the submission itself, called once on a session's paper, for the outage tests. */
final class Endpoints {
    private Endpoints() {
    }

    static Map<String, Supplier<ValidatableResponse>> all(Session s, String paperId) {
        Map<String, Supplier<ValidatableResponse>> all = new LinkedHashMap<>();
        all.put("read the paper", () -> given().auth().oauth2(s.token()).get("/api/v1/submissions/" + paperId).then());
        all.put("read the paper (operator)", () -> given().auth().oauth2(TestTokens.operator())
                .get("/api/v1/submissions/" + paperId).then());
        all.put("internal: read the paper", () -> service(Roles.GRADING_SAGA).get("/internal/v1/papers/" + paperId).then());
        all.put("internal: grading started", () -> service(Roles.SESSION_SERVICE).post("/internal/v1/papers/" + paperId + "/grading-started").then());
        all.put("internal: auto-submit (the paper exists)", () -> service(Roles.SESSION_SERVICE).contentType("application/json")
                .body("{\"submittedBy\":\"AUTO\",\"actor\":\"test\"}").post("/internal/v1/sessions/" + s.id() + "/auto-submit").then());
        return all;
    }

    private static io.restassured.specification.RequestSpecification service(String caller) {
        return given().auth().oauth2(TestTokens.service(caller));
    }
}
