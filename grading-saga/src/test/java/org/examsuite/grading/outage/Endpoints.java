package org.examsuite.grading.outage;

import static io.restassured.RestAssured.given;

import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.examsuite.grading.Fixture.Submitted;
import org.examsuite.testing.TestTokens;

/** Every endpoint of grading-saga, called once on a graded paper, its saga and its exam, for the outage tests. */
final class Endpoints {
    private Endpoints() {
    }

    static Map<String, Supplier<ValidatableResponse>> all(Submitted paper, String sagaId) {
        String exam = "/api/v1/results/exams/" + paper.examId();
        Map<String, Supplier<ValidatableResponse>> all = new LinkedHashMap<>();
        all.put("read a result", () -> operator().get("/api/v1/results/" + paper.paperId()).then());
        all.put("mark", () -> operator().contentType(ContentType.JSON).body("{\"marks\": {\"q1\": 1}}")
                .post("/api/v1/results/" + paper.paperId() + "/marks").then());
        all.put("list an exam's results", () -> operator().get(exam).then());
        all.put("export as CSV", () -> operator().get(exam + "/export?format=csv").then());
        all.put("export as JSON", () -> operator().get(exam + "/export?format=json").then());
        all.put("statistics", () -> operator().get(exam + "/statistics").then());
        all.put("release", () -> operator().post(exam + "/release").then());
        all.put("regrade", () -> operator().post(exam + "/regrade").then());
        all.put("read a saga", () -> operator().get("/api/v1/sagas/" + sagaId).then());
        all.put("retry a saga", () -> operator().post("/api/v1/sagas/" + sagaId + "/retry").then());
        all.put("archive head", () -> operator().get("/api/v1/archive/head").then());
        return all;
    }

    private static io.restassured.specification.RequestSpecification operator() {
        return given().auth().oauth2(TestTokens.operator());
    }
}
