package org.examsuite.session;

import static io.restassured.RestAssured.given;

/** Test-side handle on {@link SubmissionStub}, over its HTTP control API. */
public final class StubControl {
    private final String baseUrl;

    public StubControl(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    /** How many auto-submit calls the stub answered with a paper for the session. */
    public int calls(String sessionId) {
        return Integer.parseInt(lastCall(sessionId).split("\n", 2)[0]);
    }

    /** The count, the Authorization header and the body of the last call. */
    public String lastCall(String sessionId) {
        return given().baseUri(baseUrl).get("/stub/calls/" + sessionId).then().statusCode(200).extract().asString();
    }

    public void fail(String sessionId) {
        given().baseUri(baseUrl).post("/stub/fail/" + sessionId).then().statusCode(204);
    }

    public void recover(String sessionId) {
        given().baseUri(baseUrl).delete("/stub/fail/" + sessionId).then().statusCode(204);
    }

    /** What the stub's answer-service says of the session's draft (a JSON object: answered, lastSavedAt). */
    public void summary(String sessionId, String summaryJson) {
        given().baseUri(baseUrl).body(summaryJson).put("/stub/summary/" + sessionId).then().statusCode(204);
    }
}
