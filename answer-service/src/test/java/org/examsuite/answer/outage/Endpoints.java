package org.examsuite.answer.outage;

import static io.restassured.RestAssured.given;
import static org.examsuite.answer.support.Fixtures.change;

import io.restassured.response.ValidatableResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.examsuite.answer.support.Fixtures.TestSession;
import org.examsuite.common.auth.Roles;
import org.examsuite.testing.TestTokens;

/** Every endpoint of answer-service, called once on a session whose draft is open, for the outage tests. */
final class Endpoints {
    private Endpoints() {
    }

    static Map<String, Supplier<ValidatableResponse>> all(TestSession s) {
        String draft = "/api/v1/answers/" + s.sessionId();
        Map<String, Supplier<ValidatableResponse>> all = new LinkedHashMap<>();
        all.put("autosave", () -> s.patch(change(2, "q1", "\"4\"")));
        all.put("read the draft", s::draft);
        all.put("read the draft (operator)", () -> given().auth().oauth2(TestTokens.operator()).get(draft).then());
        all.put("history", () -> given().auth().oauth2(TestTokens.operator()).get(draft + "/history").then());
        all.put("internal: summaries", () -> service(Roles.SESSION_SERVICE).contentType("application/json")
                .body("{\"sessionIds\": [\"" + s.sessionId() + "\"]}").post("/internal/v1/answers/summary").then());
        all.put("internal: seal a batch", () -> service(Roles.SUBMISSION_SERVICE).contentType("application/json")
                .body("{\"sessionIds\": [\"" + s.sessionId() + "\"]}").post("/internal/v1/answers/seal").then());
        all.put("internal: seal", s::seal);
        return all;
    }

    private static io.restassured.specification.RequestSpecification service(String caller) {
        return given().auth().oauth2(TestTokens.service(caller));
    }
}
